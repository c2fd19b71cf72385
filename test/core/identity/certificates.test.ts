import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createIssuerFiles, createTrustAnchorFiles } from '../../../src/core/identity/createCertificates.js';
import { inspectPem } from '../../../src/core/identity/inspect.js';
import { createTrustAnchor, createWebhookCert, generateEcdsaKey, generateEcdsaP256Key, parseCertificates } from '../../../src/core/pki/index.js';
import { tempDir } from './support.js';
import { writeTestFile } from '../../support/testFiles.js';
import { articleFor } from '../../../src/core/pki/parseBundle.js';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY);
let t: ReturnType<typeof tempDir>;
afterEach(() => t.cleanup());

const anchorArgs = (o: Partial<Parameters<typeof createTrustAnchorFiles>[0]> = {}) => ({
  certOut: t.file('ca.crt'),
  keyOut: t.file('ca.key'),
  trustDomain: 'cluster.local',
  validity: '87600h',
  keyType: 'ecdsa-p256' as const,
  ...o,
});
const issuerArgs = (o: Partial<Parameters<typeof createIssuerFiles>[0]> = {}) => ({
  trustAnchorFile: t.file('ca.crt'),
  trustAnchorKeyFile: t.file('ca.key'),
  certOut: t.file('issuer.crt'),
  keyOut: t.file('issuer.key'),
  namespace: 'linkerd',
  trustDomain: 'cluster.local',
  validity: '8760h',
  ...o,
});

describe('linkerd identity create-trust-anchor / create-issuer', () => {
  it('writes an anchor and an issuer that linkerd accepts, keys 0600 and certificates 0644', async () => {
    t = tempDir();
    const anchor = await createTrustAnchorFiles(anchorArgs());
    expect(anchor.info).toMatchObject({ subjectCN: 'root.linkerd.cluster.local', isCA: true, publicKeyAlgorithm: 'ECDSA', curve: 'P-256' });
    const issuer = await createIssuerFiles(issuerArgs());
    expect(issuer.info).toMatchObject({ subjectCN: 'identity.linkerd.cluster.local', issuerCN: 'root.linkerd.cluster.local', isCA: true, maxPathLen: 0 });
    for (const key of ['ca.key', 'issuer.key']) expect(fs.statSync(t.file(key)).mode & 0o777).toBe(0o600);
    for (const crt of ['ca.crt', 'issuer.crt']) expect(fs.statSync(t.file(crt)).mode & 0o777).toBe(0o644);
    const report = await inspectPem({
      text: fs.readFileSync(t.file('issuer.crt'), 'utf8'),
      source: 'issuer.crt',
      anchorsText: fs.readFileSync(t.file('ca.crt'), 'utf8'),
    });
    expect(report.sections[0]?.certificates[0]?.chainsTo).toMatchObject({ ok: true, anchorSubject: 'CN=root.linkerd.cluster.local' });
  });

  it('makes RSA anchors with --key-type, and an ECDSA issuer under them', async () => {
    t = tempDir();
    const anchor = await createTrustAnchorFiles(anchorArgs({ keyType: 'rsa-2048', commonName: 'corp root' }));
    expect(anchor.info).toMatchObject({ subjectCN: 'corp root', publicKeyAlgorithm: 'RSA', rsaBits: 2048, signatureAlgorithm: 'SHA256-RSA' });
    const issuer = await createIssuerFiles(issuerArgs());
    expect(issuer.info).toMatchObject({ publicKeyAlgorithm: 'ECDSA', curve: 'P-256', signatureAlgorithm: 'SHA256-RSA' });
  });

  it('refuses to overwrite, and writes all or nothing', async () => {
    t = tempDir();
    fs.writeFileSync(t.file('ca.key'), 'precious');
    await expect(createTrustAnchorFiles(anchorArgs())).rejects.toThrow(`open ${t.file('ca.key')}: file exists (refusing to overwrite it)`);
    expect(fs.existsSync(t.file('ca.crt'))).toBe(false); // the certificate written first was removed
    expect(fs.readFileSync(t.file('ca.key'), 'utf8')).toBe('precious');
  });

  it('does not follow a symlink planted where the key goes', async () => {
    t = tempDir();
    fs.symlinkSync(t.file('elsewhere'), t.file('ca.key'));
    await expect(createTrustAnchorFiles(anchorArgs())).rejects.toThrow(/file exists|symbolic link/);
    expect(fs.existsSync(t.file('elsewhere'))).toBe(false);
  });

  it('cuts the issuer’s validity to the anchor’s, and says so', async () => {
    t = tempDir();
    await createTrustAnchorFiles(anchorArgs({ validity: '240h' }));
    const issuer = await createIssuerFiles(issuerArgs());
    expect(issuer.notes[0]).toMatch(/^The issuer's validity was cut to the trust anchor's/);
    const anchorEnd = parseCertificates(fs.readFileSync(t.file('ca.crt'), 'utf8'), 'ca')[0]?.notAfter.getTime();
    expect(issuer.info.notAfter.getTime()).toBe(anchorEnd);
  });

  describe('refuses bad anchors with one line naming the file', () => {
    const write = async (make: () => Promise<{ certPem: string; keyPem: string }>) => {
      t = tempDir();
      const c = await make();
      fs.writeFileSync(t.file('ca.crt'), c.certPem);
      writeTestFile(t.file('ca.key'), c.keyPem);
      return c;
    };
    const cases: Array<[string, () => Promise<{ certPem: string; keyPem: string }>, RegExp]> = [
      [
        'an expired anchor',
        () => createTrustAnchor({ commonName: 'old', notBefore: at(-30), notAfter: at(-1) }),
        /ca\.crt:1: trust anchor old is not valid anymore\. Expired on \d{4}-/,
      ],
      [
        'a not-yet-valid anchor',
        () => createTrustAnchor({ commonName: 'later', notBefore: at(2), notAfter: at(30) }),
        /ca\.crt:1: trust anchor later is not valid before: \d{4}-/,
      ],
      [
        'a P-384 anchor',
        async () => createTrustAnchor({ commonName: 'p384', notBefore: at(-1), notAfter: at(30), keys: await generateEcdsaKey('P-384') }),
        /ca\.crt:1: trust anchor must use P-256 curve for public key, instead P-384 was used/,
      ],
      [
        'a certificate that is not a CA',
        async () => createWebhookCert({ dnsName: 'x.linkerd.svc', notBefore: at(-1), notAfter: at(30), keys: await generateEcdsaP256Key() }),
        /ca\.crt:1: certificate x\.linkerd\.svc is not a CA/,
      ],
    ];
    for (const [name, make, message] of cases) {
      it(name, async () => {
        await write(make);
        await expect(createIssuerFiles(issuerArgs())).rejects.toThrow(message);
        expect(fs.existsSync(t.file('issuer.crt')) || fs.existsSync(t.file('issuer.key'))).toBe(false);
      });
    }

    it('a key that is not the anchor’s', async () => {
      await write(() => createTrustAnchor({ commonName: 'a', notBefore: at(-1), notAfter: at(30) }));
      const other = await createTrustAnchor({ commonName: 'b', notBefore: at(-1), notAfter: at(30) });
      fs.writeFileSync(t.file('ca.key'), other.keyPem, { mode: 0o600 });
      await expect(createIssuerFiles(issuerArgs())).rejects.toThrow(`${t.file('ca.key')}: the key does not belong to the certificate in ${t.file('ca.crt')}`);
    });

    it('a bundle with garbage between its PEM blocks', async () => {
      const a = await write(() => createTrustAnchor({ commonName: 'a', notBefore: at(-1), notAfter: at(30) }));
      const b = await createTrustAnchor({ commonName: 'b', notBefore: at(-1), notAfter: at(30) });
      fs.writeFileSync(t.file('ca.crt'), `${a.certPem}\noops, pasted text\n${b.certPem}`);
      const line = a.certPem.split('\n').length + 1;
      await expect(createIssuerFiles(issuerArgs())).rejects.toThrow(`${t.file('ca.crt')}:${line}: unexpected text between PEM blocks`);
      await expect(inspectPem({ text: fs.readFileSync(t.file('ca.crt'), 'utf8'), source: 'bundle.crt' })).rejects.toThrow(
        `bundle.crt:${line}: unexpected text between PEM blocks`,
      );
    });

    it('a private key where a certificate belongs', async () => {
      const a = await write(() => createTrustAnchor({ commonName: 'a', notBefore: at(-1), notAfter: at(30) }));
      await expect(inspectPem({ text: `${a.certPem}${a.keyPem}`, source: 'mixed.pem' })).rejects.toThrow(
        `mixed.pem:${a.certPem.split('\n').length}: an EC PRIVATE KEY block where a CERTIFICATE was expected`,
      );
    });
  });
});

describe('linkerd identity inspect', () => {
  it('reports every field, and a certificate that does not chain to the given anchors', async () => {
    t = tempDir();
    const a = await createTrustAnchor({ commonName: 'root.linkerd.cluster.local', notBefore: at(-1), notAfter: at(30), serial: '0a1b' });
    const stranger = await createTrustAnchor({ commonName: 'root.linkerd.cluster.local', notBefore: at(-1), notAfter: at(30) });
    const report = await inspectPem({ text: a.certPem, source: 'ca.crt', anchorsText: stranger.certPem, anchorsSource: 'other.crt' });
    const c = report.sections[0]?.certificates[0];
    expect(c).toMatchObject({
      source: 'ca.crt:1',
      subject: 'CN=root.linkerd.cluster.local',
      issuer: 'CN=root.linkerd.cluster.local',
      serial: '0a1b',
      sans: ['DNS:root.linkerd.cluster.local'],
      keyAlgorithm: 'ECDSA P-256',
      signatureAlgorithm: 'ECDSA-SHA256',
      isCA: true,
      pathLength: 1,
      status: 'expiring-soon',
      chainsTo: { ok: false, reason: expect.stringMatching(/^x509: certificate signed by unknown authority/) },
    });
    expect(c?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(c?.timeLeftMs).toBeGreaterThan(29 * DAY);
  });
});

describe('PEM block types in messages', () => {
  it('take the article they are read with', () => {
    const cases = [
      'EC PRIVATE KEY',
      'RSA PRIVATE KEY',
      'X509 CRL',
      'ENCRYPTED PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'PRIVATE KEY',
      'DSA PRIVATE KEY',
      'CERTIFICATE',
      'NEW CERTIFICATE REQUEST',
      'PKCS7',
    ];
    expect(cases.map((t) => `${articleFor(t)} ${t}`)).toEqual([
      'an EC PRIVATE KEY',
      'an RSA PRIVATE KEY',
      'an X509 CRL',
      'an ENCRYPTED PRIVATE KEY',
      'an OPENSSH PRIVATE KEY',
      'a PRIVATE KEY',
      'a DSA PRIVATE KEY',
      'a CERTIFICATE',
      'a NEW CERTIFICATE REQUEST',
      'a PKCS7',
    ]);
  });
});
