import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { KubeError } from '../kube/kubeError.js';
import { linkerdConfigValuesOrEmpty } from '../kube/linkerdConfig.js';
import { certificateInfo, decodeCertificates, decodePrivateKey, keyMatchesCertificate, type CertificateInfo, type x509 } from '../pki/index.js';
import { parseClusterValues, type Values } from '../values/index.js';
import type { CheckContext } from './context.js';
import { coreOptions } from './coreOptions.js';
import { CONTROL_PLANE_COMPONENT_LABEL, CONTROL_PLANE_NS_LABEL, EXTENSION_LABEL, ISSUER_SECRET, LINKERD_CONFIG } from '../mesh/names.js';

/*
 * Facts several checks share, derived from one view of the cluster and computed once per
 * view. A fact that cannot be established throws; the check that needed it fails with
 * that message (the real CLI's checks fail the same way when an earlier one did).
 */

/** A 404 as client-go words it (`configmaps "linkerd-config" not found`). */
export function notFound(resource: string, name: string): KubeError {
  return new KubeError('notfound', `${resource} "${name}" not found`, { status: 404, reason: 'NotFound' });
}

export function linkerdConfigMap(ctx: CheckContext): Promise<ConfigMap | undefined> {
  return ctx.fact('linkerd-config', () => ctx.find('configmaps', LINKERD_CONFIG, ctx.options.controlPlaneNamespace));
}

/**
 * linkerd-config's values as stored (bounded and parsed by kube's one reader; no values read as
 * none), or undefined when the ConfigMap does not exist. Shared by the checks that read them.
 */
export function linkerdConfigValues(ctx: CheckContext): Promise<Record<string, unknown> | undefined> {
  return ctx.fact('linkerd-config-values', async () => {
    const cm = await linkerdConfigMap(ctx);
    return cm === undefined ? undefined : linkerdConfigValuesOrEmpty(cm);
  });
}

/** The control plane's values from linkerd-config, read leniently (unknown keys dropped, defaults filled in). */
export function linkerdValues(ctx: CheckContext): Promise<Values> {
  return ctx.fact('linkerd-values', async () => {
    const raw = await linkerdConfigValues(ctx);
    if (!raw) throw notFound('configmaps', LINKERD_CONFIG);
    return parseClusterValues(raw, `${LINKERD_CONFIG} values`).values;
  });
}

/** CNI checks run when the control plane says CNI is enabled (or, for --pre, when the user says so). */
export async function cniEnabled(ctx: CheckContext): Promise<boolean> {
  if (ctx.options.mode === 'pre') return coreOptions(ctx.options).cniEnabled;
  try {
    return (await linkerdValues(ctx)).cniEnabled;
  } catch {
    return false;
  }
}

/** Pods of the control plane deployments (label `linkerd.io/control-plane-component`). */
export function controlPlanePods(ctx: CheckContext): Promise<Pod[]> {
  return ctx.list('pods', { namespace: ctx.options.controlPlaneNamespace, labelSelector: CONTROL_PLANE_COMPONENT_LABEL });
}

/** Meshed pods of this control plane, in the `--namespace` given or everywhere. */
export function dataPlanePods(ctx: CheckContext): Promise<Pod[]> {
  return ctx.list('pods', {
    namespace: ctx.options.dataPlaneNamespace,
    labelSelector: `${CONTROL_PLANE_NS_LABEL}=${ctx.options.controlPlaneNamespace}`,
  });
}

/** A decoded certificate with the facts checks look at. */
export interface Cert {
  cert: x509.X509Certificate;
  info: CertificateInfo;
}

export function toCert(cert: x509.X509Certificate): Cert {
  return { cert, info: certificateInfo(cert) };
}

/** Decode a PEM bundle, throwing linkerd's reason. */
export function decodeBundle(pem: string): Cert[] {
  const decoded = decodeCertificates(pem);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.certificates.map(toCert);
}

/** linkerd's `tls.ValidateAndCreateCreds`: key and certificate decode, and belong together. */
export function credentialsOf(crtPem: string, keyPem: string): { leaf: Cert; chain: Cert[] } {
  const key = decodePrivateKey(keyPem);
  if (!key.ok) throw new Error(key.reason);
  const [leaf, ...chain] = decodeBundle(crtPem);
  if (leaf === undefined) throw new Error('No certificates found');
  if (!keyMatchesCertificate(key.key.keyObject, leaf.cert)) throw new Error('tls: Public and private key do not match');
  return { leaf, chain };
}

const keyMissing = (key: string, what: string, external: boolean) =>
  new Error(`key ${key} containing the ${what} needs to exist in secret ${ISSUER_SECRET} if --identity-external-issuer=${external}`);

function secretValue(secret: Secret, key: string): string | undefined {
  const b64 = secret.data?.[key];
  if (b64 !== undefined) return Buffer.from(b64, 'base64').toString('utf8');
  return secret.stringData?.[key];
}

export interface IssuerMaterial {
  issuer: Cert;
  /** Certificates that followed the issuer in its PEM. */
  chain: Cert[];
  anchors: Cert[];
}

/**
 * The identity issuer and trust anchors, as "certificate config is valid" reads them: the
 * scheme from linkerd-config decides whether the Secret holds `crt.pem`/`key.pem` (anchors
 * from linkerd-config) or `tls.crt`/`tls.key`/`ca.crt` (cert-manager).
 */
export function issuerMaterial(ctx: CheckContext): Promise<IssuerMaterial> {
  return ctx.fact('issuer', async () => {
    const values = await linkerdValues(ctx);
    const ns = ctx.options.controlPlaneNamespace;
    const secret = await ctx.find('secrets', ISSUER_SECRET, ns);
    if (!secret) throw notFound('secrets', ISSUER_SECRET);
    let crt: string | undefined;
    let key: string | undefined;
    let anchorsPem: string | undefined;
    if (values.identity.issuer.scheme === 'kubernetes.io/tls') {
      anchorsPem = secretValue(secret, 'ca.crt');
      if (anchorsPem === undefined) throw keyMissing('ca.crt', 'trust anchors', true);
      crt = secretValue(secret, 'tls.crt');
      if (crt === undefined) throw keyMissing('tls.crt', 'issuer certificate', true);
      key = secretValue(secret, 'tls.key');
      if (key === undefined) throw keyMissing('tls.key', 'issuer key', true);
    } else {
      anchorsPem = values.identityTrustAnchorsPEM;
      crt = secretValue(secret, 'crt.pem');
      if (crt === undefined) throw keyMissing('crt.pem', 'issuer certificate', false);
      key = secretValue(secret, 'key.pem');
      if (key === undefined) throw keyMissing('key.pem', 'issuer key', false);
    }
    const { leaf, chain } = credentialsOf(crt, key);
    const anchors = decodeBundle(anchorsPem);
    return { issuer: leaf, chain, anchors };
  });
}

/**
 * The namespaces labelled `linkerd.io/extension`, by label value: served from the run's LIST of
 * namespaces when it has one, else asked of the server with that selector, as the real CLI asks.
 */
export async function extensionNamespaces(ctx: CheckContext): Promise<Array<{ extension: string; namespace: string }>> {
  const namespaces = await ctx.list('namespaces', { labelSelector: EXTENSION_LABEL, selectOnServer: true });
  return namespaces.map((ns) => ({ extension: ns.metadata?.labels?.[EXTENSION_LABEL] ?? '', namespace: ns.metadata?.name ?? '' }));
}
