import { renderControlPlane, type RenderedObject } from '../../../templates/control-plane/index.js';
import { UserError } from '../errors.js';
import { readTextFileBounded } from '../input/boundedRead.js';
import { PEM_LIMIT, VALUES_LIMIT } from '../input/limits.js';
import { leafPem, parsePrivateKey, toSec1Pem } from '../pki/index.js';
import {
  composeValues,
  defaultValues,
  deprecationWarnings,
  overridesHave,
  parseGoDuration,
  readValuesFiles,
  validateInstallValues,
  type FlagContext,
  type SetFlag,
  type Values,
} from '../values/index.js';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../version.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import type { InstallCluster } from './cluster.js';
import { decideGatewayApi, selectGatewayCrds } from './gatewayApi.js';
import { heartbeatScheduleAt } from './heartbeatSchedule.js';
import { type CredentialSources, initializeIdentityCredentials } from './identityCredentials.js';
import { webhookCredentials } from './webhookCredentials.js';

/** What `linkerd install` was asked to do, once flags are parsed. */
export interface InstallRequest {
  /** The control-plane namespace (`-L`). */
  namespace: string;
  /** The cluster to check first; undefined with `--ignore-cluster`. */
  cluster?: KubeSelection;
  crds: boolean;
  /** Value flags the user set, in any order (applied in table order). */
  flags: readonly SetFlag[];
  valuesFiles: readonly string[];
  set: readonly string[];
  setString: readonly string[];
  setFile: readonly string[];
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
export const PSP_NOTE =
  'Warning: enablePSP renders a policy/v1beta1 PodSecurityPolicy, which Kubernetes serves only before 1.25; newer clusters reject it';

function validityMs(flag: string, value: string | undefined): number {
  const ns = parseGoDuration(value ?? DEFAULT_VALIDITY);
  if (ns <= 0n) throw new UserError(`--${flag} must be a positive duration (got ${value})`);
  return Number(ns / 1_000_000n);
}

/** `--set-file` files are values; the identity file flags hold certificates and keys. */
const readSetFile = (path: string): string => readTextFileBounded(path, VALUES_LIMIT);
const readPemFile = (path: string): string => readTextFileBounded(path, PEM_LIMIT);

/**
 * The issuer file flags store only the leaf certificate and an `EC PRIVATE KEY`, like linkerd.
 * Text that does not parse is kept as is, so validation reports it with the file's name.
 */
const FLAG_CONTEXT: FlagContext = {
  readFile: readPemFile,
  issuerCertificatePEM: (pem) => {
    try {
      return leafPem(pem);
    } catch {
      return pem;
    }
  },
  issuerKeyPEM: (pem) => {
    try {
      const key = parsePrivateKey(pem, 'issuer key');
      return key.type === 'ec' ? toSec1Pem(key.keyObject) : pem;
    } catch {
      return pem;
    }
  },
};

const FILE_FLAGS: Record<keyof CredentialSources, string> = {
  trustAnchors: 'identity-trust-anchors-file',
  issuerCertificate: 'identity-issuer-certificate-file',
  issuerKey: 'identity-issuer-key-file',
};

/** `--identity-issuer-certificate-file x.pem`, for each identity file flag the user set. */
function credentialSources(flags: readonly SetFlag[]): CredentialSources {
  const out: CredentialSources = {};
  for (const [part, name] of Object.entries(FILE_FLAGS) as [keyof CredentialSources, string][]) {
    const flag = flags.find((f) => f.name === name);
    if (flag && String(flag.value) !== '') out[part] = `--${name} ${String(flag.value)}`;
  }
  return out;
}

async function compose(req: InstallRequest, base: Values, withFlags: boolean) {
  return composeValues({
    base,
    flags: withFlags ? req.flags : [],
    flagContext: FLAG_CONTEXT,
    valuesFiles: await readValuesFiles(req.valuesFiles),
    set: req.set,
    setString: req.setString,
    setFile: req.setFile,
    readFile: readSetFile,
  });
}

/** `linkerd install --crds`: the CRD chart, with the Gateway API decision of spec §2.9. */
async function installCrds(req: InstallRequest, cluster: InstallCluster | undefined): Promise<InstallResult> {
  await cluster?.assertNoLinkerdConfig(req.namespace);
  const { values, overrides } = await compose(req, defaultValues(), false);
  const selection = decideGatewayApi(await cluster?.gatewayApi(), {
    // The chart default (false) is not a choice: with a cluster, the default follows what is installed.
    installGatewayAPI: overridesHave(overrides, ['installGatewayAPI']) ? values.installGatewayAPI : undefined,
    enableHttpRoutes: values.enableHttpRoutes,
    enableTlsRoutes: values.enableTlsRoutes,
    enableTcpRoutes: values.enableTcpRoutes,
  });
  // The CRD schemas are large; only `--crds` loads them.
  const { renderCrds } = await import('../../../templates/crds/index.js');
  const crds = renderCrds({ namespace: req.namespace, cliVersion: LINKERD_VERSION, chartVersion: CRDS_CHART_VERSION, installGatewayAPI: true });
  return {
    objects: selectGatewayCrds(crds, selection) as unknown as RenderedObject[],
    notes: ['Rendering Linkerd CRDs...', 'Next, run `linkerd install | kubectl apply -f -` to install the control plane.', ''],
  };
}

/** `linkerd install`: values → credentials → validation → the control-plane objects (spec §2.1 step 3). */
async function installControlPlane(req: InstallRequest, cluster: InstallCluster | undefined): Promise<InstallResult> {
  const now = req.now ?? new Date();
  await cluster?.assertLinkerdCrds();
  const anchorValidityMs = validityMs('identity-anchor-validity', req.anchorValidity);
  const issuerValidityMs = validityMs('identity-issuer-validity', req.issuerValidity);
  await cluster?.assertNoLinkerdConfig(req.namespace);
  const composed = await compose(req, defaultValues(), true);
  let values = composed.values;
  if (cluster) {
    if (!(overridesHave(composed.overrides, ['proxyInit', 'runAsRoot']) && values.proxyInit.runAsRoot)) await cluster.assertNoDockerNodes();
    const ports = await cluster.apiServerPorts();
    // The cluster's ports replace the default, but a `--set proxyInit.kubeAPIServerPorts` still wins.
    if (ports && !overridesHave(composed.overrides, ['proxyInit', 'kubeAPIServerPorts'])) values.proxyInit.kubeAPIServerPorts = ports;
  }

  // Webhook keys are generated on libuv's thread pool while the identity chain is built.
  const webhooks = webhookCredentials(values, req.namespace, now);
  webhooks.catch(() => {}); // awaited below; an identity error must not leave it unhandled
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

  const objects = renderControlPlane(values, {
    namespace: req.namespace,
    cliVersion: LINKERD_VERSION,
    crdsChartVersion: `linkerd-crds-${CRDS_CHART_VERSION}`,
    webhookCredentials: await webhooks,
    heartbeatSchedule: heartbeatScheduleAt(now),
  });
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
