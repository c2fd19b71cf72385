import { describe, expect, it } from 'vitest';
import { initializeIdentityCredentials } from '../../../src/core/install/index.js';
import { certificateInfo, parseCertificates, verifyChain, x509 } from '../../../src/core/pki/index.js';
import { defaultValues, type Values } from '../../../src/core/values/index.js';
import { opensslVerify } from '../pki/fixtures.js';
import { fixtureText, validIdentityValues } from './support.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const YEAR = 365 * 24 * 3600 * 1000;
const opts = { namespace: 'linkerd', now: NOW, sources: {}, anchorValidityMs: YEAR, issuerValidityMs: YEAR };

async function generated(values: Values = defaultValues(), extra: Partial<typeof opts> = {}) {
  return initializeIdentityCredentials(values, { ...opts, ...extra });
}

describe('identity credentials: generated when none are given', () => {
  it('makes a P-256 trust anchor and an issuer it signs, which verify as a chain', async () => {
    const { values, trustAnchorKeyPem } = await generated();
    const [anchor] = parseCertificates(values.identityTrustAnchorsPEM, 'anchors');
    const [issuer] = parseCertificates(values.identity.issuer.tls.crtPEM, 'issuer');
    const result = await verifyChain(issuer, [], [anchor], NOW);
    expect(result.ok).toBe(true);
    expect(trustAnchorKeyPem).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    expect(values.identity.issuer.tls.keyPEM).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    expect(opensslVerify({ caPem: values.identityTrustAnchorsPEM, certPem: values.identity.issuer.tls.crtPEM, at: NOW }).ok).toBe(true);
  });

  it('names the issuer identity.<ns>.<trust domain> and gives both the key usages of a CA', async () => {
    const { values } = await generated(undefined, { namespace: 'mesh' });
    const anchor = certificateInfo(parseCertificates(values.identityTrustAnchorsPEM, 'a')[0]);
    const issuer = certificateInfo(parseCertificates(values.identity.issuer.tls.crtPEM, 'i')[0]);
    expect(issuer.subjectCN).toBe('identity.mesh.cluster.local');
    expect(anchor.isCA).toBe(true);
    expect(issuer.isCA).toBe(true);
    for (const pem of [values.identityTrustAnchorsPEM, values.identity.issuer.tls.crtPEM]) {
      const cert = new x509.X509Certificate(pem);
      const usage = cert.getExtension(x509.KeyUsagesExtension)!;
      expect(usage.critical).toBe(true);
      expect(usage.usages & x509.KeyUsageFlags.keyCertSign).toBeTruthy();
      expect(usage.usages & x509.KeyUsageFlags.cRLSign).toBeTruthy();
      expect(cert.getExtension(x509.BasicConstraintsExtension)!.critical).toBe(true);
    }
  });

  it('uses the identity trust domain when set, else the cluster domain', async () => {
    const v = defaultValues();
    v.identityTrustDomain = 'example.org';
    const { values } = await generated(v);
    expect(certificateInfo(parseCertificates(values.identity.issuer.tls.crtPEM, 'i')[0]).subjectCN).toBe('identity.linkerd.example.org');
  });

  it('is valid one year (plus the 10 s clock skew on both ends) by default, and as long as asked otherwise', async () => {
    const { values } = await generated();
    const anchor = parseCertificates(values.identityTrustAnchorsPEM, 'a')[0];
    expect(anchor.notBefore.getTime()).toBe(NOW.getTime() - 10_000);
    expect(anchor.notAfter.getTime()).toBe(NOW.getTime() + YEAR + 10_000);
    const short = await generated(undefined, { anchorValidityMs: 10 * YEAR, issuerValidityMs: 48 * 3600 * 1000 });
    expect(parseCertificates(short.values.identityTrustAnchorsPEM, 'a')[0].notAfter.getTime()).toBe(NOW.getTime() + 10 * YEAR + 10_000);
    expect(parseCertificates(short.values.identity.issuer.tls.crtPEM, 'i')[0].notAfter.getTime()).toBe(NOW.getTime() + 48 * 3600 * 1000 + 10_000);
  });
});

describe('identity credentials: supplied ones are validated like the real CLI', () => {
  it('accepts the valid set and returns no anchor key', async () => {
    const result = await initializeIdentityCredentials(validIdentityValues(), opts);
    expect(result.trustAnchorKeyPem).toBeUndefined();
    expect(result.values.identity.issuer.tls.crtPEM).toBe(fixtureText('valid-crt.pem'));
  });

  it('accepts an RSA trust anchor signing an ECDSA issuer', async () => {
    const v = defaultValues();
    v.identityTrustAnchorsPEM = fixtureText('valid-with-rsa-anchor-trust-anchors.pem');
    v.identity.issuer.tls.crtPEM = fixtureText('valid-with-rsa-anchor-crt.pem');
    v.identity.issuer.tls.keyPEM = fixtureText('valid-with-rsa-anchor-key.pem');
    await expect(initializeIdentityCredentials(v, opts)).resolves.toBeDefined();
  });

  it.each([
    ['trust anchors', 'identityTrustAnchorsPEM', 'a trust anchors file must be specified if other credentials are provided'],
    ['certificate', 'crtPEM', 'a certificate file must be specified if other credentials are provided'],
    ['key', 'keyPEM', 'a private key file must be specified if other credentials are provided'],
  ])('wants all three when any is given: no %s', async (_what, field, message) => {
    const v = validIdentityValues();
    if (field === 'identityTrustAnchorsPEM') v.identityTrustAnchorsPEM = '';
    else v.identity.issuer.tls[field as 'crtPEM' | 'keyPEM'] = '';
    await expect(initializeIdentityCredentials(v, opts)).rejects.toThrow(message);
  });

  it('names the file the failure is about', async () => {
    const v = validIdentityValues();
    v.identity.issuer.tls.keyPEM = fixtureText('mismatched-key.pem');
    const sources = {
      trustAnchors: '--identity-trust-anchors-file a.pem',
      issuerCertificate: '--identity-issuer-certificate-file c.pem',
      issuerKey: '--identity-issuer-key-file k.pem',
    };
    await expect(initializeIdentityCredentials(v, { ...opts, sources })).rejects.toThrow(
      'failed to validate issuer credentials: failed to read CA: tls: Public and private key do not match (--identity-issuer-key-file k.pem, --identity-issuer-certificate-file c.pem)',
    );
  });

  it('names the values path when the PEM came from --set/-f', async () => {
    const v = validIdentityValues();
    v.identityTrustAnchorsPEM = 'junk';
    await expect(initializeIdentityCredentials(v, opts)).rejects.toThrow(
      'failed to validate issuer credentials: not a PEM certificate (identityTrustAnchorsPEM)',
    );
  });
});

describe('identity credentials: external issuer (kubernetes.io/tls)', () => {
  const external = () => {
    const v = defaultValues();
    v.identity.issuer.scheme = 'kubernetes.io/tls';
    return v;
  };
  const secret = async () => ({ anchors: fixtureText('valid-trust-anchors.pem'), crt: fixtureText('valid-crt.pem'), key: fixtureText('valid-key.pem') });

  it('needs the cluster', async () => {
    await expect(initializeIdentityCredentials(external(), opts)).rejects.toThrow('--ignore-cluster is not supported when --identity-external-issuer=true');
  });

  it('refuses issuer files', async () => {
    await expect(
      initializeIdentityCredentials(external(), {
        ...opts,
        sources: { issuerCertificate: '--identity-issuer-certificate-file c.pem' },
        readExternalIssuer: secret,
      }),
    ).rejects.toThrow('--identity-issuer-certificate-file must not be specified if --identity-external-issuer=true');
    await expect(
      initializeIdentityCredentials(external(), { ...opts, sources: { issuerKey: '--identity-issuer-key-file k.pem' }, readExternalIssuer: secret }),
    ).rejects.toThrow('--identity-issuer-key-file must not be specified if --identity-external-issuer=true');
  });

  it("copies the Secret's ca.crt into the trust anchors and keeps the issuer key out of the values", async () => {
    const { values, trustAnchorKeyPem } = await initializeIdentityCredentials(external(), { ...opts, readExternalIssuer: secret });
    expect(values.identityTrustAnchorsPEM).toBe(fixtureText('valid-trust-anchors.pem'));
    expect(values.identity.issuer.tls).toEqual({ crtPEM: '', keyPEM: '' });
    expect(trustAnchorKeyPem).toBeUndefined();
  });

  it('validates the Secret and names it in the error', async () => {
    const expired = async () => ({
      anchors: fixtureText('expired-trust-anchors.pem'),
      crt: fixtureText('expired-crt.pem'),
      key: fixtureText('expired-key.pem'),
    });
    await expect(initializeIdentityCredentials(external(), { ...opts, readExternalIssuer: expired })).rejects.toThrow(
      'failed to validate issuer credentials: not valid anymore. Expired on 2021-01-01T00:00:00Z (Secret linkerd/linkerd-identity-issuer)',
    );
  });
});
