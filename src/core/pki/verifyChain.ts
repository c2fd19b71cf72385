import { isIP } from 'node:net';
import { certificateInfo, type CertificateInfo } from './certificateInfo.js';
import { formatGoTime, formatRFC3339 } from './formatRFC3339.js';
import { x509 } from './x509.js';

/**
 * Chain verification with the semantics and messages of Go's `x509.Certificate.Verify`,
 * which is what linkerd (install, check, the identity controller) and the Kubernetes
 * API server run. @peculiar/x509 checks the signatures; path building is done here,
 * because the library's X509ChainBuilder follows a single greedy path (no backtracking
 * over same-named candidates, no stop at a trusted anchor, no CA/validity/pathlen
 * rules), while Go tries every candidate and reports the first useful reason.
 *
 * Not reproduced: name constraints, certificate policies, v1 (extension-less) CA
 * certificates, and Go's parse-time refusals of malformed extensions.
 */

export type ChainFailureKind =
  | 'expired'
  | 'unknown-authority'
  | 'not-authorized-to-sign'
  | 'too-many-intermediates'
  | 'incompatible-usage'
  | 'name-mismatch'
  | 'hostname'
  | 'unhandled-critical-extension'
  | 'signature-limit';

export interface ChainFailure {
  kind: ChainFailureKind;
  /** Go's error text, e.g. `x509: certificate signed by unknown authority`. */
  reason: string;
}

export type ChainVerification = { ok: true; chain: x509.X509Certificate[]; chains: x509.X509Certificate[][] } | ({ ok: false } & ChainFailure);

export interface VerifyChainOptions {
  /** Also require the leaf to be valid for this DNS name (or IP), as Go's VerifyOptions.DNSName. */
  dnsName?: string;
}

const OID_SAN = '2.5.29.17';
const OID_EKU_ANY = '2.5.29.37.0';
const OID_SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
/** Critical extensions Go's parser understands; any other critical one makes a certificate unusable. */
const HANDLED_CRITICAL = new Set([
  '2.5.29.14', // subject key id
  '2.5.29.15', // key usage
  '2.5.29.17', // subject alt name
  '2.5.29.19', // basic constraints
  '2.5.29.30', // name constraints
  '2.5.29.31', // CRL distribution points
  '2.5.29.32', // certificate policies
  '2.5.29.35', // authority key id
  '2.5.29.37', // extended key usage
  '1.3.6.1.5.5.7.1.1', // authority info access
]);
/** Go's maxChainSignatureChecks. */
const MAX_SIGNATURE_CHECKS = 100;

const CONSTRAINT_VIOLATION = 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
const ALGORITHM_UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';
/** Go's `%T` of a parsed public key, used in algorithm-mismatch errors. */
const GO_KEY_TYPES: Record<string, string> = {
  RSA: '*rsa.PublicKey',
  ECDSA: '*ecdsa.PublicKey',
  Ed25519: 'ed25519.PublicKey',
};

interface Node {
  cert: x509.X509Certificate;
  info: CertificateInfo;
  raw: Buffer;
  subject: Buffer;
  issuer: Buffer;
  spki: Buffer;
  san?: Buffer;
  unhandledCritical: boolean;
}

function toNode(cert: x509.X509Certificate): Node {
  const san = cert.extensions.find((e) => e.type === OID_SAN);
  return {
    cert,
    info: certificateInfo(cert),
    raw: Buffer.from(cert.rawData),
    subject: Buffer.from(cert.subjectName.toArrayBuffer()),
    issuer: Buffer.from(cert.issuerName.toArrayBuffer()),
    spki: Buffer.from(cert.publicKey.rawData),
    san: san ? Buffer.from(san.value) : undefined,
    unhandledCritical: cert.extensions.some((e) => e.critical && !HANDLED_CRITICAL.has(e.type)),
  };
}

/** A CertPool: insertion order kept, exact duplicates dropped. */
function toPool(certs: readonly x509.X509Certificate[]): Node[] {
  const pool: Node[] = [];
  for (const cert of certs) {
    const node = toNode(cert);
    if (!pool.some((n) => n.raw.equals(node.raw))) pool.push(node);
  }
  return pool;
}

/** Go's findPotentialParents: same name as the child's issuer, best key-id matches first. */
function potentialParents(pool: Node[], child: Node): Node[] {
  const matching: Node[] = [];
  const oneKeyId: Node[] = [];
  const mismatch: Node[] = [];
  const aki = child.info.authorityKeyId ?? '';
  for (const candidate of pool) {
    if (!candidate.subject.equals(child.issuer)) continue;
    const ski = candidate.info.subjectKeyId ?? '';
    if (ski === aki) matching.push(candidate);
    else if (ski === '' || aki === '') oneKeyId.push(candidate);
    else mismatch.push(candidate);
  }
  return [...matching, ...oneKeyId, ...mismatch];
}

/** Go's alreadyInChain: same subject, same key and same SAN (or both without) means a loop. */
function alreadyInChain(candidate: Node, chain: Node[]): boolean {
  return chain.some(
    (c) =>
      c.subject.equals(candidate.subject) &&
      c.spki.equals(candidate.spki) &&
      (c.san === undefined ? candidate.san === undefined : candidate.san !== undefined && c.san.equals(candidate.san)),
  );
}

function signatureKeyAlgorithm(signatureAlgorithm: string): string {
  if (signatureAlgorithm.startsWith('ECDSA')) return 'ECDSA';
  if (signatureAlgorithm === 'Ed25519') return 'Ed25519';
  return 'RSA';
}

/** Go's CheckSignatureFrom: the parent may sign (CA, certSign) and its key verifies the child's signature. */
async function checkSignatureFrom(child: Node, parent: Node): Promise<string | undefined> {
  const p = parent.info;
  if (!p.basicConstraintsValid || !p.isCA) return CONSTRAINT_VIOLATION;
  if (p.keyUsage !== 0 && (p.keyUsage & x509.KeyUsageFlags.keyCertSign) === 0) return CONSTRAINT_VIOLATION;
  // Go's checkSignature has no DSA case, and cannot use keys it could not parse.
  if (p.publicKeyAlgorithm === '0' || p.publicKeyAlgorithm === 'DSA') return ALGORITHM_UNIMPLEMENTED;
  const algorithm = child.info.signatureAlgorithm;
  if (algorithm === '0') return ALGORITHM_UNIMPLEMENTED;
  if (algorithm.includes('SHA1') || algorithm.startsWith('MD')) {
    return `x509: cannot verify signature: insecure algorithm ${algorithm}`;
  }
  const expected = signatureKeyAlgorithm(algorithm);
  if (expected !== p.publicKeyAlgorithm) {
    return `x509: signature algorithm specifies an ${expected} public key, but have public key of type ${GO_KEY_TYPES[p.publicKeyAlgorithm]}`;
  }
  let verified: boolean;
  try {
    verified = await child.cert.verify({ publicKey: parent.cert.publicKey, signatureOnly: true });
  } catch {
    verified = false;
  }
  if (verified) return undefined;
  if (expected === 'ECDSA') return 'x509: ECDSA verification failure';
  if (expected === 'Ed25519') return 'x509: Ed25519 verification failure';
  return 'crypto/rsa: verification error';
}

type CertType = 'leaf' | 'intermediate' | 'root';

/** Go's isValid for a certificate about to be appended to `chain`. */
function isValid(node: Node, certType: CertType, chain: Node[], now: Date): ChainFailure | undefined {
  if (node.unhandledCritical) return { kind: 'unhandled-critical-extension', reason: 'x509: unhandled critical extension' };
  const child = chain[chain.length - 1];
  if (child !== undefined && !child.issuer.equals(node.subject)) {
    return { kind: 'name-mismatch', reason: 'x509: issuer name does not match subject from issuing certificate' };
  }
  if (now.getTime() < node.info.notBefore.getTime()) {
    return {
      kind: 'expired',
      reason: `x509: certificate has expired or is not yet valid: current time ${formatRFC3339(now)} is before ${formatRFC3339(node.info.notBefore)}`,
    };
  }
  if (now.getTime() > node.info.notAfter.getTime()) {
    return {
      kind: 'expired',
      reason: `x509: certificate has expired or is not yet valid: current time ${formatRFC3339(now)} is after ${formatRFC3339(node.info.notAfter)}`,
    };
  }
  if (certType === 'intermediate' && (!node.info.basicConstraintsValid || !node.info.isCA)) {
    return { kind: 'not-authorized-to-sign', reason: 'x509: certificate is not authorized to sign other certificates' };
  }
  if (node.info.basicConstraintsValid && node.info.maxPathLen >= 0 && chain.length - 1 > node.info.maxPathLen) {
    return { kind: 'too-many-intermediates', reason: 'x509: too many intermediates for path length constraint' };
  }
  return undefined;
}

/** How Go names a candidate in "unknown authority" hints. */
function hintName(node: Node): string {
  return node.info.subjectCN || node.info.subjectOrganization || `serial:${node.info.serialDecimal}`;
}

interface BuildState {
  roots: Node[];
  intermediates: Node[];
  now: Date;
  signatureChecks: number;
}

/**
 * Go's buildChains, including its error bookkeeping: a signature failure only becomes
 * a hint, but a candidate that verifies yet fails isValid (say, an expired anchor)
 * makes that validity error the result when no chain is found.
 */
async function buildChains(node: Node, chain: Node[], state: BuildState): Promise<{ chains: Node[][]; error?: ChainFailure }> {
  const chains: Node[][] = [];
  let error: ChainFailure | undefined;
  let hint: { reason: string; cert: Node } | undefined;

  const consider = async (certType: 'root' | 'intermediate', candidate: Node): Promise<void> => {
    if (alreadyInChain(candidate, chain)) return;
    state.signatureChecks += 1;
    if (state.signatureChecks > MAX_SIGNATURE_CHECKS) {
      error = {
        kind: 'signature-limit',
        reason: 'x509: signature check attempts limit reached while verifying certificate chain',
      };
      return;
    }
    const signatureProblem = await checkSignatureFrom(node, candidate);
    if (signatureProblem !== undefined) {
      hint ??= { reason: signatureProblem, cert: candidate };
      return;
    }
    error = isValid(candidate, certType, chain, state.now);
    if (error !== undefined) {
      hint ??= { reason: error.reason, cert: candidate };
      return;
    }
    if (certType === 'root') {
      chains.push([...chain, candidate]);
    } else {
      const built = await buildChains(candidate, [...chain, candidate], state);
      error = built.error;
      chains.push(...built.chains);
    }
  };

  for (const root of potentialParents(state.roots, node)) await consider('root', root);
  for (const intermediate of potentialParents(state.intermediates, node)) await consider('intermediate', intermediate);

  if (chains.length > 0) return { chains };
  if (error !== undefined) return { chains, error };
  const base = 'x509: certificate signed by unknown authority';
  const reason = hint
    ? `${base} (possibly because of ${JSON.stringify(hint.reason)} while trying to verify candidate authority certificate ${JSON.stringify(hintName(hint.cert))})`
    : base;
  return { chains, error: { kind: 'unknown-authority', reason } };
}

/** Go's checkChainForKeyUsage: every certificate that restricts extended key usage must allow the requested one. */
function chainAllowsUsage(chain: Node[], usage: string): boolean {
  return chain.every((n) => n.info.extKeyUsage.length === 0 || n.info.extKeyUsage.includes(OID_EKU_ANY) || n.info.extKeyUsage.includes(usage));
}

const HOSTNAME_CHARS = /^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/;

function validHostname(host: string, isPattern: boolean): boolean {
  const h = isPattern ? host : host.replace(/\.$/, '');
  if (h.length === 0 || h === '*') return false;
  return h.split('.').every((part, i) => (isPattern && i === 0 && part === '*') || (part.length > 0 && HOSTNAME_CHARS.test(part)));
}

function matchHostnames(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase().replace(/\.$/, '');
  if (p.length === 0 || h.length === 0) return false;
  const pp = p.split('.');
  const hp = h.split('.');
  return pp.length === hp.length && pp.every((part, i) => (i === 0 && part === '*') || part === hp[i]);
}

/** Go's VerifyHostname and HostnameError texts. */
function hostnameProblem(node: Node, host: string): string | undefined {
  const bare = host.length >= 3 && host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const ipSans =
    node.cert
      .getExtension(x509.SubjectAlternativeNameExtension)
      ?.names.items.filter((n) => n.type === 'ip')
      .map((n) => n.value) ?? [];
  if (isIP(bare) !== 0) {
    if (ipSans.includes(bare)) return undefined;
    if (ipSans.length === 0) return `x509: cannot validate certificate for ${bare} because it doesn't contain any IP SANs`;
    return `x509: certificate is valid for ${ipSans.join(', ')}, not ${bare}`;
  }
  const candidate = host.toLowerCase();
  const validCandidate = validHostname(candidate, false);
  for (const name of node.info.dnsNames) {
    if (validCandidate && validHostname(name, true)) {
      if (matchHostnames(name, candidate)) return undefined;
    } else if (name.length > 0 && name !== '.' && name.toLowerCase() === candidate) {
      return undefined;
    }
  }
  if (node.san === undefined && matchHostnames(node.info.subjectCN, host)) {
    return 'x509: certificate relies on legacy Common Name field, use SANs instead';
  }
  if (node.info.dnsNames.length === 0) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${node.info.dnsNames.join(', ')}, not ${host}`;
}

/**
 * Verifies `leaf` up to one of `anchors`, through any of `intermediates`, at `now`:
 * signatures, validity periods, CA rights, path lengths and (Go's default) serverAuth
 * extended key usage; no name check unless `dnsName` is given. A leaf that is itself
 * one of the anchors verifies on its own, as in Go.
 */
export async function verifyChain(
  leaf: x509.X509Certificate,
  intermediates: readonly x509.X509Certificate[],
  anchors: readonly x509.X509Certificate[],
  now: Date,
  options: VerifyChainOptions = {},
): Promise<ChainVerification> {
  const leafNode = toNode(leaf);
  const leafProblem = isValid(leafNode, 'leaf', [], now);
  if (leafProblem !== undefined) return { ok: false, ...leafProblem };
  if (options.dnsName !== undefined && options.dnsName.length > 0) {
    const problem = hostnameProblem(leafNode, options.dnsName);
    if (problem !== undefined) return { ok: false, kind: 'hostname', reason: problem };
  }

  const roots = toPool(anchors);
  let candidates: Node[][];
  if (roots.some((r) => r.raw.equals(leafNode.raw))) {
    candidates = [[leafNode]];
  } else {
    const state: BuildState = { roots, intermediates: toPool(intermediates), now, signatureChecks: 0 };
    const built = await buildChains(leafNode, [leafNode], state);
    if (built.error !== undefined) return { ok: false, ...built.error };
    candidates = built.chains;
  }

  const certs = candidates.filter((c) => chainAllowsUsage(c, OID_SERVER_AUTH)).map((c) => c.map((n) => n.cert));
  const [chain] = certs;
  if (chain === undefined) {
    return { ok: false, kind: 'incompatible-usage', reason: 'x509: certificate specifies an incompatible key usage' };
  }
  return { ok: true, chain, chains: certs };
}

/**
 * linkerd's `Crt.Verify` wording of a failure: Go's reason, and for expiry errors the
 * current time and the leaf's own window appended (even when the expired certificate
 * is the anchor, as in linkerd).
 */
export function describeChainFailure(failure: ChainFailure, leaf: x509.X509Certificate, now: Date): string {
  if (failure.kind !== 'expired') return failure.reason;
  return `${failure.reason} - Current Time : ${formatGoTime(now)} - Invalid before ${formatGoTime(leaf.notBefore)} - Invalid After ${formatGoTime(leaf.notAfter)}`;
}
