import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import {
  checkIssuerCredentials,
  createIssuer,
  createTrustAnchor,
  generateEcdsaKey,
  generateRsaKey,
  parseCertificates,
  validateIssuerCredentials,
} from '../../../src/core/pki/index.js';
import { fixture, fixtureSet } from './fixtures.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PREFIX = 'failed to validate issuer credentials: ';
const at = (iso: string) => new Date(`${iso}T00:00:00Z`);

async function expectFailure(input: { crtPem: string; keyPem: string; anchorsPem: string }, reason: string) {
  const promise = validateIssuerCredentials({ ...input, now: NOW });
  await expect(promise).rejects.toBeInstanceOf(UserError);
  await expect(promise).rejects.toThrow(PREFIX + reason);
  const error = (await promise.catch((e: unknown) => e)) as UserError;
  expect(error.message).toBe(PREFIX + reason);
}

async function chain(anchorWindow: [string, string], issuerWindow: [string, string]) {
  const anchor = await createTrustAnchor({
    commonName: 'root.linkerd.cluster.local',
    notBefore: at(anchorWindow[0]),
    notAfter: at(anchorWindow[1]),
  });
  const issuer = await createIssuer({
    anchor,
    commonName: 'identity.linkerd.cluster.local',
    notBefore: at(issuerWindow[0]),
    notAfter: at(issuerWindow[1]),
  });
  return { anchor, issuer };
}

describe('validateIssuerCredentials with the fixture sets', () => {
  it('accepts the valid set and returns the issuer, its key and the verified chain', async () => {
    const result = await validateIssuerCredentials({ ...fixtureSet('valid'), now: NOW });
    expect(result.issuerInfo.subjectCN).toBe('identity.linkerd.cluster.local');
    expect(result.key).toMatchObject({ type: 'ec', format: 'sec1' });
    expect(result.anchors).toHaveLength(1);
    expect(result.chain).toHaveLength(2);
    expect(result.issuerPem).toBe(fixture('valid-crt.pem'));
  });

  it('accepts an RSA trust anchor signing an ECDSA issuer', async () => {
    const result = await validateIssuerCredentials({ ...fixtureSet('valid-with-rsa-anchor'), now: NOW });
    expect(result.issuerInfo.signatureAlgorithm).toBe('SHA256-RSA');
  });

  it('rejects an expired issuer', async () => {
    await expectFailure(fixtureSet('expired'), 'not valid anymore. Expired on 2021-01-01T00:00:00Z');
  });

  it('rejects an issuer that is not valid yet', async () => {
    await expectFailure(fixtureSet('not-valid-yet'), 'not valid before: 2099-01-01T00:00:00Z');
  });

  it('rejects a P-384 issuer', async () => {
    await expectFailure(fixtureSet('wrong-algo'), 'must use P-256 curve for public key, instead P-384 was used');
  });

  it('rejects an issuer that is not a CA', async () => {
    await expectFailure(fixtureSet('issuer-not-ca'), 'issuer cert is not a CA');
  });

  it('rejects an issuer signed by a different anchor of the same name', async () => {
    await expectFailure(
      fixtureSet('wrong-anchor'),
      'x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" ' +
        'while trying to verify candidate authority certificate "root.linkerd.cluster.local")',
    );
  });

  it('rejects a key that does not belong to the certificate', async () => {
    await expectFailure({ ...fixtureSet('valid'), keyPem: fixture('mismatched-key.pem') }, 'failed to read CA: tls: Public and private key do not match');
  });
});

describe('validateIssuerCredentials: key and certificate decoding', () => {
  it('accepts the issuer key as PKCS#8 PRIVATE KEY', async () => {
    const pkcs8 = createPrivateKey(fixture('valid-key.pem')).export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(pkcs8).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const result = await validateIssuerCredentials({ ...fixtureSet('valid'), keyPem: pkcs8, now: NOW });
    expect(result.key.format).toBe('pkcs8');
  });

  it('reads RSA keys (PKCS#1 and PKCS#8) but then rejects an RSA issuer for its algorithm', async () => {
    const { anchor: realAnchor } = await chain(['2025-01-01', '2035-01-01'], ['2025-01-01', '2035-01-01']);
    const rsaIssuer = await createIssuer({
      anchor: realAnchor,
      commonName: 'identity.linkerd.cluster.local',
      notBefore: at('2025-01-01'),
      notAfter: at('2035-01-01'),
      keys: await generateRsaKey(2048),
    });
    expect(rsaIssuer.keyPem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    const reason = 'issuer certificate must use ECDSA for public key algorithm, instead RSA was used';
    await expectFailure({ crtPem: rsaIssuer.certPem, keyPem: rsaIssuer.keyPem, anchorsPem: realAnchor.certPem }, reason);
    const pkcs8 = createPrivateKey(rsaIssuer.keyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
    await expectFailure({ crtPem: rsaIssuer.certPem, keyPem: pkcs8, anchorsPem: realAnchor.certPem }, reason);
  });

  it('reports a key file that is not PEM', async () => {
    await expectFailure({ ...fixtureSet('valid'), keyPem: 'not a key' }, 'failed to read CA: not PEM-encoded');
  });

  it('reports an unsupported key block type, as linkerd does for openssl ecparam output', async () => {
    const withParams = `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${fixture('valid-key.pem')}`;
    await expectFailure({ ...fixtureSet('valid'), keyPem: withParams }, "failed to read CA: unsupported block type: 'EC PARAMETERS'");
  });

  it('reports a PKCS#8 key of an unsupported type', async () => {
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expectFailure({ ...fixtureSet('valid'), keyPem: ed }, "failed to read CA: unsupported private key type in PKCS#8 wrapping: 'ed25519'");
  });

  it('reports a certificate file without certificates (linkerd capitalises this one)', async () => {
    await expectFailure({ ...fixtureSet('valid'), crtPem: '' }, 'failed to read CA: No certificates found');
  });

  it('reports a certificate file that is not PEM', async () => {
    await expectFailure({ ...fixtureSet('valid'), crtPem: 'garbage' }, 'failed to read CA: not a PEM certificate');
  });

  it('checks the key before the certificate, like linkerd', async () => {
    await expectFailure({ ...fixtureSet('valid'), crtPem: 'garbage', keyPem: 'garbage' }, 'failed to read CA: not PEM-encoded');
  });
});

describe('validateIssuerCredentials: trust anchors', () => {
  it('reports an empty anchors bundle', async () => {
    await expectFailure({ ...fixtureSet('valid'), anchorsPem: '' }, 'no certificates found');
  });

  it('reports an anchors bundle that is not PEM', async () => {
    await expectFailure({ ...fixtureSet('valid'), anchorsPem: 'not pem' }, 'not a PEM certificate');
  });

  it('rejects a bundle with a trailing blank line, as Go PEM decoding does (linkerd2#3414)', async () => {
    await expectFailure({ ...fixtureSet('valid'), anchorsPem: `${fixture('valid-trust-anchors.pem')}\n` }, 'not a PEM certificate');
  });

  it('accepts a bundle holding the old and the new anchor, in either order', async () => {
    const set = fixtureSet('valid');
    const other = fixture('wrong-anchor-trust-anchors.pem');
    for (const anchorsPem of [other + set.anchorsPem, set.anchorsPem + other]) {
      const result = await validateIssuerCredentials({ ...set, anchorsPem, now: NOW });
      expect(result.anchors).toHaveLength(2);
      const [validAnchor] = parseCertificates(set.anchorsPem, 'valid anchor');
      expect(result.chain[1].equal(validAnchor)).toBe(true);
    }
  });

  it('reports an expired anchor with linkerd’s appended time details (of the issuer)', async () => {
    const { anchor, issuer } = await chain(['2020-01-01', '2021-01-01'], ['2020-01-01', '2035-01-01']);
    await expectFailure(
      { crtPem: issuer.certPem, keyPem: issuer.keyPem, anchorsPem: anchor.certPem },
      'x509: certificate has expired or is not yet valid: current time 2026-06-01T00:00:00Z is after 2021-01-01T00:00:00Z' +
        ' - Current Time : 2026-06-01 00:00:00 +0000 UTC' +
        ' - Invalid before 2020-01-01 00:00:00 +0000 UTC - Invalid After 2035-01-01 00:00:00 +0000 UTC',
    );
  });

  it('verifies through intermediates that follow the issuer in its certificate file', async () => {
    const root = await createTrustAnchor({
      commonName: 'root.linkerd.cluster.local',
      notBefore: at('2025-01-01'),
      notAfter: at('2035-01-01'),
    });
    const middle = await createIssuer({
      anchor: root,
      commonName: 'intermediate.linkerd.cluster.local',
      notBefore: at('2025-01-01'),
      notAfter: at('2035-01-01'),
    });
    const issuer = await createIssuer({
      anchor: middle,
      commonName: 'identity.linkerd.cluster.local',
      notBefore: at('2025-01-01'),
      notAfter: at('2035-01-01'),
    });
    const withChain = await validateIssuerCredentials({
      crtPem: issuer.certPem + middle.certPem,
      keyPem: issuer.keyPem,
      anchorsPem: root.certPem,
      now: NOW,
    });
    expect(withChain.chain.map((c) => c.subject)).toEqual([
      'CN=identity.linkerd.cluster.local',
      'CN=intermediate.linkerd.cluster.local',
      'CN=root.linkerd.cluster.local',
    ]);
    expect(withChain.intermediates).toHaveLength(1);
    expect(withChain.issuerPem).toBe(issuer.certPem);
    await expectFailure({ crtPem: issuer.certPem, keyPem: issuer.keyPem, anchorsPem: root.certPem }, 'x509: certificate signed by unknown authority');
  });
});

describe('checkIssuerCredentials', () => {
  it('returns the reason without the install prefix instead of throwing', async () => {
    const result = await checkIssuerCredentials({ ...fixtureSet('expired'), now: NOW });
    expect(result).toEqual({ ok: false, reason: 'not valid anymore. Expired on 2021-01-01T00:00:00Z' });
  });

  it('checks time validity before the algorithm, like linkerd', async () => {
    const anchor = await createTrustAnchor({ commonName: 'root', notBefore: at('2019-01-01'), notAfter: at('2035-01-01') });
    const oldP384 = await createIssuer({
      anchor,
      commonName: 'identity',
      notBefore: at('2019-01-01'),
      notAfter: at('2020-01-01'),
      keys: await generateEcdsaKey('P-384'),
    });
    const result = await checkIssuerCredentials({
      crtPem: oldP384.certPem,
      keyPem: oldP384.keyPem,
      anchorsPem: anchor.certPem,
      now: NOW,
    });
    expect(result).toEqual({ ok: false, reason: 'not valid anymore. Expired on 2020-01-01T00:00:00Z' });
  });
});
