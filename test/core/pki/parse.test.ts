import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import {
  certificatesToPem,
  decodeCertificates,
  decodePemBlock,
  decodePrivateKey,
  keyMatchesCertificate,
  leafPem,
  parseCertificates,
  parsePrivateKey,
  toPkcs1Pem,
  toSec1Pem,
} from '../../../src/core/pki/index.js';
import { fixture } from './fixtures.js';

const anchorPem = fixture('valid-trust-anchors.pem');
const issuerPem = fixture('valid-crt.pem');

describe('decodePemBlock (Go encoding/pem semantics)', () => {
  it('skips leading text and consumes the END line with its newline', () => {
    const decoded = decodePemBlock(`comment line\n${anchorPem}rest`);
    expect(decoded?.block.type).toBe('CERTIFICATE');
    expect(decoded?.rest).toBe('rest');
  });

  it('accepts CRLF line endings', () => {
    const decoded = decodePemBlock(anchorPem.replace(/\n/g, '\r\n'));
    expect(decoded?.block.type).toBe('CERTIFICATE');
    expect(decoded?.rest).toBe('');
  });

  it('skips a block whose END line carries other text, and one with invalid base64', () => {
    const bad = anchorPem.replace('-----END CERTIFICATE-----', '-----END CERTIFICATE----- trailing');
    expect(decodePemBlock(bad)).toBeUndefined();
    expect(decodePemBlock('-----BEGIN X-----\n!!!!\n-----END X-----\n')).toBeUndefined();
    expect(decodePemBlock(`${bad}${issuerPem}`)?.block.bytes.length).toBeGreaterThan(0);
  });

  it('returns nothing for text without a block', () => {
    expect(decodePemBlock('\n')).toBeUndefined();
    expect(decodePemBlock('')).toBeUndefined();
  });
});

describe('decodeCertificates / parseCertificates', () => {
  it('reads every certificate of a bundle in order', () => {
    const certs = parseCertificates(issuerPem + anchorPem, 'bundle');
    expect(certs.map((c) => c.subject)).toEqual(['CN=identity.linkerd.cluster.local', 'CN=root.linkerd.cluster.local']);
  });

  it('stops quietly at the first block that is not a certificate, like linkerd', () => {
    const decoded = decodeCertificates(issuerPem + fixture('valid-key.pem') + anchorPem);
    expect(decoded.ok && decoded.certificates.length).toBe(1);
  });

  it('treats leftover non-PEM text as an error', () => {
    expect(decodeCertificates(`${anchorPem}junk`)).toEqual({ ok: false, reason: 'not a PEM certificate' });
  });

  it('reports malformed DER', () => {
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(decodeCertificates(broken)).toEqual({ ok: false, reason: 'x509: malformed certificate' });
  });

  it('throws UserErrors naming the source', () => {
    expect(() => parseCertificates('nope', 'trust anchors file')).toThrow(new UserError('trust anchors file: not a PEM certificate'));
    expect(() => parseCertificates('', 'trust anchors file')).toThrow('trust anchors file: no certificates found');
    expect(() => parseCertificates(fixture('valid-key.pem'), 'issuer certificate file')).toThrow('issuer certificate file: no certificates found');
  });
});

describe('leafPem', () => {
  it('keeps only the first certificate, re-encoded', () => {
    expect(leafPem(issuerPem + anchorPem)).toBe(issuerPem);
    expect(leafPem(`# issuer\n${issuerPem}`)).toBe(issuerPem);
  });

  it('round-trips through certificatesToPem', () => {
    const certs = parseCertificates(issuerPem + anchorPem, 'bundle');
    expect(certificatesToPem(certs)).toBe(issuerPem + anchorPem);
  });
});

describe('parsePrivateKey', () => {
  const ec = createPrivateKey(fixture('valid-key.pem'));
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  it.each([
    ['EC PRIVATE KEY', () => ec.export({ type: 'sec1', format: 'pem' }).toString(), 'ec', 'sec1'],
    ['PRIVATE KEY (EC)', () => ec.export({ type: 'pkcs8', format: 'pem' }).toString(), 'ec', 'pkcs8'],
    ['RSA PRIVATE KEY', () => rsa.export({ type: 'pkcs1', format: 'pem' }).toString(), 'rsa', 'pkcs1'],
    ['PRIVATE KEY (RSA)', () => rsa.export({ type: 'pkcs8', format: 'pem' }).toString(), 'rsa', 'pkcs8'],
  ])('accepts %s', (_label, pem, type, format) => {
    expect(parsePrivateKey(pem(), 'key file')).toMatchObject({ type, format });
  });

  it('names the source and linkerd’s reason on failure', () => {
    expect(() => parsePrivateKey('nope', 'issuer key file')).toThrow('issuer key file: not PEM-encoded');
    expect(() => parsePrivateKey(anchorPem, 'issuer key file')).toThrow("issuer key file: unsupported block type: 'CERTIFICATE'");
  });

  it('reports a corrupt key body', () => {
    const corrupt = '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n';
    expect(decodePrivateKey(corrupt)).toEqual({ ok: false, reason: 'x509: failed to parse EC private key' });
  });

  it('refuses EC keys on curves Go does not support', () => {
    const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ type: 'sec1', format: 'pem' });
    expect(decodePrivateKey(k1.toString())).toEqual({ ok: false, reason: 'x509: unknown elliptic curve' });
  });

  it('tells matching and non-matching keys apart', () => {
    const [issuer] = parseCertificates(issuerPem, 'issuer');
    expect(keyMatchesCertificate(ec, issuer)).toBe(true);
    expect(keyMatchesCertificate(createPrivateKey(fixture('mismatched-key.pem')), issuer)).toBe(false);
    expect(keyMatchesCertificate(rsa, issuer)).toBe(false);
  });
});

describe('toSec1Pem / toPkcs1Pem', () => {
  it('encode keys in the traditional PEM flavours and refuse the wrong key type', () => {
    const ec = createPrivateKey(fixture('valid-key.pem'));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(toSec1Pem(ec)).toBe(fixture('valid-key.pem'));
    expect(toPkcs1Pem(rsa)).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(() => toSec1Pem(rsa)).toThrow(UserError);
    expect(() => toPkcs1Pem(ec)).toThrow(UserError);
  });
});
