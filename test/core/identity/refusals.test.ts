import { afterEach, describe, expect, it } from 'vitest';
import { inspectCluster } from '../../../src/core/identity/inspect.js';
import { readRotationState } from '../../../src/core/identity/rotationState.js';
import { addAnchor, removeAnchor, switchIssuer } from '../../../src/core/identity/rotationSteps.js';
import { HELM_INSTALLED } from '../../../src/core/mesh/loadStoredValues.js';
import { createTrustAnchor, createWebhookCert, fingerprintSha256, generateEcdsaP256Key, parseCertificates } from '../../../src/core/pki/index.js';
import { startApiServer, type ApiServer, type StoredObject } from '../../support/apiserver.js';
import { healthyCluster, makePki } from '../check/support/clusters.js';
import { NS, apply, newAnchorFiles, selection, servedCluster, tempDir } from './support.js';

const DAY = 86_400_000;
const sha256Of = (pem: string) => parseCertificates(pem, 'a').map(fingerprintSha256)[0] ?? '';
const at = (days: number) => new Date(Date.now() + days * DAY);
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function served(objects: StoredObject[]): Promise<ApiServer> {
  const server = await startApiServer({ objects });
  cleanup.push(() => server.stop());
  return server;
}

function temp() {
  const t = tempDir();
  cleanup.push(t.cleanup);
  return t;
}

describe('rotation refusals', () => {
  it('add-anchor refuses anchors that cannot be anchors, naming file and line', async () => {
    const { server } = await servedCluster();
    cleanup.push(() => server.stop());
    const t = temp();
    const step = { selection: selection(server), namespace: NS, force: false };
    const leaf = await createWebhookCert({ dnsName: 'x.svc', notBefore: at(-1), notAfter: at(30), keys: await generateEcdsaP256Key() });
    await expect(addAnchor({ ...step, trustAnchorFile: t.file('leaf.crt', leaf.certPem) })).rejects.toThrow(/leaf\.crt:1: x\.svc is not a CA certificate/);
    const expired = await createTrustAnchor({ commonName: 'gone', notBefore: at(-9), notAfter: at(-1) });
    await expect(addAnchor({ ...step, trustAnchorFile: t.file('gone.crt', expired.certPem) })).rejects.toThrow(
      /gone\.crt:1: trust anchor gone is not valid anymore/,
    );
    const fresh = await newAnchorFiles(t, 'fresh');
    await expect(addAnchor({ ...step, trustAnchorFile: t.file('junk.crt', `garbage\n${fresh.anchor.certPem}`) })).rejects.toThrow(
      /junk\.crt:1: unexpected text before the first PEM block/,
    );
    await expect(removeAnchor({ ...step, trustAnchorFile: fresh.crt })).rejects.toThrow(
      /fresh\.crt:1: CN=root.linkerd.cluster.local is not in the trust bundle; add it first/,
    );
    await expect(removeAnchor({ ...step, keep: ['abc'] })).rejects.toThrow(
      '--keep abc: no anchor of the trust bundle has this SHA-256 (at least 8 hex digits)',
    );
  });

  it('issuer: refuses a certificate that does not chain to the bundle, and a pod-unsafe one unless --force', async () => {
    const { server } = await servedCluster();
    cleanup.push(() => server.stop());
    const t = temp();
    const step = { selection: selection(server), namespace: NS, force: false };
    const stranger = await newAnchorFiles(t, 'stranger');
    const { createIssuer } = await import('../../../src/core/pki/index.js');
    const issuer = await createIssuer({ anchor: stranger.anchor, commonName: 'identity.linkerd.cluster.local', notBefore: at(-1), notAfter: at(30) });
    const files = { issuerCertificateFile: t.file('i.crt', issuer.certPem), issuerKeyFile: t.file('i.key', issuer.keyPem) };
    await expect(switchIssuer({ ...step, ...files })).rejects.toThrow(
      /i\.crt: failed to validate issuer credentials: x509: certificate signed by unknown authority.* \(against the cluster's trust bundle\)/,
    );
    // once the anchor is in the bundle, only the pods are in the way, and --force goes past them
    apply(server, (await addAnchor({ ...step, trustAnchorFile: stranger.crt })).objects);
    await expect(switchIssuer({ ...step, ...files })).rejects.toThrow(/do not trust the anchor that signs the new issuer yet/);
    const forced = await switchIssuer({ ...step, ...files, force: true });
    expect(forced.objects.map((o) => o.metadata.name)).toContain('linkerd-identity-issuer');
    const other = await createTrustAnchor({ commonName: 'x', notBefore: at(-1), notAfter: at(30) });
    await expect(
      switchIssuer({ ...step, issuerCertificateFile: files.issuerCertificateFile, issuerKeyFile: t.file('other.key', other.keyPem) }),
    ).rejects.toThrow('failed to validate issuer credentials: failed to read CA: tls: Public and private key do not match');
  });

  it('a missing overrides Secret: the steps say what linkerd says; status still works', async () => {
    const pki = await makePki();
    const cluster = await healthyCluster({ pki });
    const server = await served(cluster.objects.filter((o) => o.metadata.name !== 'linkerd-config-overrides'));
    const t = temp();
    const next = await newAnchorFiles(t, 'n');
    await expect(addAnchor({ selection: selection(server), namespace: NS, force: false, trustAnchorFile: next.crt })).rejects.toThrow(HELM_INSTALLED);
    expect((await readRotationState(selection(server), NS)).stage).toBe('steady');
  });

  it('an external issuer (cert-manager) and an external bundle (trust-manager): the steps say what those tools must do', async () => {
    const pki = await makePki();
    const cluster = await healthyCluster({
      pki,
      values: (v) => {
        v.identity.issuer.scheme = 'kubernetes.io/tls';
        v.identity.externalCA = true;
      },
    });
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const server = await served([
      ...cluster.objects,
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/tls',
        metadata: { name: 'linkerd-identity-issuer', namespace: NS },
        data: { 'tls.crt': b64(pki.issuer.certPem), 'tls.key': b64(pki.issuer.keyPem), 'ca.crt': b64(pki.anchor.certPem) },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'linkerd-identity-trust-roots', namespace: NS },
        data: { 'ca-bundle.crt': pki.anchor.certPem.trim() },
      },
    ]);
    const t = temp();
    const next = await newAnchorFiles(t, 'n');
    const step = { selection: selection(server), namespace: NS, force: false };
    await expect(addAnchor({ ...step, trustAnchorFile: next.crt })).rejects.toThrow(
      /managed outside Linkerd \(identity\.externalCA=true\): add the new anchor in ConfigMap linkerd\/linkerd-identity-trust-roots .* with trust-manager's Bundle/,
    );
    await expect(switchIssuer({ ...step, generate: { trustAnchorKeyFile: next.key } })).rejects.toThrow(
      /managed outside Linkerd \(scheme kubernetes\.io\/tls\): have cert-manager re-issue Secret linkerd\/linkerd-identity-issuer/,
    );
    await expect(removeAnchor({ ...step, keep: [sha256Of(pki.anchor.certPem)] })).rejects.toThrow(/with trust-manager's Bundle/);
    const s = await readRotationState(selection(server), NS);
    expect(s).toMatchObject({ stage: 'steady', scheme: 'kubernetes.io/tls', externalCA: true, issuer: { chainsTo: { ok: true } } });
    const report = await inspectCluster({ selection: selection(server), namespace: NS });
    expect(report.sections.map((x) => x.title)).toEqual([
      'ConfigMap linkerd/linkerd-identity-trust-roots (ca-bundle.crt)',
      'Secret linkerd/linkerd-identity-issuer (tls.crt)',
      'ConfigMap linkerd/linkerd-config (identityTrustAnchorsPEM)',
    ]);
    expect(report.problems).toEqual([]);
  });

  it('inspect --cluster reports a half-applied step', async () => {
    const { server } = await servedCluster();
    cleanup.push(() => server.stop());
    const t = temp();
    const next = await newAnchorFiles(t, 'n');
    const added = await addAnchor({ selection: selection(server), namespace: NS, force: false, trustAnchorFile: next.crt });
    apply(
      server,
      added.objects.filter((o) => o.metadata.name === 'linkerd-identity-trust-roots'),
    );
    const report = await inspectCluster({ selection: selection(server), namespace: NS });
    expect(report.sections[0]?.certificates).toHaveLength(2);
    expect(report.problems).toEqual([
      'the anchors in linkerd-config differ from ConfigMap linkerd-identity-trust-roots: a rotation step was applied only in part',
    ]);
    expect((await readRotationState(selection(server), NS)).stage).toBe('inconsistent');
    await expect(addAnchor({ selection: selection(server), namespace: NS, force: false, trustAnchorFile: next.crt })).rejects.toThrow(
      /apply the previous step’s manifest in full first \(or use --force\)/,
    );
  });
});
