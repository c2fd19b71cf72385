import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { UserError } from '../errors.js';
import { positiveDurationMs } from '../parse/goDuration.js';
import { defaultValues, deprecationWarnings, overridesHave, validateInstallValues } from '../values/index.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import type { InstallCluster } from './cluster.js';
import { renderCrdObjects } from '../mesh/crdObjects.js';
import { initializeIdentityCredentials } from './identityCredentials.js';
import { renderControlPlaneFor } from '../mesh/renderControlPlaneFor.js';
import { composeInputs, credentialSources, type ValueInputs } from './valueInputs.js';
import { webhookCredentials } from '../mesh/webhookCredentials.js';

/** What `linkerd install` was asked to do, once flags are parsed. */
export interface InstallRequest extends ValueInputs {
  /** The control-plane namespace (`-L`). */
  namespace: string;
  /** The cluster to check first; undefined with `--ignore-cluster`. */
  cluster?: KubeSelection;
  crds: boolean;
  /** Go durations for generated certificates (default 8760h each). */
  anchorValidity?: string;
  issuerValidity?: string;
  /** `--identity-trust-anchor-key-out` was given: the anchor must be generated. */
  wantTrustAnchorKey?: boolean;
  /** The clock; pinned by tests. */
  now?: Date;
}

export interface InstallResult {
  objects: RenderedObject[];
  /** The generated trust anchor's key, when the chain was generated here. */
  trustAnchorKeyPem?: string;
  /** Lines for stderr (deprecations, next steps). */
  notes: string[];
}

const DEFAULT_VALIDITY = '8760h';

/** `enablePSP` renders a policy/v1beta1 PodSecurityPolicy, an API Kubernetes removed in 1.25. */
export const PSP_NOTE = 'Warning: enablePSP renders a policy/v1beta1 PodSecurityPolicy, which Kubernetes serves only before 1.25; newer clusters reject it';

function validityMs(flag: string, value: string | undefined): number {
  return positiveDurationMs(flag, value ?? DEFAULT_VALIDITY);
}

/** `linkerd install --crds`: the CRD chart, with the Gateway API decision of linkerd's renderCRDs. */
async function installCrds(req: InstallRequest, cluster: InstallCluster | undefined): Promise<InstallResult> {
  await cluster?.assertNoLinkerdConfig(req.namespace);
  const composed = await composeInputs(req, defaultValues(), false);
  return {
    objects: await renderCrdObjects(req.namespace, composed, await cluster?.gatewayApi()),
    notes: ['Rendering Linkerd CRDs...', 'Next, run `linkerd install | kubectl apply -f -` to install the control plane.', ''],
  };
}

/** `linkerd install`: values → credentials → validation → the control-plane objects, in the order of linkerd's cli/cmd/install.go. */
async function installControlPlane(req: InstallRequest, cluster: InstallCluster | undefined): Promise<InstallResult> {
  const now = req.now ?? new Date();
  await cluster?.assertLinkerdCrds();
  const anchorValidityMs = validityMs('identity-anchor-validity', req.anchorValidity);
  const issuerValidityMs = validityMs('identity-issuer-validity', req.issuerValidity);
  await cluster?.assertNoLinkerdConfig(req.namespace);
  const composed = await composeInputs(req, defaultValues());
  let values = composed.values;
  if (cluster) {
    if (!(overridesHave(composed.overrides, ['proxyInit', 'runAsRoot']) && values.proxyInit.runAsRoot)) await cluster.assertNoDockerNodes();
    const ports = await cluster.apiServerPorts();
    // The cluster's ports replace the default, but a `--set proxyInit.kubeAPIServerPorts` still wins.
    if (ports && !overridesHave(composed.overrides, ['proxyInit', 'kubeAPIServerPorts'])) values.proxyInit.kubeAPIServerPorts = ports;
  }

  // Webhook keys are generated on libuv's thread pool while the identity chain is built.
  const webhooks = webhookCredentials(values, req.namespace, now);
  webhooks.catch(() => {}); // awaited in the render; an identity error must not leave it unhandled
  const sources = credentialSources(req.flags);
  const identity = await initializeIdentityCredentials(values, {
    namespace: req.namespace,
    now,
    sources,
    anchorValidityMs,
    issuerValidityMs,
    readExternalIssuer: cluster ? () => cluster.externalIssuer(req.namespace) : undefined,
  });
  values = identity.values;
  if (req.wantTrustAnchorKey && identity.trustAnchorKeyPem === undefined) {
    throw new UserError('--identity-trust-anchor-key-out needs a generated trust anchor, but the trust anchors were supplied');
  }
  validateInstallValues(values);
  if (cluster && values.enableEndpointSlices) await cluster.assertEndpointSlices();

  const objects = await renderControlPlaneFor({ values, namespace: req.namespace, now, webhookCredentials: webhooks });
  return { objects, trustAnchorKeyPem: identity.trustAnchorKeyPem, notes: values.enablePSP ? [PSP_NOTE] : [] };
}

/** Runs `linkerd install` (with `--crds`, the CRDs); talks to the cluster unless `req.cluster` is undefined. */
export async function renderInstall(req: InstallRequest): Promise<InstallResult> {
  const warnings = deprecationWarnings(req.flags);
  let cluster: InstallCluster | undefined;
  if (req.cluster) {
    const { InstallCluster } = await import('./cluster.js');
    cluster = await InstallCluster.connect(req.cluster);
  }
  try {
    const result = req.crds ? await installCrds(req, cluster) : await installControlPlane(req, cluster);
    return { ...result, notes: [...warnings, ...result.notes] };
  } finally {
    cluster?.close();
  }
}
