import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssuerFiles } from '../../../src/core/identity/createCertificates.js';
import { inspectCluster, inspectPem } from '../../../src/core/identity/inspect.js';
import { readRotationState } from '../../../src/core/identity/rotationState.js';
import { validateIssuerCredentials } from '../../../src/core/pki/index.js';
import { NS, apply, selection, servedCluster, tempDir } from './support.js';

/**
 * Certificates OpenSSL signs with an extension whose inner DER has the wrong type or tag: each
 * one parses as a certificate, and fails only when the extension is decoded.
 */
const MALFORMED: ReadonlyArray<[extension: string, addext: string, named: string]> = [
  ['basicConstraints (an INTEGER, not a SEQUENCE)', 'basicConstraints=critical,DER:020105', 'basic constraints (extension 2.5.29.19)'],
  ['subjectAltName (a GeneralName of a tag that does not exist)', 'subjectAltName=DER:300302012a', 'subject alternative names (extension 2.5.29.17)'],
  ['keyUsage (a UTF8String, not a BIT STRING)', 'keyUsage=DER:0c0161', 'key usage (extension 2.5.29.15)'],
  ['subjectKeyIdentifier (a SEQUENCE, not an OCTET STRING)', 'subjectKeyIdentifier=DER:300100', 'subject key identifier (extension 2.5.29.14)'],
  ['authorityKeyIdentifier (an OCTET STRING, not a SEQUENCE)', 'authorityKeyIdentifier=DER:0401ff', 'authority key identifier (extension 2.5.29.35)'],
  ['extendedKeyUsage (an OCTET STRING, not a SEQUENCE)', 'extendedKeyUsage=DER:0401ff', 'extended key usages (extension 2.5.29.37)'],
];

const t = tempDir();
afterAll(() => t.cleanup());
const certs = new Map<string, string>();

/** A self-signed P-256 CA made by openssl, with one extra extension given as `-addext`. */
function opensslCertificate(name: string, ...addext: string[]): string {
  const out = t.file(`${name}.crt`);
  execFileSync(
    'openssl',
    ['req', '-x509', '-key', t.file('ca.key'), '-subj', '/CN=root.linkerd.cluster.local', '-days', '30', ...addext.flatMap((a) => ['-addext', a]), '-out', out],
    {
      stdio: 'pipe',
    },
  );
  return fs.readFileSync(out, 'utf8');
}

beforeAll(() => {
  execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', t.file('ca.key')], { stdio: 'pipe' });
  fs.chmodSync(t.file('ca.key'), 0o600);
  certs.set('good', opensslCertificate('good', 'basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'));
  MALFORMED.forEach(([, addext], i) => certs.set(`bad${i}`, opensslCertificate(`bad${i}`, addext)));
});

describe('certificates with a malformed extension', () => {
  MALFORMED.forEach(([extension, , named], i) => {
    it(`identity inspect names the file, the line and the extension: ${extension}`, async () => {
      const text = `${certs.get('good') ?? ''}\n${certs.get(`bad${i}`) ?? ''}`;
      const line = text.split('\n').indexOf('-----BEGIN CERTIFICATE-----', 1) + 1;
      await expect(inspectPem({ text, source: 'bundle.crt' })).rejects.toThrow(`bundle.crt:${line}: x509: invalid ${named}`);
    });
  });

  it('create-issuer refuses such an anchor, naming the file and the extension', async () => {
    await expect(
      createIssuerFiles({
        trustAnchorFile: t.file('bad0.crt'),
        trustAnchorKeyFile: t.file('ca.key'),
        certOut: t.file('issuer.crt'),
        keyOut: t.file('issuer.key'),
        namespace: 'linkerd',
        trustDomain: 'cluster.local',
        validity: '24h',
      }),
    ).rejects.toThrow(`${t.file('bad0.crt')}:1: x509: invalid basic constraints (extension 2.5.29.19)`);
    expect(fs.existsSync(t.file('issuer.crt'))).toBe(false);
  });

  it('install’s issuer validation refuses it as anchors and as issuer certificate', async () => {
    const keyPem = fs.readFileSync(t.file('ca.key'), 'utf8');
    const good = certs.get('good') ?? '';
    for (const i of MALFORMED.keys()) {
      const bad = certs.get(`bad${i}`) ?? '';
      await expect(validateIssuerCredentials({ crtPem: good, keyPem, anchorsPem: bad, now: new Date() })).rejects.toThrow(
        /x509: invalid .* \(extension 2\.5\.29\.\d+\)/,
      );
      await expect(validateIssuerCredentials({ crtPem: bad, keyPem, anchorsPem: good, now: new Date() })).rejects.toThrow(
        /x509: invalid .* \(extension 2\.5\.29\.\d+\)/,
      );
    }
  });

  it('rotate status and inspect --cluster name the trust-roots ConfigMap and the extension', async () => {
    const { server } = await servedCluster();
    try {
      const roots = server.objects('v1', 'ConfigMap', NS).find((c) => c.metadata.name === 'linkerd-identity-trust-roots');
      const data = roots?.data as Record<string, string>;
      apply(server, [{ ...roots, data: { ...data, 'ca-bundle.crt': `${(data['ca-bundle.crt'] ?? '').trimEnd()}\n${certs.get('bad1') ?? ''}` } } as never]);
      const expected = /^ConfigMap linkerd\/linkerd-identity-trust-roots:\d+: x509: invalid subject alternative names \(extension 2\.5\.29\.17\)$/;
      await expect(readRotationState(selection(server), NS)).rejects.toThrow(expected);
      await expect(inspectCluster({ selection: selection(server), namespace: NS })).rejects.toThrow(expected);
    } finally {
      await server.stop();
    }
  });
});
