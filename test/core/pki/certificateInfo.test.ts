import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  certificateInfo,
  createTrustAnchor,
  expiringSoon,
  fingerprintSha256,
  formatGoTime,
  formatRFC3339,
  generateRsaKey,
  parseCertificates,
  sha256Hex,
  supportedAnchorAlgorithm,
  supportedIssuerAlgorithm,
  validityProblem,
} from '../../../src/core/pki/index.js';
import { fixture } from './fixtures.js';

const info = (name: string) => certificateInfo(parseCertificates(fixture(name), name)[0]);

describe('certificateInfo', () => {
  it('decodes the facts linkerd looks at', () => {
    const issuer = info('valid-crt.pem');
    expect(issuer).toMatchObject({
      subjectCN: 'identity.linkerd.cluster.local',
      issuerCN: 'root.linkerd.cluster.local',
      publicKeyAlgorithm: 'ECDSA',
      curve: 'P-256',
      signatureAlgorithm: 'ECDSA-SHA256',
      isCA: true,
      maxPathLen: 0,
      dnsNames: ['identity.linkerd.cluster.local'],
    });
    expect(issuer.notBefore.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(issuer.notAfter.toISOString()).toBe('2035-01-01T00:00:00.000Z');
    expect(issuer.rsaBits).toBeUndefined();
  });

  it('gives the serial in hex and in decimal, as openssl and linkerd print them', () => {
    const issuer = info('valid-crt.pem');
    const openssl = execFileSync('openssl', ['x509', '-noout', '-serial'], { input: fixture('valid-crt.pem'), encoding: 'utf8' });
    expect(openssl.trim()).toBe(`serial=${issuer.serialHex.toUpperCase()}`);
    expect(BigInt(issuer.serialDecimal)).toBe(BigInt(`0x${issuer.serialHex}`));
  });

  it('reads RSA anchors and P-384 issuers', () => {
    expect(info('valid-with-rsa-anchor-trust-anchors.pem')).toMatchObject({
      publicKeyAlgorithm: 'RSA',
      rsaBits: 2048,
      signatureAlgorithm: 'SHA256-RSA',
    });
    expect(info('wrong-algo-crt.pem')).toMatchObject({ publicKeyAlgorithm: 'ECDSA', curve: 'P-384' });
  });
});

describe('supportedIssuerAlgorithm', () => {
  it('accepts ECDSA P-256 issuers signed by ECDSA or RSA anchors', () => {
    expect(supportedIssuerAlgorithm(info('valid-crt.pem'))).toEqual({ supported: true });
    expect(supportedIssuerAlgorithm(info('valid-with-rsa-anchor-crt.pem'))).toEqual({ supported: true });
  });

  it('rejects other curves and key types with linkerd’s reasons', () => {
    expect(supportedIssuerAlgorithm(info('wrong-algo-crt.pem'))).toEqual({
      supported: false,
      reason: 'must use P-256 curve for public key, instead P-384 was used',
    });
    expect(supportedIssuerAlgorithm(info('valid-with-rsa-anchor-trust-anchors.pem'))).toEqual({
      supported: false,
      reason: 'issuer certificate must use ECDSA for public key algorithm, instead RSA was used',
    });
  });

  it('rejects signatures other than ECDSA-SHA256 and SHA256-RSA', () => {
    const sha384 = { ...info('valid-crt.pem'), signatureAlgorithm: 'ECDSA-SHA384' };
    expect(supportedIssuerAlgorithm(sha384)).toEqual({
      supported: false,
      reason: 'must be signed by an ECDSA P-256 key, instead ECDSA-SHA384 was used',
    });
  });
});

describe('supportedAnchorAlgorithm', () => {
  it('accepts ECDSA P-256 and RSA 2048 anchors', () => {
    expect(supportedAnchorAlgorithm(info('valid-trust-anchors.pem'))).toEqual({ supported: true });
    expect(supportedAnchorAlgorithm(info('valid-with-rsa-anchor-trust-anchors.pem'))).toEqual({ supported: true });
  });

  it('rejects RSA sizes other than 2048 and 4096, and curves other than P-256', async () => {
    const rsa3072 = await createTrustAnchor({
      commonName: 'root',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
      keys: await generateRsaKey(3072),
    });
    const result = supportedAnchorAlgorithm(certificateInfo(parseCertificates(rsa3072.certPem, 'rsa')[0]));
    expect(result.supported).toBe(false);
    expect(!result.supported && result.reason).toContain('2048 or 4096');
    expect(supportedAnchorAlgorithm(info('wrong-algo-crt.pem'))).toEqual({
      supported: false,
      reason: 'must use P-256 curve for public key, instead P-384 was used',
    });
  });
});

describe('validityProblem / expiringSoon', () => {
  const issuer = info('valid-crt.pem');

  it('reports certificates outside their window with linkerd’s wording, boundaries included as valid', () => {
    expect(validityProblem(issuer, new Date('2026-01-01T00:00:00Z'))).toBeUndefined();
    expect(validityProblem(issuer, issuer.notAfter)).toBeUndefined();
    expect(validityProblem(issuer, issuer.notBefore)).toBeUndefined();
    expect(validityProblem(issuer, new Date('2024-12-31T23:59:59Z'))).toBe('not valid before: 2025-01-01T00:00:00Z');
    expect(validityProblem(issuer, new Date('2035-01-01T00:00:01Z'))).toBe('not valid anymore. Expired on 2035-01-01T00:00:00Z');
  });

  it('warns 60 days ahead by default', () => {
    expect(expiringSoon(issuer, new Date('2034-11-02T00:00:01Z'))).toBe('will expire on 2035-01-01T00:00:00Z');
    expect(expiringSoon(issuer, new Date('2034-11-01T00:00:00Z'))).toBeUndefined();
    expect(expiringSoon(issuer, new Date('2034-12-01T00:00:00Z'), 10)).toBeUndefined();
  });
});

describe('hashes and time formats', () => {
  it('sha256Hex hashes text (the trust-root-sha256 annotation)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(fixture('valid-trust-anchors.pem'))).toBe(
      execFileSync('sha256sum', { input: fixture('valid-trust-anchors.pem'), encoding: 'utf8' }).split(' ')[0],
    );
  });

  it('fingerprintSha256 matches openssl', () => {
    const pem = fixture('valid-crt.pem');
    const openssl = execFileSync('openssl', ['x509', '-noout', '-fingerprint', '-sha256'], { input: pem, encoding: 'utf8' });
    const expected = openssl.trim().split('=')[1].replace(/:/g, '').toLowerCase();
    expect(fingerprintSha256(parseCertificates(pem, 'crt')[0])).toBe(expected);
  });

  it('formats RFC 3339 and Go time strings without spurious fractions', () => {
    expect(formatRFC3339(new Date('2021-01-01T00:00:00.123Z'))).toBe('2021-01-01T00:00:00Z');
    expect(formatGoTime(new Date('2021-01-01T00:00:00Z'))).toBe('2021-01-01 00:00:00 +0000 UTC');
    expect(formatGoTime(new Date('2021-01-01T00:00:00.120Z'))).toBe('2021-01-01 00:00:00.12 +0000 UTC');
  });
});
