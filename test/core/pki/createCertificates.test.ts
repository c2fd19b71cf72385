import { createPrivateKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  certificateInfo,
  createIssuer,
  createTrustAnchor,
  createWebhookCert,
  generateEcdsaP256Key,
  generateIdentityCredentials,
  generateRsaKey,
  keyPairFromKeyObject,
  parseCertificates,
  parsePrivateKey,
  validateIssuerCredentials,
  verifyChain,
  x509,
  type Credentials,
  type KeyPair,
} from '../../../src/core/pki/index.js';
import { UserError } from '../../../src/core/errors.js';
import { fixture, opensslText, opensslVerify } from './fixtures.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

function first(pem: string): x509.X509Certificate {
  return parseCertificates(pem, 'test certificate')[0];
}

function pemType(pem: string): string | undefined {
  return /^-----BEGIN ([A-Z ]+)-----/.exec(pem)?.[1];
}

/** Everything a certificate signs over except the signature value, for comparing ECDSA-signed certificates. */
function signedFields(cert: x509.X509Certificate) {
  return {
    serial: cert.serialNumber,
    subject: Buffer.from(cert.subjectName.toArrayBuffer()).toString('hex'),
    issuer: Buffer.from(cert.issuerName.toArrayBuffer()).toString('hex'),
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    publicKey: Buffer.from(cert.publicKey.rawData).toString('hex'),
    extensions: cert.extensions.map((e) => Buffer.from(e.rawData).toString('hex')),
    signatureAlgorithm: JSON.stringify(cert.signatureAlgorithm),
  };
}

describe('generateIdentityCredentials', () => {
  let creds: { anchor: Credentials; issuer: Credentials };
  beforeAll(async () => {
    creds = await generateIdentityCredentials({ trustDomain: 'cluster.local', namespace: 'linkerd', now: NOW });
  });

  it('names the anchor root.linkerd.<td> and the issuer identity.<ns>.<td>, with the CN as DNS SAN', () => {
    const anchor = certificateInfo(first(creds.anchor.certPem));
    const issuer = certificateInfo(first(creds.issuer.certPem));
    expect(anchor.subjectCN).toBe('root.linkerd.cluster.local');
    expect(anchor.dnsNames).toEqual(['root.linkerd.cluster.local']);
    expect(issuer.subjectCN).toBe('identity.linkerd.cluster.local');
    expect(issuer.issuerCN).toBe('root.linkerd.cluster.local');
    expect(issuer.dnsNames).toEqual(['identity.linkerd.cluster.local']);
  });

  it('makes both valid from now - 10s to now + 365 days + 10s', () => {
    for (const pem of [creds.anchor.certPem, creds.issuer.certPem]) {
      const info = certificateInfo(first(pem));
      expect(info.notBefore.toISOString()).toBe('2026-06-01T11:59:50.000Z');
      expect(info.notAfter.getTime()).toBe(NOW.getTime() + YEAR_MS + 10_000);
    }
  });

  it('honours custom validity periods', async () => {
    const short = await generateIdentityCredentials({
      trustDomain: 'example.org',
      namespace: 'mesh',
      now: NOW,
      anchorValidity: 10 * YEAR_MS,
      issuerValidity: 30 * 24 * 60 * 60 * 1000,
    });
    expect(certificateInfo(first(short.anchor.certPem)).notAfter.toISOString()).toBe('2036-05-29T12:00:10.000Z');
    expect(certificateInfo(first(short.issuer.certPem)).notAfter.toISOString()).toBe('2026-07-01T12:00:10.000Z');
    expect(certificateInfo(first(short.issuer.certPem)).subjectCN).toBe('identity.mesh.example.org');
  });

  it('uses ECDSA P-256 keys stored as SEC1 EC PRIVATE KEY', () => {
    for (const c of [creds.anchor, creds.issuer]) {
      expect(pemType(c.keyPem)).toBe('EC PRIVATE KEY');
      const key = createPrivateKey(c.keyPem);
      expect(key.asymmetricKeyType).toBe('ec');
      expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
      const info = certificateInfo(first(c.certPem));
      expect(info.publicKeyAlgorithm).toBe('ECDSA');
      expect(info.curve).toBe('P-256');
      expect(info.signatureAlgorithm).toBe('ECDSA-SHA256');
    }
  });

  it('produces a proper chain that linkerd validation accepts', async () => {
    const valid = await validateIssuerCredentials({
      crtPem: creds.issuer.certPem,
      keyPem: creds.issuer.keyPem,
      anchorsPem: creds.anchor.certPem,
      now: NOW,
    });
    expect(valid.chain.map((c) => certificateInfo(c).subjectCN)).toEqual(['identity.linkerd.cluster.local', 'root.linkerd.cluster.local']);
  });

  it('produces a chain that openssl verifies (strict mode, anchor as the only CA)', () => {
    const result = opensslVerify({
      caPem: creds.anchor.certPem,
      certPem: creds.issuer.certPem,
      at: NOW,
      extraArgs: ['-x509_strict'],
    });
    expect(result.output).toContain(': OK');
    expect(result.ok).toBe(true);
  });

  it('does not verify against an unrelated anchor in openssl either', async () => {
    const other = await generateIdentityCredentials({ trustDomain: 'cluster.local', namespace: 'linkerd', now: NOW });
    const result = opensslVerify({ caPem: other.anchor.certPem, certPem: creds.issuer.certPem, at: NOW });
    expect(result.ok).toBe(false);
  });
});

describe('createTrustAnchor', () => {
  it('is a self-signed CA with critical BasicConstraints and critical keyCertSign+cRLSign', async () => {
    const anchor = await createTrustAnchor({
      commonName: 'root.linkerd.cluster.local',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    });
    const cert = first(anchor.certPem);
    const basic = cert.getExtension(x509.BasicConstraintsExtension);
    const usage = cert.getExtension(x509.KeyUsagesExtension);
    expect(basic?.ca).toBe(true);
    expect(basic?.critical).toBe(true);
    expect(basic?.pathLength).toBe(1);
    expect(usage?.critical).toBe(true);
    expect(usage?.usages).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId).toMatch(/^[0-9a-f]{40}$/);
    expect(await cert.isSelfSigned()).toBe(true);
    const text = opensslText(anchor.certPem);
    expect(text).toContain('CA:TRUE, pathlen:1');
    expect(text).toContain('Certificate Sign, CRL Sign');
    expect(text).toContain('DNS:root.linkerd.cluster.local');
  });

  it('can omit the path length limit', async () => {
    const anchor = await createTrustAnchor({
      commonName: 'root',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
      pathLength: null,
    });
    expect(certificateInfo(first(anchor.certPem)).maxPathLen).toBe(-1);
    expect(opensslText(anchor.certPem)).toMatch(/CA:TRUE\n/);
  });

  it.each([
    ['rsa-2048', 2048],
    ['rsa-4096', 4096],
  ] as const)('makes %s anchors signed with SHA256-RSA and a PKCS#1 key', async (algorithm, bits) => {
    const anchor = await createTrustAnchor({
      commonName: 'root.linkerd.cluster.local',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
      algorithm,
    });
    const info = certificateInfo(first(anchor.certPem));
    expect(info.publicKeyAlgorithm).toBe('RSA');
    expect(info.rsaBits).toBe(bits);
    expect(info.signatureAlgorithm).toBe('SHA256-RSA');
    expect(pemType(anchor.keyPem)).toBe('RSA PRIVATE KEY');
  });

  it('uses the given serial and refuses zero or non-hex serials', async () => {
    const base = {
      commonName: 'root',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    };
    const anchor = await createTrustAnchor({ ...base, serial: '0x01' });
    expect(certificateInfo(first(anchor.certPem)).serialHex).toBe('01');
    await expect(createTrustAnchor({ ...base, serial: '0' })).rejects.toThrow(UserError);
    await expect(createTrustAnchor({ ...base, serial: 'xyz' })).rejects.toThrow(/hexadecimal/);
  });

  it('refuses a window that ends before it starts', async () => {
    await expect(
      createTrustAnchor({
        commonName: 'root',
        notBefore: new Date('2027-01-01T00:00:00Z'),
        notAfter: new Date('2026-01-01T00:00:00Z'),
      }),
    ).rejects.toThrow('invalid validity period for trust anchor: NotAfter must be later than NotBefore');
  });

  it('gives random serials of 16 bytes when none is pinned', async () => {
    const base = {
      commonName: 'root',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    };
    const [a, b] = await Promise.all([createTrustAnchor(base), createTrustAnchor(base)]);
    const serialA = certificateInfo(first(a.certPem)).serialHex;
    expect(serialA).not.toBe(certificateInfo(first(b.certPem)).serialHex);
    expect(serialA.replace(/^00/, '').length).toBeLessThanOrEqual(32);
    expect(serialA.length).toBeGreaterThanOrEqual(2);
  });
});

describe('createIssuer', () => {
  it('is a pathlen-0 CA signed by the anchor, with AKI = the anchor SKI', async () => {
    const anchor = await createTrustAnchor({
      commonName: 'root.linkerd.cluster.local',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2030-01-01T00:00:00Z'),
    });
    const issuer = await createIssuer({
      anchor,
      commonName: 'identity.linkerd.cluster.local',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
    });
    const anchorInfo = certificateInfo(first(anchor.certPem));
    const info = certificateInfo(first(issuer.certPem));
    expect(info.isCA).toBe(true);
    expect(info.maxPathLen).toBe(0);
    expect(info.keyUsage).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(info.authorityKeyId).toBe(anchorInfo.subjectKeyId);
    expect(info.subjectKeyId).not.toBe(anchorInfo.subjectKeyId);
    expect(pemType(issuer.keyPem)).toBe('EC PRIVATE KEY');
    expect(opensslText(issuer.certPem)).toContain('CA:TRUE, pathlen:0');
    expect(opensslVerify({ caPem: anchor.certPem, certPem: issuer.certPem, at: NOW, extraArgs: ['-x509_strict'] }).ok).toBe(true);
  });

  it('signs with an RSA anchor using SHA256-RSA', async () => {
    const anchorsPem = fixture('valid-with-rsa-anchor-trust-anchors.pem');
    const issuer = first(fixture('valid-with-rsa-anchor-crt.pem'));
    expect(certificateInfo(issuer).signatureAlgorithm).toBe('SHA256-RSA');
    expect(opensslVerify({ caPem: anchorsPem, certPem: fixture('valid-with-rsa-anchor-crt.pem'), at: NOW }).ok).toBe(true);
  });

  it('signs with the anchor keys it is handed, as made, and the chain verifies (install: no parse back)', async () => {
    const anchorKeys = await generateEcdsaP256Key();
    const window = { notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2030-01-01T00:00:00Z') };
    const anchor = await createTrustAnchor({ commonName: 'root.linkerd.cluster.local', keys: anchorKeys, ...window });
    // The PEM key is never read on this path: an unrelated one does not matter.
    const handed = { certPem: anchor.certPem, keyPem: fixture('mismatched-key.pem') };
    const issuer = await createIssuer({ anchor: handed, anchorKeys, commonName: 'identity.linkerd.cluster.local', ...window });
    expect(certificateInfo(first(issuer.certPem)).authorityKeyId).toBe(certificateInfo(first(anchor.certPem)).subjectKeyId);
    expect(opensslVerify({ caPem: anchor.certPem, certPem: issuer.certPem, at: NOW, extraArgs: ['-x509_strict'] }).ok).toBe(true);
    // Keys that are not the anchor's make an issuer the anchor does not verify.
    const wrong = await createIssuer({ anchor: handed, anchorKeys: await generateEcdsaP256Key(), commonName: 'identity.linkerd.cluster.local', ...window });
    expect(opensslVerify({ caPem: anchor.certPem, certPem: wrong.certPem, at: NOW }).ok).toBe(false);
  });

  it('refuses an anchor whose key does not match its certificate', async () => {
    await expect(
      createIssuer({
        anchor: { certPem: fixture('valid-trust-anchors.pem'), keyPem: fixture('mismatched-key.pem') },
        commonName: 'identity.linkerd.cluster.local',
        notBefore: new Date('2026-01-01T00:00:00Z'),
        notAfter: new Date('2027-01-01T00:00:00Z'),
      }),
    ).rejects.toThrow('trust anchor key does not match the trust anchor certificate');
  });
});

describe('createWebhookCert', () => {
  const dnsName = 'linkerd-proxy-injector.linkerd.svc';
  let webhook: Credentials;
  beforeAll(async () => {
    webhook = await createWebhookCert({
      dnsName,
      notBefore: new Date('2026-06-01T00:00:00Z'),
      notAfter: new Date('2027-06-01T00:00:00Z'),
    });
  });

  it('is a self-signed RSA-2048 serving certificate like Sprig genSelfSignedCert', () => {
    const info = certificateInfo(first(webhook.certPem));
    expect(info.subjectCN).toBe(dnsName);
    expect(info.issuerCN).toBe(dnsName);
    expect(info.dnsNames).toEqual([dnsName]);
    expect(info.rsaBits).toBe(2048);
    expect(info.signatureAlgorithm).toBe('SHA256-RSA');
    expect(info.keyUsage).toBe(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment);
    expect(info.extKeyUsage).toEqual([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);
    expect(info.basicConstraintsValid).toBe(true);
    expect(info.isCA).toBe(false);
    expect(pemType(webhook.keyPem)).toBe('RSA PRIVATE KEY');
  });

  it('verifies for its DNS name with itself as the CA bundle', async () => {
    const cert = first(webhook.certPem);
    const result = await verifyChain(cert, [], [cert], NOW, { dnsName });
    expect(result.ok).toBe(true);
    const openssl = opensslVerify({
      caPem: webhook.certPem,
      certPem: webhook.certPem,
      at: NOW,
      extraArgs: ['-purpose', 'sslserver', '-verify_hostname', dnsName],
    });
    expect(openssl.ok).toBe(true);
  });

  it('does not verify for another service name', async () => {
    const cert = first(webhook.certPem);
    const result = await verifyChain(cert, [], [cert], NOW, { dnsName: 'linkerd-sp-validator.linkerd.svc' });
    expect(result).toMatchObject({
      ok: false,
      kind: 'hostname',
      reason: `x509: certificate is valid for ${dnsName}, not linkerd-sp-validator.linkerd.svc`,
    });
  });

  it('can be made a CA when a caller wants that', async () => {
    const ca = await createWebhookCert({
      dnsName,
      notBefore: new Date('2026-06-01T00:00:00Z'),
      notAfter: new Date('2027-06-01T00:00:00Z'),
      isCA: true,
    });
    expect(certificateInfo(first(ca.certPem)).isCA).toBe(true);
  });
});

describe('pinned inputs', () => {
  let ecKeys: KeyPair;
  let issuerKeys: KeyPair;
  let rsaKeys: KeyPair;
  beforeAll(async () => {
    ecKeys = await keyPairFromKeyObject(parsePrivateKey(fixture('valid-key.pem'), 'fixture key').keyObject);
    issuerKeys = await generateEcdsaP256Key();
    rsaKeys = await generateRsaKey(2048);
  });

  it('make byte-identical RSA-signed certificates (webhook, RSA anchor)', async () => {
    const webhookOpts = {
      dnsName: 'linkerd-sp-validator.linkerd.svc',
      notBefore: new Date('2026-06-01T00:00:00Z'),
      notAfter: new Date('2027-06-01T00:00:00Z'),
      serial: '2a',
      keys: rsaKeys,
    };
    const [w1, w2] = [await createWebhookCert(webhookOpts), await createWebhookCert(webhookOpts)];
    expect(w1.certPem).toBe(w2.certPem);
    expect(w1.keyPem).toBe(w2.keyPem);

    const anchorOpts = {
      commonName: 'root.linkerd.cluster.local',
      notBefore: new Date('2026-06-01T00:00:00Z'),
      notAfter: new Date('2036-06-01T00:00:00Z'),
      serial: '01',
      keys: rsaKeys,
    };
    expect((await createTrustAnchor(anchorOpts)).certPem).toBe((await createTrustAnchor(anchorOpts)).certPem);
  });

  it('make ECDSA certificates identical in every signed field and key (ECDSA signatures are randomised)', async () => {
    const pinned = {
      trustDomain: 'cluster.local',
      namespace: 'linkerd',
      now: NOW,
      anchorKeys: ecKeys,
      issuerKeys,
      anchorSerial: '01',
      issuerSerial: '02',
    };
    const a = await generateIdentityCredentials(pinned);
    const b = await generateIdentityCredentials(pinned);
    expect(a.anchor.keyPem).toBe(b.anchor.keyPem);
    expect(a.issuer.keyPem).toBe(b.issuer.keyPem);
    expect(a.anchor.keyPem).toBe(createPrivateKey(fixture('valid-key.pem')).export({ type: 'sec1', format: 'pem' }));
    expect(signedFields(first(a.anchor.certPem))).toEqual(signedFields(first(b.anchor.certPem)));
    expect(signedFields(first(a.issuer.certPem))).toEqual(signedFields(first(b.issuer.certPem)));
    expect(certificateInfo(first(a.issuer.certPem)).serialHex).toBe('02');
    // Each render's issuer verifies against the other render's anchor: same key, same name.
    const crossed = await verifyChain(first(a.issuer.certPem), [], [first(b.anchor.certPem)], NOW);
    expect(crossed.ok).toBe(true);
  });

  it('differ when nothing is pinned', async () => {
    const a = await generateIdentityCredentials({ trustDomain: 'cluster.local', namespace: 'linkerd', now: NOW });
    const b = await generateIdentityCredentials({ trustDomain: 'cluster.local', namespace: 'linkerd', now: NOW });
    expect(a.anchor.keyPem).not.toBe(b.anchor.keyPem);
    expect(a.issuer.certPem).not.toBe(b.issuer.certPem);
  });
});
