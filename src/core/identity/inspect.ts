import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../errors.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import type { x509 } from '../pki/index.js';
import { parseBundle } from '../pki/parseBundle.js';
import { certificateReport, type CertificateReport } from './certificateReport.js';
import { readIdentityObjects, type IdentityObjects } from './identityObjects.js';
import { ISSUER_SECRET, LINKERD_CONFIG, TRUST_BUNDLE_KEY, TRUST_ROOTS_CONFIGMAP } from '../mesh/names.js';

export interface InspectSection {
  /** `trust anchors file ca.crt`, `ConfigMap linkerd/linkerd-identity-trust-roots`. */
  title: string;
  certificates: CertificateReport[];
}

export interface InspectReport {
  sections: InspectSection[];
  /** Inconsistencies between the places trust material lives (cluster only). */
  problems: string[];
}

async function reports(text: string, source: string, now: Date, anchors: readonly x509.X509Certificate[] | undefined): Promise<CertificateReport[]> {
  const entries = parseBundle(text, source);
  const certs = entries.map((e) => e.certificate);
  return Promise.all(
    entries.map((e, i) =>
      certificateReport(e.certificate, `${source}:${e.line}`, now, anchors ? { anchors, intermediates: certs.filter((_, j) => j !== i) } : undefined),
    ),
  );
}

/** `linkerd identity inspect FILE|-`: every certificate of a PEM text, optionally checked against a bundle. */
export async function inspectPem(opts: { text: string; source: string; anchorsText?: string; anchorsSource?: string; now?: Date }): Promise<InspectReport> {
  const now = opts.now ?? new Date();
  const anchors = opts.anchorsText === undefined ? undefined : parseBundle(opts.anchorsText, opts.anchorsSource ?? 'trust anchors').map((e) => e.certificate);
  return { sections: [{ title: opts.source, certificates: await reports(opts.text, opts.source, now, anchors) }], problems: [] };
}

const secretText = (s: Secret, key: string) => (s.data?.[key] === undefined ? undefined : Buffer.from(s.data[key] ?? '', 'base64').toString('utf8'));

/** The issuer certificate PEM of either scheme (`crt.pem`, or cert-manager's `tls.crt`). */
export function issuerCertificatePem(secret: Secret): string | undefined {
  return secretText(secret, 'crt.pem') ?? secretText(secret, 'tls.crt');
}

function bundleOf(cm: ConfigMap | undefined): string | undefined {
  return cm?.data?.[TRUST_BUNDLE_KEY];
}

/** `linkerd identity inspect --cluster`: the trust roots, the issuer and linkerd-config's copy of the anchors. */
export async function inspectCluster(opts: { selection: KubeSelection; namespace: string; now?: Date; objects?: IdentityObjects }): Promise<InspectReport> {
  const now = opts.now ?? new Date();
  const ns = opts.namespace;
  const objs = opts.objects ?? (await readIdentityObjects(opts.selection, ns, { pods: false }));
  const bundleText = bundleOf(objs.trustRoots);
  if (bundleText === undefined && objs.configAnchors === undefined) {
    throw new UserError(`no Linkerd identity found in namespace ${ns}: ConfigMaps ${TRUST_ROOTS_CONFIGMAP} and ${LINKERD_CONFIG} are missing`);
  }
  const bundleSource = `ConfigMap ${ns}/${TRUST_ROOTS_CONFIGMAP}`;
  const bundle = bundleText === undefined ? undefined : parseBundle(bundleText, bundleSource).map((e) => e.certificate);
  const sections: InspectSection[] = [];
  const problems: string[] = [];
  if (bundleText !== undefined)
    sections.push({ title: `${bundleSource} (ca-bundle.crt)`, certificates: await reports(bundleText, bundleSource, now, undefined) });
  else problems.push(`ConfigMap ${ns}/${TRUST_ROOTS_CONFIGMAP} is missing`);
  if (objs.issuer) {
    const pem = issuerCertificatePem(objs.issuer);
    const source = `Secret ${ns}/${ISSUER_SECRET}`;
    if (pem === undefined) problems.push(`${source} has neither crt.pem nor tls.crt`);
    else
      sections.push({
        title: `${source} (${objs.issuer.type === 'kubernetes.io/tls' ? 'tls.crt' : 'crt.pem'})`,
        certificates: await reports(pem, source, now, bundle),
      });
  } else {
    problems.push(`Secret ${ns}/${ISSUER_SECRET} is missing`);
  }
  if (objs.configAnchors !== undefined) {
    const source = `ConfigMap ${ns}/linkerd-config`;
    sections.push({ title: `${source} (identityTrustAnchorsPEM)`, certificates: await reports(objs.configAnchors, source, now, undefined) });
    if (bundleText !== undefined && objs.configAnchors.trim() !== bundleText.trim()) {
      problems.push(`the anchors in ${LINKERD_CONFIG} differ from ConfigMap ${TRUST_ROOTS_CONFIGMAP}: a rotation step was applied only in part`);
    }
  }
  return { sections, problems };
}
