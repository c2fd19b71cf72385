import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { CRDS_FIRST, EXTERNAL_ISSUER, ROTATION_WARNING, renderInstall, renderUpgrade, type UpgradeRequest } from '../../../src/core/install/index.js';
import { HELM_INSTALLED, loadStoredValues } from '../../../src/core/mesh/loadStoredValues.js';
import { ManifestState } from '../../../src/core/install/upgradeSource.js';
import { UserError } from '../../../src/core/errors.js';
import { defaultValues } from '../../../src/core/values/index.js';
import { type ApiServer, kubeGlobals, startApiServer } from '../../support/apiserver.js';
import { kubernetesModelFailures } from '../../support/kubernetes-models.js';
import { identityChain, keyOf, linkerdCrds, meshedPod, namespaceObject, renderDiff } from './upgrade-support.js';
import { fixtureText } from './support.js';
import { writeTestFile } from '../../support/testFiles.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const NOW = new Date('2026-06-01T12:00:00Z');
const NO_INPUTS = { flags: [], valuesFiles: [], set: [], setString: [], setFile: [] };

const upgradeRequest = (server: ApiServer, extra: Partial<UpgradeRequest> = {}): UpgradeRequest => ({
  namespace: 'linkerd',
  cluster: kubeGlobals(server),
  crds: false,
  force: false,
  now: NOW,
  ...NO_INPUTS,
  ...extra,
});

/** What a fresh render must change even when no value changed: webhook serving certificates. */
const REGENERATED: Record<string, string[]> = {
  'Secret linkerd/linkerd-sp-validator-k8s-tls': ['data.tls.crt', 'data.tls.key'],
  'Secret linkerd/linkerd-policy-validator-k8s-tls': ['data.tls.crt', 'data.tls.key'],
  'Secret linkerd/linkerd-proxy-injector-k8s-tls': ['data.tls.crt', 'data.tls.key'],
  'ValidatingWebhookConfiguration /linkerd-sp-validator-webhook-config': ['webhooks.0.clientConfig.caBundle'],
  'ValidatingWebhookConfiguration /linkerd-policy-validator-webhook-config': ['webhooks.0.clientConfig.caBundle'],
  'MutatingWebhookConfiguration /linkerd-proxy-injector-webhook-config': ['webhooks.0.clientConfig.caBundle'],
  // checksum/config digests the webhook objects above, so the pods roll onto the new certificates.
  'Deployment linkerd/linkerd-destination': ['spec.template.metadata.annotations.checksum/config'],
  'Deployment linkerd/linkerd-proxy-injector': ['spec.template.metadata.annotations.checksum/config'],
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'linkerd-upgrade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string): string => writeTestFile(path.join(tmp, name), text);

const overridesOf = (objects: readonly RenderedObject[]) => {
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'linkerd-config-overrides');
  const data = (secret?.data ?? {}) as Record<string, string>;
  return yaml.load(Buffer.from(data['linkerd-config-overrides'] ?? '', 'base64').toString('utf8')) as Record<string, unknown>;
};

/** A loopback cluster with the CRDs and `linkerd install`'s objects applied. */
async function installedCluster(): Promise<{ server: ApiServer; installed: RenderedObject[] }> {
  const server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: linkerdCrds() });
  const installed = (await renderInstall({ namespace: 'linkerd', cluster: kubeGlobals(server), crds: false, now: NOW, ...NO_INPUTS })).objects;
  server.put(...installed);
  return { server, installed };
}

describe('upgrade: install → apply → upgrade renders the same control plane', () => {
  let server: ApiServer;
  let installed: RenderedObject[];
  beforeAll(async () => {
    ({ server, installed } = await installedCluster());
  });
  afterAll(() => server.stop());

  it('with no flags, changes only the webhook serving certificates; certificates, values and the overrides Secret are kept', async () => {
    const upgraded = await renderUpgrade(upgradeRequest(server));
    expect(upgraded.notes).toEqual([]);
    expect(upgraded.objects.map(keyOf)).toEqual(installed.map(keyOf));
    expect(renderDiff(installed, upgraded.objects)).toEqual(REGENERATED);
  });

  it('the overrides Secret holds only what differs from the chart defaults', () => {
    const stored = overridesOf(installed);
    // The generated identity (anchor, issuer and its key); the cluster's API server ports (443,6443) are the default.
    expect(Object.keys(stored).sort()).toEqual(['identity', 'identityTrustAnchorsPEM']);
    expect(Object.keys(stored.identity as object)).toEqual(['issuer']);
  });

  it('refuses --set with 5,000 list indexes in one line naming --set, not a stack overflow (issue 24 item 9)', async () => {
    await expect(renderUpgrade(upgradeRequest(server, { set: [`a${'[0]'.repeat(5000)}=x`] }))).rejects.toThrow(
      /^failed parsing --set data: list index nested level is greater than maximum supported nested level of 30\n$/,
    );
  });

  it('flags change just what they set, and are stored for the next upgrade', async () => {
    const upgraded = await renderUpgrade(upgradeRequest(server, { flags: [{ name: 'controller-log-level', value: 'debug' }], set: ['proxy.logLevel=debug'] }));
    const diff = renderDiff(installed, upgraded.objects);
    for (const [k, paths] of Object.entries(REGENERATED)) diff[k] = (diff[k] ?? []).filter((p) => !paths.includes(p));
    const changed = Object.fromEntries(Object.entries(diff).filter(([, paths]) => paths.length > 0));
    expect(Object.keys(changed).sort()).toEqual([
      'ConfigMap linkerd/linkerd-config',
      // The heartbeat logs at controllerLogLevel too.
      'CronJob linkerd/linkerd-heartbeat',
      'Deployment linkerd/linkerd-destination',
      'Deployment linkerd/linkerd-identity',
      'Deployment linkerd/linkerd-proxy-injector',
      'Secret linkerd/linkerd-config-overrides',
    ]);
    expect(changed['CronJob linkerd/linkerd-heartbeat']).toEqual(['spec.jobTemplate.spec.template.spec.containers.0.args.2']);
    const text = JSON.stringify(upgraded.objects);
    expect(text).toContain('-log-level=debug');
    expect(text).toContain('"name":"LINKERD2_PROXY_LOG","value":"debug,');
    const stored = overridesOf(upgraded.objects);
    expect(stored.controllerLogLevel).toBe('debug');
    expect(stored.proxy).toEqual({ logLevel: 'debug' });
    // The stored identity is untouched.
    expect(stored.identity).toEqual(overridesOf(installed).identity);
  });

  it('every upgraded object validates against the Kubernetes schemas', async () => {
    const upgraded = await renderUpgrade(upgradeRequest(server, { flags: [{ name: 'ha', value: true }] }));
    expect(upgraded.objects.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(3);
    expect(kubernetesModelFailures(upgraded.objects)).toEqual([]);
  });

  it('--from-manifests renders the same upgrade offline, without one API request', async () => {
    const manifest = installed.map((o) => `---\n${yaml.dump(o)}`).join('');
    server.resetRequests();
    const offline = await renderUpgrade(upgradeRequest(server, { fromManifests: file('install.yaml', manifest) }));
    expect(server.requestCount()).toBe(0);
    expect(renderDiff(installed, offline.objects)).toEqual(REGENERATED);
    // JSON lines (install -o json) from standard input too.
    const fromStdin = await renderUpgrade(
      upgradeRequest(server, {
        fromManifests: '-',
        readers: { stdin: () => Promise.resolve(Buffer.from(installed.map((o) => JSON.stringify(o)).join('\n'))) },
      }),
    );
    expect(renderDiff(installed, fromStdin.objects)).toEqual(REGENERATED);
  });

  it('keeps the installed heartbeat schedule when upgraded later, from the cluster or --from-manifests (quiet GitOps diffs)', async () => {
    const later = new Date(NOW.getTime() + 3 * 3_600_000 + 17 * 60_000);
    const schedule = (objects: readonly RenderedObject[]) =>
      (objects.find((o) => o.kind === 'CronJob' && o.metadata.name === 'linkerd-heartbeat') as { spec?: { schedule?: string } } | undefined)?.spec?.schedule;
    expect(schedule(installed)).toMatch(/^\d+ \d+ \* \* \*$/);
    const fromCluster = await renderUpgrade(upgradeRequest(server, { now: later }));
    expect(renderDiff(installed, fromCluster.objects)).toEqual(REGENERATED);
    const manifest = installed.map((o) => `---\n${yaml.dump(o)}`).join('');
    const offline = await renderUpgrade(upgradeRequest(server, { now: later, fromManifests: file('install-later.yaml', manifest) }));
    expect(schedule(offline.objects)).toBe(schedule(installed));
    expect(renderDiff(installed, offline.objects)).toEqual(REGENERATED);
    // A schedule set in the values still wins.
    const pinned = await renderUpgrade(upgradeRequest(server, { now: later, set: ['heartbeatSchedule=1 2 * * *'] }));
    expect(schedule(pinned.objects)).toBe('1 2 * * *');
  });

  it('--crds renders the CRD chart (no control plane), deciding the Gateway API CRDs against the cluster', async () => {
    const crds = await renderUpgrade(upgradeRequest(server, { crds: true, set: ['installGatewayAPI=true'] }));
    expect(crds.objects.length).toBe(14);
    expect(new Set(crds.objects.map((o) => o.kind))).toEqual(new Set(['CustomResourceDefinition']));
    // Without Gateway API CRDs and without installing them: upgradeErrorf's text.
    const e = await renderUpgrade(upgradeRequest(server, { crds: true })).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toMatch(/^× Could not render upgrade configuration: the Gateway API CRDs must be installed before Linkerd's/);
    expect((e as Error).message.endsWith('\nFor troubleshooting help, visit: https://linkerd.io/upgrade/#troubleshooting\n\n')).toBe(true);
  });
});

describe('upgrade refusals, each with the real CLI text printed as is', () => {
  let server: ApiServer;
  let installed: RenderedObject[];
  beforeAll(async () => {
    ({ server, installed } = await installedCluster());
  });
  afterAll(() => server.stop());

  const failure = async (req: UpgradeRequest) => {
    const e = await renderUpgrade(req).then(
      () => undefined,
      (err: unknown) => err,
    );
    if (!(e instanceof UserError)) throw new Error(`expected a UserError, got ${String(e)}`);
    return { message: e.message, verbatim: e.verbatim };
  };

  it('asks for the CRDs first, listing what is missing', async () => {
    const bare = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
    try {
      const f = await failure(upgradeRequest(bare));
      expect(f.verbatim).toBe(true);
      expect(f.message.startsWith(`${CRDS_FIRST}\nmissing authorizationpolicies.policy.linkerd.io, missing egressnetworks.policy.linkerd.io`)).toBe(true);
      expect(f.message.endsWith('\n')).toBe(true);
    } finally {
      await bare.stop();
    }
  });

  it('tells Helm-installed clusters (no overrides Secret) to upgrade with Helm', async () => {
    server.remove('v1', 'Secret', 'linkerd-config-overrides', 'linkerd');
    try {
      expect(await failure(upgradeRequest(server))).toEqual({ message: `${HELM_INSTALLED}\n`, verbatim: true });
    } finally {
      server.put(...installed.filter((o) => o.metadata.name === 'linkerd-config-overrides'));
    }
  });

  it('refuses issuer files when the issuer is external (cert-manager)', async () => {
    const stored = { identity: { issuer: { scheme: 'kubernetes.io/tls' } }, identityTrustAnchorsPEM: fixtureText('valid-trust-anchors.pem') };
    const manifest = file('external.yaml', yaml.dump(storedSecret(stored)));
    const f = await failure(
      upgradeRequest(server, { fromManifests: manifest, flags: [{ name: 'identity-issuer-certificate-file', value: 'fixtures/certs/valid-crt.pem' }] }),
    );
    expect(f).toEqual({ message: `${EXTERNAL_ISSUER}\n`, verbatim: true });
  });

  it('an API failure mid-way is reported as is, nothing rendered', async () => {
    const off = server.setFault('GET /api/v1/pods', { status: 500, message: 'etcdserver: request timed out' });
    try {
      const f = await failure(upgradeRequest(server));
      expect(f.message).toMatch(/etcdserver: request timed out\n$/);
      expect(f.verbatim).toBe(true);
    } finally {
      off();
    }
  });

  it('lists each meshed pod whose trust anchors do not verify a new issuer, unless --force', async () => {
    const stored = loadStoredValues(installed.find((o) => o.metadata.name === 'linkerd-config-overrides') as never).values;
    server.put(
      namespaceObject('shop'),
      meshedPod('shop', 'web-1', stored.identityTrustAnchorsPEM),
      meshedPod('shop', 'cart-1', fixtureText('valid-trust-anchors.pem')),
      // Control-plane proxies read the trust-roots ConfigMap: never listed.
      meshedPod('linkerd', 'linkerd-destination-1', 'garbage'),
    );
    const newIssuer = [
      { name: 'identity-trust-anchors-file', value: 'fixtures/certs/valid-trust-anchors.pem' },
      { name: 'identity-issuer-certificate-file', value: 'fixtures/certs/valid-crt.pem' },
      { name: 'identity-issuer-key-file', value: 'fixtures/certs/valid-key.pem' },
    ];
    try {
      const f = await failure(upgradeRequest(server, { flags: newIssuer }));
      expect(f).toEqual({
        message:
          'You are attempting to use an issuer certificate which does not validate against the trust anchors of the following pods:\n' +
          '\t* shop/web-1\n' +
          'These pods do not have the current trust bundle and must be restarted.  Use the --force flag to proceed anyway (this will likely prevent those pods from sending or receiving traffic).\n',
        verbatim: true,
      });
      const forced = await renderUpgrade(upgradeRequest(server, { flags: newIssuer, force: true }));
      expect(forced.notes).toEqual(ROTATION_WARNING);
      expect(overridesOf(forced.objects).identityTrustAnchorsPEM).toBe(fixtureText('valid-trust-anchors.pem'));
      // The kept issuer is checked too: cart-1 was started with other anchors.
      expect((await failure(upgradeRequest(server))).message).toContain('pods:\n\t* shop/cart-1\nThese pods');
    } finally {
      server.remove('v1', 'Pod', 'web-1', 'shop');
      server.remove('v1', 'Pod', 'cart-1', 'shop');
      server.remove('v1', 'Pod', 'linkerd-destination-1', 'linkerd');
    }
  });

  it('refuses Docker-runtime nodes unless proxy-init runs as root', async () => {
    server.put({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'docker-node' }, status: { nodeInfo: { containerRuntimeVersion: 'docker://20.10.7' } } });
    try {
      expect(await failure(upgradeRequest(server))).toEqual({
        message:
          'there are nodes using the docker container runtime and proxy-init container must run as root user.\ntry installing linkerd via --set proxyInit.runAsRoot=true\n',
        verbatim: true,
      });
      const asRoot = await renderUpgrade(upgradeRequest(server, { set: ['proxyInit.runAsRoot=true'] }));
      expect(overridesOf(asRoot.objects).proxyInit).toEqual({ runAsRoot: true });
    } finally {
      server.remove('v1', 'Node', 'docker-node');
    }
  });

  it('validates values like install does', async () => {
    expect(await failure(upgradeRequest(server, { flags: [{ name: 'controller-log-level', value: 'loud' }] }))).toEqual({
      message: '--controller-log-level must be one of: panic, fatal, error, warn, info, debug, trace\n',
      verbatim: true,
    });
  });

  it('reports a manifest that is not Kubernetes objects', async () => {
    const f = await failure(upgradeRequest(server, { fromManifests: file('bad.yaml', '- a\n- b\n') }));
    expect(f.message).toMatch(/^failed to parse Kubernetes objects from manifest .*bad\.yaml: document 1 is not a Kubernetes object/);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 9 }, (_, i) => `${'bcdefghij'[i]}: &${'bcdefghij'[i]} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
    ].join('\n');
    expect((await failure(upgradeRequest(server, { fromManifests: file('bomb.yaml', `${bomb}\n`) }))).message).toMatch(
      /aliases expand it past 1,000,000 nodes \(an alias bomb\?\); refusing to expand it/,
    );
    const missing = await failure(upgradeRequest(server, { fromManifests: path.join(tmp, 'absent.yaml') }));
    expect(missing.message).toMatch(/^failed to parse manifests from .*absent\.yaml: stat .*absent\.yaml: no such file or directory\n$/);
  });
});

describe('upgrade from an expired trust anchor and issuer (linkerd2 #4808)', () => {
  let server: ApiServer;
  let oldAnchors: string;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: linkerdCrds() });
    const old = await identityChain(new Date('2024-01-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'));
    oldAnchors = old.anchor.certPem;
    // Installed while the old chain was valid; a year later both have expired.
    const installed = await renderInstall({
      namespace: 'linkerd',
      crds: false,
      now: new Date('2024-06-01T00:00:00Z'),
      ...NO_INPUTS,
      set: [],
      flags: [
        { name: 'identity-trust-anchors-file', value: file('old-anchor.pem', old.anchor.certPem) },
        { name: 'identity-issuer-certificate-file', value: file('old-issuer.pem', old.issuer.certPem) },
        { name: 'identity-issuer-key-file', value: file('old-issuer.key', old.issuer.keyPem) },
      ],
    });
    server.put(...installed.objects, namespaceObject('shop'), meshedPod('shop', 'web-1', old.anchor.certPem));
  });
  afterAll(() => server.stop());

  it('without new certificates, fails on the expired issuer', async () => {
    await expect(renderUpgrade(upgradeRequest(server))).rejects.toThrow(
      /^failed to validate issuer credentials: not valid anymore\. Expired on 2025-01-01T00:00:00Z/,
    );
  });

  it('with new files, names the pods still on the old anchors; with --force, renders the new chain', async () => {
    const fresh = await identityChain(new Date('2026-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'));
    const flags = [
      { name: 'identity-trust-anchors-file', value: file('new-anchor.pem', fresh.anchor.certPem) },
      { name: 'identity-issuer-certificate-file', value: file('new-issuer.pem', fresh.issuer.certPem) },
      { name: 'identity-issuer-key-file', value: file('new-issuer.key', fresh.issuer.keyPem) },
    ];
    await expect(renderUpgrade(upgradeRequest(server, { flags }))).rejects.toThrow(/following pods:\n\t\* shop\/web-1\n/);
    const forced = await renderUpgrade(upgradeRequest(server, { flags, force: true }));
    const stored = overridesOf(forced.objects) as { identityTrustAnchorsPEM: string; identity: { issuer: { tls: { crtPEM: string } } } };
    expect(stored.identityTrustAnchorsPEM).toBe(fresh.anchor.certPem);
    expect(stored.identityTrustAnchorsPEM).not.toBe(oldAnchors);
    expect(stored.identity.issuer.tls.crtPEM).toBe(fresh.issuer.certPem);
    expect(forced.notes).toEqual(ROTATION_WARNING);
    expect(kubernetesModelFailures(forced.objects)).toEqual([]);
  });
});

/** An install manifest holding only an overrides Secret with `overrides`. */
function storedSecret(overrides: object) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'linkerd-config-overrides', namespace: 'linkerd' },
    data: { 'linkerd-config-overrides': Buffer.from(yaml.dump(overrides)).toString('base64') },
  };
}

describe('stored values (Secret linkerd-config-overrides)', () => {
  it('are the chart defaults with the stored keys laid over them; 2.9-era `global` keys move to the top', () => {
    const { values, unknownKeys } = loadStoredValues(
      storedSecret({ global: { clusterDomain: 'example.org' }, controllerLogLevel: 'debug', retired: 1 }) as never,
    );
    expect(values.clusterDomain).toBe('example.org');
    expect(values.controllerLogLevel).toBe('debug');
    expect(values.proxy).toEqual(defaultValues().proxy);
    expect(unknownKeys).toEqual(['retired']);
  });

  it('an install that turned on the jaeger-era controlPlaneTracing upgrades: the removed keys are listed, not refused', () => {
    const { values, unknownKeys } = loadStoredValues(
      storedSecret({ controlPlaneTracing: true, controlPlaneTracingNamespace: 'tracing', podMonitor: { enabled: true } }) as never,
    );
    expect(unknownKeys.sort()).toEqual(['controlPlaneTracing', 'controlPlaneTracingNamespace']);
    expect(values.podMonitor.enabled).toBe(true);
    expect(values.podMonitor.proxy.honorTimestamps).toBe(true);
    expect(values.controller.tracing).toBeUndefined();
  });

  it('a Secret without its data key is an error', () => {
    expect(() => loadStoredValues({ metadata: { name: 'linkerd-config-overrides' } })).toThrow(
      'secret/linkerd-config-overrides is missing linkerd-config-overrides data',
    );
  });

  it('--from-manifests also reads `kind: List` documents (kubectl get -o yaml)', async () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [storedSecret({}), meshedPod('shop', 'web-1', 'x')] };
    const state = await ManifestState.read(file('list.yaml', yaml.dump(list)));
    expect(await state.overridesSecret('linkerd')).toBeDefined();
    expect((await state.meshedPods()).map((p) => p.metadata?.name)).toEqual(['web-1']);
  });

  it('an offline manifest state answers like the cluster would', async () => {
    const state = new ManifestState([storedSecret({}), meshedPod('shop', 'web-1', 'x')]);
    expect(await state.overridesSecret('linkerd')).toBeDefined();
    expect(await state.overridesSecret('other')).toBeUndefined();
    expect((await state.meshedPods()).map((p) => p.metadata?.name)).toEqual(['web-1']);
  });
});
