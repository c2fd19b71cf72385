import { afterEach, describe, expect, it } from 'vitest';
import { rotationText } from '../../../src/cli/output/identity-rotation.js';
import { readRotationState } from '../../../src/core/identity/rotationState.js';
import { addAnchor, removeAnchor, switchIssuer } from '../../../src/core/identity/rotationSteps.js';
import { fingerprintSha256, parseCertificates, sha256Hex } from '../../../src/core/pki/index.js';
import type { ApiServer } from '../../support/apiserver.js';
import {
  NS,
  apply,
  controlPlaneAnchors,
  identityChecks,
  newAnchorFiles,
  restartMeshedPods,
  selection,
  servedCluster,
  tempDir,
  validateManifest,
} from './support.js';

const HOUR = 3_600_000;
const sha = (pem: string) => parseCertificates(pem, 'test').map(fingerprintSha256)[0] ?? '';
const status = (server: ApiServer) => readRotationState(selection(server), NS);
const kinds = (objects: Array<{ kind: string; metadata: { name?: string } }>) => objects.map((o) => `${o.kind}/${o.metadata.name ?? ''}`).sort();

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(pki: Parameters<typeof servedCluster>[0] = {}) {
  const { server, anchor } = await servedCluster(pki);
  const t = tempDir();
  cleanup.push(() => server.stop(), t.cleanup);
  const next = await newAnchorFiles(t, 'new-ca');
  return { server, oldAnchor: anchor, next, t, step: { selection: selection(server), namespace: NS, force: false } };
}

const ALL_PASS = ['L5D1801', 'L5D1802', 'L5D1803', 'L5D1804', 'L5D1805', 'L5D1806', 'L5D1807', 'L5D1808', 'L5D2001'].map((id) => `${id} success`);

describe('linkerd identity rotate: a whole rotation on the loopback API server, stage by stage', () => {
  it('install → add-anchor → pods restarted → issuer → remove-anchor → steady, with status, check --proxy and every refusal', async () => {
    const { server, oldAnchor, next, step } = await setup();
    const oldSha = sha(oldAnchor.certPem);
    const newSha = sha(next.anchor.certPem);

    // 1. as installed
    let s = await status(server);
    expect(s.stage).toBe('steady');
    expect(s.anchors.map((a) => [a.role, a.sha256, a.signsIssuer])).toEqual([['current', oldSha, true]]);
    expect(s.pods.meshed).toBeGreaterThan(4);
    expect(s.next.join('\n')).toContain('rotate add-anchor');
    expect(await identityChecks(server)).toEqual(ALL_PASS);
    await expect(switchIssuer({ ...step, generate: { trustAnchorKeyFile: next.key } })).rejects.toThrow(
      /the key belongs to no anchor of the cluster's trust bundle/,
    );

    // 2. add-anchor: the bundle everywhere, and the control plane's trust-root-sha256 moves
    const added = await addAnchor({ ...step, trustAnchorFile: next.crt });
    expect(kinds(added.objects)).toEqual([
      'ConfigMap/linkerd-config',
      'ConfigMap/linkerd-identity-trust-roots',
      'Deployment/linkerd-destination',
      'Deployment/linkerd-identity',
      'Deployment/linkerd-proxy-injector',
      'Secret/linkerd-config-overrides',
    ]);
    const roots = added.objects.find((o) => o.metadata.name === 'linkerd-identity-trust-roots');
    const bundle = String((roots?.data as Record<string, string> | undefined)?.['ca-bundle.crt']);
    expect(parseCertificates(bundle, 'bundle').map((c) => fingerprintSha256(c))).toEqual([oldSha, newSha]);
    const identityDeploy = added.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'linkerd-identity');
    const digest = (identityDeploy?.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations[
      'linkerd.io/trust-root-sha256'
    ];
    expect(digest).toBe(sha256Hex(`${bundle}\n`));
    await validateManifest(added.objects);
    apply(server, added.objects);
    expect(sha256Hex(controlPlaneAnchors(server))).toBe(digest);

    s = await status(server);
    expect(s.stage).toBe('bundle-distributed');
    expect(s.anchors.map((a) => [a.role, a.signsIssuer])).toEqual([
      ['old', true],
      ['new', false],
    ]);
    expect(s.pods.current).toBe(0);
    expect(s.pods.stale.map((g) => `${g.namespace}/${g.workload}`)).toEqual(
      expect.arrayContaining(['emojivoto/deployment/web', 'linkerd/deployment/linkerd-identity']),
    );
    expect(s.next).toContain('kubectl -n emojivoto rollout restart deployment/web');
    const text = rotationText(s);
    expect(text).toMatch(/^Stage: bundle-distributed\n {2}the bundle holds 2 anchors; \d+ pod\(s\) were started before it and must be restarted\n/);
    expect(text).toContain(`  old     ${oldSha.slice(0, 16)}  CN=root.linkerd.cluster.local  until `);
    expect(text).toMatch(/ {2}signs the issuer\n {2}new {5}/);
    expect(text).toContain(`  emojivoto/deployment/web: 1 pod(s), missing ${newSha.slice(0, 16)}\n`);
    expect(text).toMatch(/ {2}linkerd\/deployment\/linkerd-identity: 1 pod\(s\), started with another bundle\n/);
    expect(text).toMatch(/\nNext:\n {2}kubectl -n linkerd rollout restart deploy\n/);
    expect(await identityChecks(server)).toEqual([
      ...ALL_PASS.slice(0, -1),
      expect.stringMatching(/^L5D2001 warning: Some pods do not have the current trust bundle and must be restarted:/),
    ]);
    // refusals at this stage: the new issuer's anchor is not trusted yet; the issuer still needs the old anchor
    await expect(switchIssuer({ ...step, generate: { trustAnchorKeyFile: next.key } })).rejects.toThrow(
      /meshed pod\(s\) do not trust the anchor that signs the new issuer yet; restart them first \(or use --force\):\n\* (linkerd|emojivoto)\//,
    );
    await expect(removeAnchor({ ...step, keep: [newSha] })).rejects.toThrow(/the issuer certificate chains to an anchor that would be removed/);
    await expect(addAnchor({ ...step, trustAnchorFile: next.crt })).rejects.toThrow(/is already in the trust bundle/);

    // 3. fixture pods restarted (an hour ago, before the issuer switch) with the bundle
    restartMeshedPods(server, new Date(Date.now() - HOUR));
    s = await status(server);
    expect(s.stage).toBe('pods-restarted');
    expect(s.pods.stale).toEqual([]);
    expect(s.next.join('\n')).toContain('rotate issuer --generate');
    expect(await identityChecks(server)).toEqual(ALL_PASS);

    // 4. issuer, signed by the new anchor
    const issued = await switchIssuer({ ...step, generate: { trustAnchorKeyFile: next.key } });
    expect(kinds(issued.objects)).toEqual(['ConfigMap/linkerd-config', 'Secret/linkerd-config-overrides', 'Secret/linkerd-identity-issuer']);
    await validateManifest(issued.objects);
    apply(server, issued.objects);
    s = await status(server);
    expect(s.stage).toBe('issuer-switched');
    expect(s.anchors.map((a) => [a.role, a.signsIssuer])).toEqual([
      ['old', false],
      ['new', true],
    ]);
    expect(s.issuer?.chainsTo).toMatchObject({ ok: true, anchorSha256: newSha });
    expect(s.next.join('\n')).toContain(`rotate remove-anchor --keep ${newSha}`);
    expect(await identityChecks(server)).toEqual(ALL_PASS);
    // refusal: pods started before the new issuer may still hold a certificate of the old one
    await expect(removeAnchor({ ...step, keep: [newSha.slice(0, 12)] })).rejects.toThrow(
      /meshed pod\(s\) started before the current issuer and may still hold a certificate of the old one until .*; restart them or wait \(or use --force\):\n\* /,
    );

    // 5. restart again, then remove the old anchor
    restartMeshedPods(server, new Date());
    const removed = await removeAnchor({ ...step, keep: [newSha.slice(0, 12)] });
    expect(kinds(removed.objects)).toEqual(kinds(added.objects));
    await validateManifest(removed.objects);
    apply(server, removed.objects);
    s = await status(server);
    expect(s.stage).toBe('anchor-removed');
    // workloads still carry the removed anchor (harmless); the control plane started from the old ConfigMap
    expect(s.pods.stale.filter((g) => g.namespace === 'emojivoto').every((g) => !g.unknown && g.missing.length === 0)).toBe(true);
    expect(s.pods.stale.filter((g) => g.namespace === NS).every((g) => g.unknown)).toBe(true);
    expect((await identityChecks(server)).at(-1)).toMatch(/^L5D2001 warning: Some pods do not have the current trust bundle/);
    restartMeshedPods(server, new Date());
    s = await status(server);
    expect(s.stage).toBe('steady');
    expect(s.anchors.map((a) => [a.role, a.sha256, a.signsIssuer])).toEqual([['current', newSha, true]]);
    expect(await identityChecks(server)).toEqual(ALL_PASS);
    await expect(removeAnchor({ ...step, keep: [newSha] })).rejects.toThrow('nothing to remove: every anchor of the trust bundle would be kept');
  });

  it('starts from an expired anchor and an expired issuer (linkerd2#4808) and ends steady', async () => {
    const { server, oldAnchor, next, step } = await setup({ anchor: { from: -400, to: -2 }, issuer: { from: -399, to: -3 } });
    let s = await status(server);
    expect(s.stage).toBe('steady');
    expect(s.warnings).toEqual([
      expect.stringMatching(/^trust anchor CN=root.linkerd.cluster.local \(\w+\) is expired/),
      expect.stringMatching(/^issuer CN=identity.linkerd.cluster.local is expired/),
    ]);
    // check stops at the expired anchor (fatal) for as long as it is in the bundle; status sees past it
    const STOPPED = ['L5D1801 success', 'L5D1802 success', 'L5D1803 error: Invalid anchors:'];
    expect(await identityChecks(server)).toEqual(STOPPED);

    const added = await addAnchor({ ...step, trustAnchorFile: next.crt });
    apply(server, added.objects);
    expect((await status(server)).stage).toBe('bundle-distributed');
    expect(await identityChecks(server)).toEqual(STOPPED);
    restartMeshedPods(server, new Date(Date.now() - HOUR));
    expect((await status(server)).stage).toBe('pods-restarted');
    expect(await identityChecks(server)).toEqual(STOPPED);
    apply(server, (await switchIssuer({ ...step, generate: { trustAnchorKeyFile: next.key } })).objects);
    s = await status(server);
    expect(s.stage).toBe('issuer-switched');
    expect(s.warnings).toEqual([expect.stringMatching(/is expired/)]); // only the old anchor now
    expect(await identityChecks(server)).toEqual(STOPPED);
    restartMeshedPods(server, new Date());
    apply(server, (await removeAnchor({ ...step, keep: [sha(next.anchor.certPem)] })).objects);
    restartMeshedPods(server, new Date());
    s = await status(server);
    expect(s.stage).toBe('steady');
    expect(s.warnings).toEqual([]);
    expect(s.anchors.map((a) => a.sha256)).toEqual([sha(next.anchor.certPem)]);
    expect(s.anchors.map((a) => a.sha256)).not.toContain(sha(oldAnchor.certPem));
    expect(await identityChecks(server)).toEqual(ALL_PASS);
  });
});
