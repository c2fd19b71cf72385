import { beforeAll, describe, expect, it } from 'vitest';
import {
  createIssuer,
  createTrustAnchor,
  describeChainFailure,
  encodePem,
  generateEcdsaP256Key,
  parseCertificates,
  verifyChain,
  x509,
  type Credentials,
} from '../../../src/core/pki/index.js';
import { fixture } from './fixtures.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const at = (iso: string) => new Date(`${iso}T00:00:00Z`);
const cert = (pem: string) => parseCertificates(pem, 'test')[0];

function anchor(cn = 'root.linkerd.cluster.local', pathLength?: number | null): Promise<Credentials> {
  return createTrustAnchor({ commonName: cn, notBefore: at('2025-01-01'), notAfter: at('2035-01-01'), pathLength });
}

function issuer(signer: Credentials, cn: string, window: [string, string] = ['2025-01-01', '2035-01-01']) {
  return createIssuer({ anchor: signer, commonName: cn, notBefore: at(window[0]), notAfter: at(window[1]) });
}

/** A self-signed certificate with arbitrary extensions, for shapes the creators never make. */
async function selfSigned(cn: string, extensions: x509.Extension[]): Promise<x509.X509Certificate> {
  const keys = await generateEcdsaP256Key();
  const created = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: [{ CN: [cn] }],
    notBefore: at('2025-01-01'),
    notAfter: at('2035-01-01'),
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions,
  });
  return cert(encodePem('CERTIFICATE', created.rawData));
}

describe('verifyChain (Go x509.Verify semantics)', () => {
  let root: Credentials;
  let middle: Credentials;
  let leafOfMiddle: Credentials;
  beforeAll(async () => {
    root = await anchor();
    middle = await issuer(root, 'intermediate.linkerd.cluster.local');
    leafOfMiddle = await issuer(middle, 'identity.linkerd.cluster.local');
  });

  it('returns the path from the leaf to the anchor', async () => {
    const result = await verifyChain(cert(leafOfMiddle.certPem), [cert(middle.certPem)], [cert(root.certPem)], NOW);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.chain.map((c) => c.subject)).toEqual([
        'CN=identity.linkerd.cluster.local',
        'CN=intermediate.linkerd.cluster.local',
        'CN=root.linkerd.cluster.local',
      ]);
    }
  });

  it('stops at an intermediate that is itself trusted', async () => {
    const result = await verifyChain(cert(leafOfMiddle.certPem), [], [cert(middle.certPem)], NOW);
    expect(result.ok && result.chain.length).toBe(2);
  });

  it('accepts a leaf that is one of the anchors without further checks', async () => {
    const leaf = cert(leafOfMiddle.certPem);
    expect((await verifyChain(leaf, [], [leaf], NOW)).ok).toBe(true);
  });

  it('fails without the intermediate, naming no candidate', async () => {
    const result = await verifyChain(cert(leafOfMiddle.certPem), [], [cert(root.certPem)], NOW);
    expect(result).toMatchObject({ ok: false, kind: 'unknown-authority', reason: 'x509: certificate signed by unknown authority' });
  });

  it('enforces the anchor path length', async () => {
    const strictRoot = await anchor('root.linkerd.cluster.local', 0);
    const mid = await issuer(strictRoot, 'intermediate.linkerd.cluster.local');
    const leaf = await issuer(mid, 'identity.linkerd.cluster.local');
    const result = await verifyChain(cert(leaf.certPem), [cert(mid.certPem)], [cert(strictRoot.certPem)], NOW);
    expect(result).toMatchObject({
      ok: false,
      kind: 'too-many-intermediates',
      reason: 'x509: too many intermediates for path length constraint',
    });
  });

  it('does not let a non-CA certificate sign, and says so in the hint', async () => {
    const notCa: Credentials = { certPem: fixture('issuer-not-ca-crt.pem'), keyPem: fixture('issuer-not-ca-key.pem') };
    const leaf = await issuer(notCa, 'workload');
    const result = await verifyChain(cert(leaf.certPem), [], [cert(notCa.certPem)], NOW);
    expect(result).toMatchObject({
      ok: false,
      kind: 'unknown-authority',
      reason:
        'x509: certificate signed by unknown authority (possibly because of "x509: invalid signature: parent certificate ' +
        'cannot sign this kind of certificate" while trying to verify candidate authority certificate "identity.linkerd.cluster.local")',
    });
  });

  it('reports a leaf outside its validity period with the current time', async () => {
    const expired = await issuer(root, 'identity.linkerd.cluster.local', ['2020-01-01', '2021-01-01']);
    const result = await verifyChain(cert(expired.certPem), [], [cert(root.certPem)], NOW);
    expect(result).toMatchObject({
      ok: false,
      kind: 'expired',
      reason: 'x509: certificate has expired or is not yet valid: current time 2026-06-01T00:00:00Z is after 2021-01-01T00:00:00Z',
    });
    const early = await verifyChain(cert(root.certPem), [], [cert(root.certPem)], at('2024-01-01'));
    expect(early).toMatchObject({
      ok: false,
      reason: 'x509: certificate has expired or is not yet valid: current time 2024-01-01T00:00:00Z is before 2025-01-01T00:00:00Z',
    });
  });

  it('describes expiry failures the way linkerd does, with the leaf window appended', async () => {
    const leaf = cert(leafOfMiddle.certPem);
    const text = describeChainFailure({ kind: 'expired', reason: 'x509: boom' }, leaf, at('2036-01-01'));
    expect(text).toBe(
      'x509: boom - Current Time : 2036-01-01 00:00:00 +0000 UTC - Invalid before 2025-01-01 00:00:00 +0000 UTC' +
        ' - Invalid After 2035-01-01 00:00:00 +0000 UTC',
    );
    expect(describeChainFailure({ kind: 'unknown-authority', reason: 'x509: other' }, leaf, NOW)).toBe('x509: other');
  });

  it('treats a name mismatch with no same-named anchor as an unknown authority', async () => {
    const unrelated = await anchor('another-root');
    const result = await verifyChain(cert(fixture('valid-crt.pem')), [], [cert(unrelated.certPem)], NOW);
    expect(result).toMatchObject({ ok: false, reason: 'x509: certificate signed by unknown authority' });
  });

  it('reports an RSA-signed certificate checked against an ECDSA anchor of the same name', async () => {
    const rsaSigned = cert(fixture('valid-with-rsa-anchor-crt.pem'));
    const ecdsaAnchor = cert(fixture('valid-trust-anchors.pem'));
    const result = await verifyChain(rsaSigned, [], [ecdsaAnchor], NOW);
    expect(result).toMatchObject({
      ok: false,
      reason:
        'x509: certificate signed by unknown authority (possibly because of "x509: signature algorithm specifies an RSA ' +
        'public key, but have public key of type *ecdsa.PublicKey" while trying to verify candidate authority certificate ' +
        '"root.linkerd.cluster.local")',
    });
  });

  it('requires server-auth extended key usage, like Go’s default', async () => {
    const clientOnly = await selfSigned('client', [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
    ]);
    expect(await verifyChain(clientOnly, [], [clientOnly], NOW)).toMatchObject({
      ok: false,
      kind: 'incompatible-usage',
      reason: 'x509: certificate specifies an incompatible key usage',
    });
    const anyUsage = await selfSigned('any', [new x509.ExtendedKeyUsageExtension(['2.5.29.37.0'])]);
    expect((await verifyChain(anyUsage, [], [anyUsage], NOW)).ok).toBe(true);
  });

  it('refuses certificates with critical extensions it does not understand', async () => {
    const odd = await selfSigned('odd', [new x509.Extension('1.2.3.4.5', true, new Uint8Array([5, 0]))]);
    expect(await verifyChain(odd, [], [odd], NOW)).toMatchObject({
      ok: false,
      kind: 'unhandled-critical-extension',
      reason: 'x509: unhandled critical extension',
    });
  });

  describe('with a DNS name', () => {
    it('matches SANs case-insensitively and with a left-most wildcard', async () => {
      const wildcard = await selfSigned('wild', [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: '*.Linkerd.svc' }])]);
      expect((await verifyChain(wildcard, [], [wildcard], NOW, { dnsName: 'injector.linkerd.svc' })).ok).toBe(true);
      expect(await verifyChain(wildcard, [], [wildcard], NOW, { dnsName: 'a.b.linkerd.svc' })).toMatchObject({
        ok: false,
        reason: 'x509: certificate is valid for *.Linkerd.svc, not a.b.linkerd.svc',
      });
    });

    it('ignores the Common Name, as Go does', async () => {
      const cnOnly = await selfSigned('linkerd-proxy-injector.linkerd.svc', []);
      expect(await verifyChain(cnOnly, [], [cnOnly], NOW, { dnsName: 'linkerd-proxy-injector.linkerd.svc' })).toMatchObject({
        ok: false,
        kind: 'hostname',
        reason: 'x509: certificate relies on legacy Common Name field, use SANs instead',
      });
      expect(await verifyChain(cnOnly, [], [cnOnly], NOW, { dnsName: 'other.svc' })).toMatchObject({
        ok: false,
        reason: 'x509: certificate is not valid for any names, but wanted to match other.svc',
      });
    });

    it('checks IP addresses against IP SANs only', async () => {
      const withIp = await selfSigned('ip', [new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '10.0.0.1' }])]);
      expect((await verifyChain(withIp, [], [withIp], NOW, { dnsName: '10.0.0.1' })).ok).toBe(true);
      const noIp = await selfSigned('x', [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'x.svc' }])]);
      expect(await verifyChain(noIp, [], [noIp], NOW, { dnsName: '10.0.0.1' })).toMatchObject({
        ok: false,
        reason: "x509: cannot validate certificate for 10.0.0.1 because it doesn't contain any IP SANs",
      });
    });
  });
});
