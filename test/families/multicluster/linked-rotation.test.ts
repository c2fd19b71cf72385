import http from 'node:http';
import type { AddressInfo } from 'node:net';
import yaml from 'js-yaml';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { afterEach, describe, expect, it } from 'vitest';
import { rotationText } from '../../../src/cli/output/identity-rotation.js';
import { readRotationState } from '../../../src/core/identity/rotationState.js';
import { addAnchor, removeAnchor, switchIssuer } from '../../../src/core/identity/rotationSteps.js';
import { fingerprintSha256, parseCertificates } from '../../../src/core/pki/index.js';
import { LINKERD_VERSION } from '../../../src/core/version.js';
import { composeInstallValues } from '../../../src/families/multicluster/chart/installValues.js';
import { cliContext, renderMulticluster } from '../../../src/families/multicluster/chart/render.js';
import { linkPeers } from '../../../src/families/multicluster/peers.js';
import { type ApiServer, kubeGlobals, startApiServer, type StoredObject } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { kubectlWithInput } from '../../support/kubectl.js';
import { healthyCluster, makePki } from '../../core/check/support/clusters.js';
import { apply, newAnchorFiles, NS, restartMeshedPods, tempDir } from '../../core/identity/support.js';

/*
 * Two loopback API servers as two clusters: `east` exports (the multicluster extension with its
 * gateway), `west` links to it with the output of `link-gen` run against east. Then `multicluster
 * check` reaches east through the Link's credentials, and a trust-anchor rotation moves both
 * clusters stage by stage, every step of west reading east through the Link.
 */

const MC = 'linkerd-multicluster';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.remote-access-east.signature';
const HOUR = 3_600_000;
const NO_VERSIONCHECK = { LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:9/version.json' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const sha = (pem: string) => parseCertificates(pem, 'test').map(fingerprintSha256)[0] ?? '';

/** A meshed pod of `account` in `namespace`, Running with a ready proxy that carries `bundle`. */
function meshedPod(name: string, namespace: string, account: string, labels: Record<string, string>, bundle: string): StoredObject {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { ...labels, 'linkerd.io/control-plane-ns': NS }, creationTimestamp: new Date(Date.now() - 2 * HOUR).toISOString() },
    spec: {
      serviceAccountName: account,
      containers: [
        { name: 'linkerd-proxy', image: `cr.l5d.io/linkerd/proxy:${LINKERD_VERSION}`, env: [{ name: 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS', value: bundle }] },
      ],
    },
    status: {
      phase: 'Running',
      startTime: new Date(Date.now() - 2 * HOUR).toISOString(),
      containerStatuses: [
        {
          name: 'linkerd-proxy',
          ready: true,
          restartCount: 0,
          image: 'x',
          imageID: 'x',
          state: { running: { startedAt: new Date(Date.now() - 2 * HOUR).toISOString() } },
        },
      ],
    },
  };
  return pod as StoredObject;
}

const KINDS = new Set([
  'Namespace',
  'Deployment',
  'Service',
  'ServiceAccount',
  'Secret',
  'ClusterRole',
  'ClusterRoleBinding',
  'Role',
  'RoleBinding',
  'CustomResourceDefinition',
]);

/** East: Linkerd, the extension with its gateway (an address given by the "load balancer"), the remote-access token, a gateway pod. */
async function eastObjects(o: { gatewayAddress?: boolean; multicluster?: boolean; gateway?: boolean } = {}): Promise<object[]> {
  const cluster = await healthyCluster({ pki: await makePki() });
  if (o.multicluster === false) return cluster.objects;
  const set = o.gateway === false ? ['gateway.enabled=false'] : [];
  const rendered = renderMulticluster(composeInstallValues({ linkerdNamespace: NS, set }), cliContext()).filter((x) => KINDS.has(x.kind));
  const objects = rendered.map((x) => {
    const copy = JSON.parse(JSON.stringify(x)) as StoredObject;
    if (x.kind === 'Secret' && copy.metadata.name === 'linkerd-service-mirror-remote-access-default-token') copy.data = { token: b64(TOKEN) };
    if (x.kind === 'Service' && copy.metadata.name === 'linkerd-gateway' && o.gatewayAddress !== false)
      (copy as { status?: object }).status = { loadBalancer: { ingress: [{ ip: '127.0.0.1' }] } };
    return copy;
  });
  if (o.gateway === false) return [...cluster.objects, ...objects];
  return [...cluster.objects, ...objects, meshedPod('linkerd-gateway-5d8c9-abcde', MC, 'linkerd-gateway', { app: 'linkerd-gateway' }, cluster.bundle)];
}

/** West: Linkerd and the extension with a controller for `east`, running, its probe Service with endpoints. */
async function westObjects(): Promise<object[]> {
  const cluster = await healthyCluster({ pki: await makePki() });
  const values = composeInstallValues({ linkerdNamespace: NS, set: ['controllers[0].link.ref.name=east'] });
  const rendered = renderMulticluster(values, cliContext()).filter((x) => KINDS.has(x.kind));
  const objects = rendered.map((x) => {
    const copy = JSON.parse(JSON.stringify(x)) as StoredObject;
    if (x.kind === 'Deployment' && copy.metadata.name === 'controller-east') (copy as { status?: object }).status = { availableReplicas: 1 };
    return copy;
  });
  const endpoints = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'probe-east', namespace: MC },
    subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'mc-probe', port: 4191 }] }],
  };
  const controllerPod = meshedPod(
    'controller-east-7f9b8-xyz12',
    MC,
    'controller-east',
    { component: 'controller', 'mirror.linkerd.io/cluster-name': 'east' },
    cluster.bundle,
  );
  // The controller's admin port (scraped by check 9 through a port-forward), and the Lease it leads with.
  (controllerPod as unknown as Pod).spec?.containers.push({ name: 'controller', image: 'x', ports: [{ name: 'ctrl-admin', containerPort: 9990 }] });
  const lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'service-mirror-write-east', namespace: MC },
    spec: { holderIdentity: 'controller-east-7f9b8-xyz12' },
  };
  return [...cluster.objects, ...objects, endpoints, controllerPod, lease];
}

/** What west's service mirror answers on its admin port's /metrics: east's gateway alive, unless a test changes it; `hang` never answers. */
const mirrorMetrics = { text: 'gateway_alive{target_cluster_name="east"} 1\ngateway_enabled{target_cluster_name="east"} 1\n', hang: false };

/** A loopback server standing in for the controller's admin port. */
async function metricsServer(): Promise<number> {
  const s = http.createServer((req, res) => {
    if (mirrorMetrics.hang) return; // never answers: the scrape's deadline must end it
    res.end(req.url === '/metrics' ? mirrorMetrics.text : 'no');
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  return (s.address() as AddressInfo).port;
}

interface JsonReport {
  success: boolean;
  categories: Array<{ categoryName: string; checks: Array<{ description: string; result: string; error?: string }> }>;
}
const checksOf = (stdout: string) => (JSON.parse(stdout) as JsonReport).categories.flatMap((c) => c.checks);
const byDescription = (stdout: string) => new Map(checksOf(stdout).map((c) => [c.description.split('\n')[0] ?? '', c]));

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
  Object.assign(mirrorMetrics, { text: 'gateway_alive{target_cluster_name="east"} 1\ngateway_enabled{target_cluster_name="east"} 1\n', hang: false });
});

async function serve(objects: object[], token?: string): Promise<ApiServer> {
  const port = await metricsServer();
  const server = await startApiServer({
    objects,
    ...(token ? { token } : {}),
    portForward: (namespace, pod, p) => (namespace === MC && pod === 'controller-east-7f9b8-xyz12' && p === 9990 ? { host: '127.0.0.1', port } : undefined),
  });
  cleanup.push(() => server.stop());
  return server;
}

/** link-gen against east, applied to west (`kubectl apply`). */
async function link(east: ApiServer, west: ApiServer): Promise<object[]> {
  const r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', east.kubeconfigPath]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  // The real kubectl creates the two Secrets and the Link on west (the Link against the CRD's schema).
  const created = await kubectlWithInput(west, r.stdout, 'create', '--validate=false', '-o', 'name', '-f', '-');
  expect(created.stderr).toBe('');
  expect(created.stdout).toBe('secret/cluster-credentials-east\nsecret/cluster-credentials-east\nlink.multicluster.linkerd.io/east\n');
  return yaml.loadAll(r.stdout).filter((d): d is object => d !== null);
}

const mcCheck = (west: ApiServer) =>
  runCli(['multicluster', 'check', '--kubeconfig', west.kubeconfigPath, '--wait', '0s', '-o', 'json'], { env: NO_VERSIONCHECK });

async function twoClusters() {
  const east = await serve(await eastObjects(), TOKEN);
  const west = await serve(await westObjects());
  await link(east, west);
  const t = tempDir();
  cleanup.push(t.cleanup);
  return { east, west, t };
}

const step = (server: ApiServer, peers = true) => ({ selection: kubeGlobals(server), namespace: NS, force: false, ...(peers ? { peers: [linkPeers] } : {}) });

describe('multicluster check across two loopback clusters', () => {
  it('link-gen from east, applied to west: every check passes, #4 and #5 reaching east through the Link', async () => {
    const { east, west } = await twoClusters();
    east.resetRequests();
    const r = await mcCheck(west);
    expect(r.stderr).toBe('');
    const checks = byDescription(r.stdout);
    expect([...checks.keys()]).toEqual([
      'Link CRD exists',
      'Link resources are valid',
      'Link and CLI versions match',
      'remote cluster access credentials are valid',
      'clusters share trust anchors',
      'service mirror controller has required permissions',
      'service mirror controllers are running',
      'extension is managing controllers',
      'probe services able to communicate with all gateway mirrors',
      'all mirror services are part of a Link',
      'multicluster extension proxies are healthy',
      'multicluster extension proxies and cli versions match',
    ]);
    expect([...checks.values()].filter((c) => c.result !== 'success')).toEqual([]);
    expect(checks.get('remote cluster access credentials are valid')?.description).toBe('remote cluster access credentials are valid\n\t* east');
    expect(r.code).toBe(0);
    // east was reached with the remote-access token, for /version, the three SSARs and linkerd-config
    const paths = east.requests.map((q) => `${q.method} ${q.path}`);
    expect(paths).toContain('GET /version');
    expect(paths.filter((p) => p === 'POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).toHaveLength(3);
    expect(paths).toContain('GET /api/v1/namespaces/linkerd/configmaps/linkerd-config');
  });

  it('names the missing service permission on the target, and an unreachable target, with the real words', async () => {
    const { east, west } = await twoClusters();
    east.setDenials([{ verb: 'watch', resource: 'services' }]);
    let checks = byDescription((await mcCheck(west)).stdout);
    expect(checks.get('remote cluster access credentials are valid')?.error).toBe(
      '        * missing service permission [watch] for cluster [east]: not authorized to access services',
    );
    await east.stop();
    const r = await mcCheck(west);
    expect(r.code).toBe(1);
    checks = byDescription(r.stdout);
    expect(checks.get('remote cluster access credentials are valid')?.error).toMatch(
      /^ {8}\* failed to connect to API for cluster: \[east\]: Get "https:\/\/127\.0\.0\.1:\d+\/version[^"]*": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/,
    );
    expect(checks.get('clusters share trust anchors')?.error).toMatch(/^Problematic clusters:\n {4}\* east: unable to fetch anchors: /);
  });

  it('refuses a credentials Secret whose kubeconfig names files of this machine, or has no kubeconfig', async () => {
    const { west } = await twoClusters();
    const secret = west.objects('v1', 'Secret', MC).find((s) => s.metadata.name === 'cluster-credentials-east');
    const kubeconfig = yaml.load(Buffer.from(String((secret?.data as Record<string, string>).kubeconfig), 'base64').toString()) as {
      users: Array<{ user: Record<string, unknown> }>;
    };
    kubeconfig.users[0] = { ...kubeconfig.users[0], user: { 'token-file': '/dev/zero' } };
    west.put({ ...secret, data: { kubeconfig: b64(yaml.dump(kubeconfig)) } });
    let checks = byDescription((await mcCheck(west)).stdout);
    expect(checks.get('remote cluster access credentials are valid')?.error).toBe(
      '        * secret: [linkerd-multicluster/cluster-credentials-east] cluster: [east]: unable to parse api config: a kubeconfig held in a Secret may not name files of this machine (user linkerd-service-mirror-remote-access-default: token-file)',
    );
    west.put({ ...secret, data: {} });
    checks = byDescription((await mcCheck(west)).stdout);
    expect(checks.get('remote cluster access credentials are valid')?.error).toBe(
      '        * secret: [linkerd-multicluster/cluster-credentials-east]: could not parse config secret: secret should contain target cluster name as annotation mirror.linkerd.io/cluster-name',
    );
  });
});

describe("multicluster check 9: the leading service mirror's gateway_alive, scraped within --timeout", () => {
  const probe = async (west: ApiServer, extra: string[] = []) => {
    const r = await runCli(['multicluster', 'check', '--kubeconfig', west.kubeconfigPath, '--wait', '0s', '-o', 'json', ...extra], { env: NO_VERSIONCHECK });
    return byDescription(r.stdout).get('probe services able to communicate with all gateway mirrors');
  };

  it('a dead gateway (gateway_alive 0) fails with the real words; the scrape went through the port-forward', async () => {
    const { west } = await twoClusters();
    mirrorMetrics.text = 'gateway_alive{target_cluster_name="east"} 0\ngateway_enabled{target_cluster_name="east"} 1\n';
    west.resetRequests();
    expect(await probe(west)).toMatchObject({ result: 'error', error: 'liveness checks failed for east' });
    const paths = west.requests.map((q) => `${q.method} ${q.path.split('?')[0] ?? ''}`);
    expect(paths).toContain('GET /apis/coordination.k8s.io/v1/namespaces/linkerd-multicluster/leases/service-mirror-write-east');
    expect(paths.some((p) => p.includes('/pods/controller-east-7f9b8-xyz12/portforward'))).toBe(true);
  });

  it('a scrape that gets no answer ends at --timeout: the real "timed out waiting for metrics"', async () => {
    const { west } = await twoClusters();
    mirrorMetrics.hang = true;
    expect(await probe(west, ['--timeout', '500ms'])).toMatchObject({
      result: 'error',
      error: 'failed to get gateway metrics for target cluster east: timed out waiting for metrics',
    });
  });

  it('no Lease, or a Lease held by no listed pod, is named as the real check names it', async () => {
    const { west } = await twoClusters();
    const lease = west.objects('coordination.k8s.io/v1', 'Lease', MC)[0];
    west.put({ ...lease, spec: { holderIdentity: 'controller-east-gone' } });
    expect((await probe(west))?.error).toBe('expected exactly one gateway metric for target cluster east; got 0');
  });
});

describe('multicluster link-gen: bad targets', () => {
  it('a target kubeconfig without the context, a target without multicluster, a gateway with no address yet', async () => {
    const east = await serve(await eastObjects({ gatewayAddress: false }), TOKEN);
    let r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', east.kubeconfigPath, '--context', 'nowhere']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: context was not found for specified context: nowhere\n');
    r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', east.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: gateway linkerd-gateway.linkerd-multicluster has no ingress addresses\n');
    const bare = await serve(await eastObjects({ multicluster: false }));
    r = await runCli(['multicluster', 'link-gen', '--cluster-name', 'east', '--kubeconfig', bare.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: serviceaccounts "linkerd-service-mirror-remote-access-default" not found\n');
  });
});

describe('identity rotate across a Link: both clusters, stage by stage', () => {
  it('west cannot drop the old anchor until east trusts the new one and its gateway left the old chain; then both end on the new anchor', async () => {
    const { east, west, t } = await twoClusters();
    const next = await newAnchorFiles(t, 'new-ca');
    const oldSha = sha((await makePki()).anchor.certPem);
    const newSha = sha(next.anchor.certPem);
    const status = (server: ApiServer) => readRotationState(kubeGlobals(server), NS, new Date(), [linkPeers]);

    // 1. steady, both on the old anchor; east is read through the Link
    let s = await status(west);
    expect(s.stage).toBe('steady');
    expect(s.peers).toMatchObject([
      { name: 'east', via: 'Link linkerd-multicluster/east', status: 'known', trustsRequired: true, gatewayOnOldChain: false, overlaps: true },
    ]);
    expect(s.peers?.[0]?.controlPlane.map((a) => a.sha256)).toEqual([oldSha]);
    expect(s.peers?.[0]?.gateway).toMatchObject({ pods: 1, issuerKnown: true, issuerAnchor: oldSha, mayHoldPreviousIssuer: false });

    // 2. west adds the new anchor: the notes name east as needing the same step
    const added = await addAnchor({ ...step(west), trustAnchorFile: next.crt });
    expect(added.notes.join('\n')).toContain(
      'Linked clusters need the same step (add-anchor with this file, applied to each, then restarts) before any issuer is switched:\n  east (Link linkerd-multicluster/east)',
    );
    apply(west, added.objects);
    restartMeshedPods(west, new Date(Date.now() - HOUR));
    s = await status(west);
    expect(s.stage).toBe('pods-restarted');
    expect(s.peers?.[0]).toMatchObject({ trustsRequired: false, gatewayOnOldChain: true, overlaps: true });
    const text = rotationText(s);
    expect(text).toContain(`Linked clusters:\n  east (Link linkerd-multicluster/east)\n    control plane trusts: ${oldSha.slice(0, 16)}\n`);
    expect(text).toContain('trusts the new anchor: no; gateway still on the old chain: yes');
    // `multicluster check`'s #5 wants identical sets: it fails midway, as the real one does; the overlap check passes
    let r = await mcCheck(west);
    expect(byDescription(r.stdout).get('clusters share trust anchors')?.error).toBe('Problematic clusters:\n    * east');
    r = await runCli(['check', '--kubeconfig', west.kubeconfigPath, '--only', 'linkerd-multicluster-identity', '--wait', '0s', '-o', 'json'], {
      env: NO_VERSIONCHECK,
    });
    expect(checksOf(r.stdout).map((c) => [c.description, c.result])).toEqual([['linked clusters and this one trust a common anchor\n\t* east', 'success']]);

    // 3. west switches its issuer and restarts; remove-anchor is refused: east does not trust the new anchor
    const issued = await switchIssuer({ ...step(west), generate: { trustAnchorKeyFile: next.key } });
    expect(issued.notes.slice(-2)).toEqual([
      'Warning: these linked clusters do not trust the new issuer’s anchor yet; their gateways will refuse proxies restarted with it (run add-anchor there first):',
      '  east (Link linkerd-multicluster/east)',
    ]);
    apply(west, issued.objects);
    restartMeshedPods(west, new Date());
    await expect(removeAnchor({ ...step(west), keep: [newSha] })).rejects.toThrow(
      'linked clusters still depend on the anchors that would be removed; finish the rotation there first (or use --force):\n' +
        '* east (Link linkerd-multicluster/east): it does not trust the anchors that would remain yet (run the same add-anchor step on it)\n' +
        '* east (Link linkerd-multicluster/east): its gateway still presents an identity chained to an anchor that would be removed (switch its issuer first)',
    );
    // --force proceeds, with the same words as a warning
    const forced = await removeAnchor({ ...step(west), force: true, keep: [newSha] });
    expect(forced.notes[0]).toBe('Warning: --force: cross-cluster traffic with these linked clusters may fail once this is applied:');
    expect(forced.notes[1]).toContain('east (Link linkerd-multicluster/east): it does not trust the anchors that would remain yet');

    // 4. east adds the new anchor (east has no Links: no peers to name) and restarts: still on the old chain
    const eastAdded = await addAnchor({ ...step(east), trustAnchorFile: next.crt });
    expect(eastAdded.notes.join('\n')).not.toContain('Linked clusters');
    apply(east, eastAdded.objects);
    restartMeshedPods(east, new Date(Date.now() - HOUR));
    await expect(removeAnchor({ ...step(west), keep: [newSha] })).rejects.toThrow(
      /^linked clusters still depend on the anchors that would be removed; finish the rotation there first \(or use --force\):\n\* east \(Link linkerd-multicluster\/east\): its gateway still presents an identity chained to an anchor that would be removed \(switch its issuer first\)$/,
    );

    // 5. east switches its issuer: its gateway started before it and may still present the old chain
    const eastIssued = await switchIssuer({ ...step(east), generate: { trustAnchorKeyFile: next.key } });
    apply(east, eastIssued.objects);
    await expect(removeAnchor({ ...step(west), keep: [newSha] })).rejects.toThrow(
      'east (Link linkerd-multicluster/east): its gateway started before its current issuer and may still present an identity of the old chain (restart it)',
    );
    s = await status(west);
    expect(s.peers?.[0]).toMatchObject({ trustsRequired: true, gatewayOnOldChain: true, gateway: { issuerAnchor: newSha, mayHoldPreviousIssuer: true } });

    // 6. east's gateway restarted: west may drop the old anchor
    restartMeshedPods(east, new Date());
    s = await status(west);
    expect(s.peers?.[0]).toMatchObject({ trustsRequired: true, gatewayOnOldChain: false });
    const removed = await removeAnchor({ ...step(west), keep: [newSha] });
    expect(removed.notes.join('\n')).not.toContain('Warning');
    apply(west, removed.objects);
    restartMeshedPods(west, new Date());
    s = await status(west);
    expect(s.stage).toBe('steady');
    expect(s.anchors.map((a) => a.sha256)).toEqual([newSha]);

    // 7. east drops the old anchor too; both clusters hold exactly the new one and every check passes again
    const eastRemoved = await removeAnchor({ ...step(east), keep: [newSha] });
    apply(east, eastRemoved.objects);
    restartMeshedPods(east, new Date());
    expect((await status(east)).stage).toBe('steady');
    s = await status(west);
    expect(s.peers?.[0]?.controlPlane.map((a) => a.sha256)).toEqual([newSha]);
    r = await mcCheck(west);
    expect(checksOf(r.stdout).filter((c) => c.result !== 'success')).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('an unreachable peer is unknown: status shows the rest and exits 2, remove-anchor refuses naming it', async () => {
    const { east, west, t } = await twoClusters();
    await east.stop();
    const r = await runCli(['identity', 'rotate', 'status', '--kubeconfig', west.kubeconfigPath]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^Stage: steady\n/);
    expect(r.stdout).toMatch(
      /\n {2}east \(Link linkerd-multicluster\/east\)\n {4}unknown: Get "https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/linkerd\/configmaps\/linkerd-config[^"]*": dial tcp 127\.0\.0\.1:\d+: connect: connection refused\n/,
    );
    const json = await runCli(['identity', 'rotate', 'status', '--kubeconfig', west.kubeconfigPath, '-o', 'json']);
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout) as { peers: Array<{ status: string }> }).peers.map((p) => p.status)).toEqual(['unknown']);
    // a rotation step on west that is otherwise allowed: the unknown peer blocks it
    const next = await newAnchorFiles(t, 'new-ca');
    apply(west, (await addAnchor({ ...step(west), trustAnchorFile: next.crt })).objects);
    restartMeshedPods(west, new Date(Date.now() - 2 * HOUR));
    apply(west, (await switchIssuer({ ...step(west), generate: { trustAnchorKeyFile: next.key } })).objects);
    restartMeshedPods(west, new Date());
    const rr = await runCli(['identity', 'rotate', 'remove-anchor', '--keep', sha(next.anchor.certPem), '--kubeconfig', west.kubeconfigPath]);
    expect(rr.code).toBe(1);
    expect(rr.stdout).toBe('');
    expect(rr.stderr).toMatch(/\* east \(Link linkerd-multicluster\/east\): cannot be read, so it may lack the anchors that would remain: /);
  });
});

/** Sets keys of a cluster's linkerd-config values (as an external CA leaves them). */
function editLinkerdConfig(server: ApiServer, edit: (values: Record<string, unknown>) => void): void {
  const cm = server.objects('v1', 'ConfigMap', NS).find((o) => o.metadata.name === 'linkerd-config');
  const data = (cm as { data: { values: string } } | undefined)?.data;
  if (cm === undefined || data === undefined) throw new Error('no linkerd-config');
  const values = yaml.load(data.values) as Record<string, unknown>;
  edit(values);
  server.put({ ...cm, data: { ...data, values: yaml.dump(values) } });
}

describe('identity rotate: linked clusters without a gateway, and with an external CA', () => {
  it('a gateway-less peer whose issuer still chains to the old anchor blocks remove-anchor, by name; --force overrides; status shows it', async () => {
    const north = await serve(await eastObjects({ gateway: false }), TOKEN);
    const west = await serve(await westObjects());
    const gen = await runCli(['multicluster', 'link-gen', '--cluster-name', 'north', '--gateway=false', '--kubeconfig', north.kubeconfigPath]);
    expect(gen.stderr).toBe('');
    const created = await kubectlWithInput(west, gen.stdout, 'create', '--validate=false', '-o', 'name', '-f', '-');
    expect(created.stdout).toContain('link.multicluster.linkerd.io/north\n');
    const t = tempDir();
    cleanup.push(t.cleanup);
    const next = await newAnchorFiles(t, 'new-ca');
    const oldSha = sha((await makePki()).anchor.certPem);
    const newSha = sha(next.anchor.certPem);
    for (const c of [west, north]) {
      apply(c, (await addAnchor({ ...step(c), trustAnchorFile: next.crt })).objects);
      restartMeshedPods(c, new Date(Date.now() - HOUR));
    }
    apply(west, (await switchIssuer({ ...step(west), generate: { trustAnchorKeyFile: next.key } })).objects);
    restartMeshedPods(west, new Date());

    const st = await runCli(['identity', 'rotate', 'status', '--kubeconfig', west.kubeconfigPath]);
    expect(st.stdout).toContain(`  north (Link linkerd-multicluster/north)\n    control plane trusts: ${oldSha.slice(0, 16)}, ${newSha.slice(0, 16)}\n`);
    expect(st.stdout).toContain(`    no gateway (gateway-less link): its pods' identities chain to: ${oldSha.slice(0, 16)}\n`);
    expect(st.stdout).toContain('    trusts the new anchor: yes; issuer still on the old chain: yes\n');

    const blocker =
      '* north (Link linkerd-multicluster/north): it has no gateway, so its pods present identities of its issuer directly, and that issuer chains to an anchor that would be removed (switch its issuer first)';
    let r = await runCli(['identity', 'rotate', 'remove-anchor', '--keep', newSha, '--kubeconfig', west.kubeconfigPath]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: linked clusters still depend on the anchors that would be removed; finish the rotation there first (or use --force):\n${blocker}\n`,
    );
    expect(r.code).toBe(1);
    r = await runCli(['identity', 'rotate', 'remove-anchor', '--keep', newSha, '--force', '--kubeconfig', west.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: ConfigMap');
    expect(r.stderr).toContain(`Warning: --force: cross-cluster traffic with these linked clusters may fail once this is applied:\n${blocker}\n`);

    // north switches its issuer too: nothing left on the old chain
    apply(north, (await switchIssuer({ ...step(north), generate: { trustAnchorKeyFile: next.key } })).objects);
    const s = await readRotationState(kubeGlobals(west), NS, new Date(), [linkPeers]);
    expect(s.peers?.[0]).toMatchObject({ name: 'north', trustsRequired: true, issuerOnOldChain: false, issuer: { known: true, anchor: newSha } });
    expect(s.peers?.[0]?.gateway).toBeUndefined();
    const removed = await removeAnchor({ ...step(west), keep: [newSha] });
    expect(removed.notes.join('\n')).not.toContain('Warning');
  });

  it('a peer with an external CA (no anchors in its linkerd-config) is unknown, not "trusts nothing": status says so, check passes, remove-anchor warns', async () => {
    const { east, west, t } = await twoClusters();
    editLinkerdConfig(east, (v) => {
      v.identityTrustAnchorsPEM = '';
      const identity = v.identity as { issuer: { scheme?: string; tls?: { crtPEM?: string } } };
      identity.issuer.scheme = 'kubernetes.io/tls';
      delete identity.issuer.tls;
    });
    const next = await newAnchorFiles(t, 'new-ca');
    const newSha = sha(next.anchor.certPem);
    const added = await addAnchor({ ...step(west), trustAnchorFile: next.crt });
    expect(added.notes.slice(-2)).toEqual([
      'Linked clusters whose anchors are not in their linkerd-config (external CA): add the new anchor there the way their CA is managed:',
      '  east (Link linkerd-multicluster/east)',
    ]);
    expect(added.notes.join('\n')).not.toContain('already trusting');
    apply(west, added.objects);
    restartMeshedPods(west, new Date(Date.now() - HOUR));

    const st = await runCli(['identity', 'rotate', 'status', '--kubeconfig', west.kubeconfigPath]);
    expect(st.stdout).toContain('    control plane trusts: unknown (its anchors are not in linkerd-config: external CA)\n');
    expect(st.stdout).toContain('    trusts the new anchor: unknown; gateway still on the old chain: no\n');
    expect(st.stdout).not.toContain('(none)');
    const ck = await runCli(['check', '--kubeconfig', west.kubeconfigPath, '--only', 'linkerd-multicluster-identity', '--wait', '0s', '-o', 'json'], {
      env: NO_VERSIONCHECK,
    });
    expect(checksOf(ck.stdout).map((c) => [c.description, c.result])).toEqual([
      ['linked clusters and this one trust a common anchor\n\t* east (anchors not in its linkerd-config: external CA, not compared)', 'success'],
    ]);

    apply(west, (await switchIssuer({ ...step(west), generate: { trustAnchorKeyFile: next.key } })).objects);
    restartMeshedPods(west, new Date());
    const r = await runCli(['identity', 'rotate', 'remove-anchor', '--keep', newSha, '--kubeconfig', west.kubeconfigPath]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: ConfigMap');
    expect(r.stderr).toContain(
      'Warning: cross-cluster traffic with these linked clusters may fail once this is applied unless they trust the anchors kept:\n' +
        '* east (Link linkerd-multicluster/east): its trust anchors are not in its linkerd-config (external CA), so whether it trusts the anchors that would remain cannot be read: make sure it does\n',
    );
  });

  it('a peer whose anchors do not decode is unknown, not an external CA: remove-anchor is blocked', async () => {
    const { east, west, t } = await twoClusters();
    editLinkerdConfig(east, (v) => {
      v.identityTrustAnchorsPEM = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n';
    });
    const next = await newAnchorFiles(t, 'new-ca');
    apply(west, (await addAnchor({ ...step(west), trustAnchorFile: next.crt })).objects);
    restartMeshedPods(west, new Date(Date.now() - HOUR));
    apply(west, (await switchIssuer({ ...step(west), generate: { trustAnchorKeyFile: next.key } })).objects);
    restartMeshedPods(west, new Date());
    const removed = removeAnchor({ ...step(west), keep: [sha(next.anchor.certPem)] });
    await expect(removed).rejects.toThrow(
      /\* east \(Link linkerd-multicluster\/east\): cannot be read, so it may lack the anchors that would remain: cannot parse trust anchors/,
    );
  });
});
