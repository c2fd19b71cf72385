import { webcrypto } from 'node:crypto';

/**
 * Certificates for the test API server: a throwaway CA and a serving certificate for
 * 127.0.0.1 / localhost, made with @peculiar/x509 over Node's WebCrypto.
 */
export interface ServingCertificates {
  caPem: string;
  certPem: string;
  keyPem: string;
  /** A client certificate (CN=`commonName`, clientAuth) signed by the same CA, and its key. */
  issueClient(commonName: string): Promise<{ certPem: string; keyPem: string }>;
}

/**
 * @peculiar/x509 depends on tsyringe, which insists on a Reflect metadata polyfill.
 * Only define/get metadata are used, so a WeakMap-backed stand-in is enough.
 */
function ensureReflectMetadata(): void {
  const R = Reflect as unknown as Record<string, unknown>;
  if (typeof R.getMetadata === 'function') return;
  const store = new WeakMap<object, Map<string, unknown>>();
  const key = (k: unknown, p: unknown) => `${String(p)}\u0000${String(k)}`;
  R.defineMetadata = (k: unknown, v: unknown, target: object, prop?: unknown) => {
    let m = store.get(target);
    if (!m) store.set(target, (m = new Map()));
    m.set(key(k, prop), v);
  };
  R.getOwnMetadata = (k: unknown, target: object, prop?: unknown) => store.get(target)?.get(key(k, prop));
  R.hasOwnMetadata = (k: unknown, target: object, prop?: unknown) => store.get(target)?.has(key(k, prop)) ?? false;
  R.getMetadata = (k: unknown, target: object, prop?: unknown) => {
    for (let o: object | null = target; o; o = Object.getPrototypeOf(o)) {
      const m = store.get(o);
      if (m?.has(key(k, prop))) return m.get(key(k, prop));
    }
    return undefined;
  };
  R.metadata = () => () => undefined;
}

async function x509() {
  ensureReflectMetadata();
  const lib = await import('@peculiar/x509');
  lib.cryptoProvider.set(webcrypto as never);
  return lib;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
}

interface Ca {
  cert: import('@peculiar/x509').X509Certificate;
  keys: webcrypto.CryptoKeyPair;
}

async function createCa(name: string): Promise<Ca> {
  const lib = await x509();
  const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await lib.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(now - 60 * 60 * 1000),
    notAfter: new Date(now + 24 * 60 * 60 * 1000),
    keys,
    signingAlgorithm: EC,
    extensions: [
      new lib.BasicConstraintsExtension(true, undefined, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign | lib.KeyUsageFlags.digitalSignature, true),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, keys };
}

/** A CA certificate nobody signs with: for "wrong CA" tests. */
export async function createUnrelatedCaPem(): Promise<string> {
  return (await createCa('unrelated-ca')).cert.toString('pem') + '\n';
}

type X509Lib = Awaited<ReturnType<typeof x509>>;
type Extension = InstanceType<X509Lib['Extension']>;

/** A leaf certificate for `subject` signed by `ca` (valid from an hour ago for a day), and its key. */
async function issueLeaf(ca: Ca, subject: string, extensions: (lib: X509Lib) => Extension[]): Promise<{ certPem: string; keyPem: string }> {
  const lib = await x509();
  const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await lib.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: ca.cert.subject,
    notBefore: new Date(now - 60 * 60 * 1000),
    notAfter: new Date(now + 24 * 60 * 60 * 1000),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: EC,
    extensions: [
      new lib.BasicConstraintsExtension(false, undefined, true),
      ...extensions(lib),
      await lib.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem') + '\n', keyPem: pem('PRIVATE KEY', pkcs8) };
}

/** A fresh CA and a serving certificate (SANs: IP 127.0.0.1, DNS localhost and `dnsNames`) signed by it. */
export async function createServingCertificates(dnsNames: string[] = []): Promise<ServingCertificates> {
  const ca = await createCa('linkerd-ts-test-apiserver-ca');
  const serving = await issueLeaf(ca, 'CN=kube-apiserver', (lib) => [
    new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature | lib.KeyUsageFlags.keyEncipherment, true),
    new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.serverAuth]),
    new lib.SubjectAlternativeNameExtension([
      { type: 'ip', value: '127.0.0.1' },
      { type: 'dns', value: 'localhost' },
      ...dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ]),
  ]);
  return {
    caPem: ca.cert.toString('pem') + '\n',
    ...serving,
    issueClient: (commonName) =>
      issueLeaf(ca, `CN=${commonName}`, (lib) => [
        new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature, true),
        new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.clientAuth]),
      ]),
  };
}
