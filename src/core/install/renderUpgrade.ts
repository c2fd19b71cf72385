import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { isUserError, UserError } from '../errors.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import type { SourceReaders } from '../manifest/sources.js';
import { defaultValues, deprecationWarnings, validateInstallValues, type Values } from '../values/index.js';
import type { InstallCluster } from './cluster.js';
import { renderCrdObjects } from '../mesh/crdObjects.js';
import { validateIssuerValues } from './identityCredentials.js';
import type { UpgradeSource } from './upgradeSource.js';
import { issuerUntrustedMessage, podsRejectingIssuer } from './issuerSafety.js';
import { renderControlPlaneFor } from '../mesh/renderControlPlaneFor.js';
import { HELM_INSTALLED, OVERRIDES_SECRET, loadStoredValues } from '../mesh/loadStoredValues.js';
import { composeInputs, credentialSources, flagSet, type ValueInputs } from './valueInputs.js';

/*
 * `linkerd upgrade` (linkerd's cli/cmd/upgrade.go): the values `install` stored in Secret linkerd-config-overrides,
 * laid over this release's chart defaults, plus whatever flags, `-f` and `--set*` say now; then
 * the same render as install. Certificates stay those stored unless new files are given.
 */

/** What `linkerd upgrade` was asked to do, once flags are parsed. */
export interface UpgradeRequest extends ValueInputs {
  /** The control-plane namespace (`-L`). */
  namespace: string;
  /** The cluster; not contacted with `fromManifests` (unless `crds`). */
  cluster: KubeSelection;
  crds: boolean;
  /** `--from-manifests`: a file, URL or `-` holding an earlier `linkerd install`'s output. */
  fromManifests?: string;
  /** `--force`: skip the check that every meshed proxy trusts the issuer. */
  force: boolean;
  /** The clock; pinned by tests. */
  now?: Date;
  /** Standard input for `--from-manifests -` (tests). */
  readers?: SourceReaders;
}

export interface UpgradeResult {
  objects: RenderedObject[];
  /** Lines for stderr (deprecations, the trust-anchor rotation warning). */
  notes: string[];
}

const TROUBLESHOOTING = 'For troubleshooting help, visit: https://linkerd.io/upgrade/#troubleshooting';

export const CRDS_FIRST = 'Linkerd CRDs must be installed first. Run linkerd upgrade with the --crds flag:';

export const EXTERNAL_ISSUER = 'cannot update issuer certificates if you are using external cert management solution';

export const ROTATION_WARNING = [
  '',
  '‼ Rotating the trust anchors will affect existing proxies',
  'See https://linkerd.io/2/tasks/rotating_identity_certificates/ for more information',
  '',
];

/** The real CLI prints each upgrade failure as it is, without `Error: `. */
function verbatim(e: unknown): never {
  if (isUserError(e) && e.verbatim) throw e;
  if (isUserError(e)) throw UserError.verbatim(`${e.message}\n`, { cause: e });
  throw e;
}

async function connect(sel: KubeSelection): Promise<InstallCluster> {
  const [{ connectKube }, { InstallCluster }] = await Promise.all([import('../kube/kubeClient.js'), import('./cluster.js')]);
  try {
    return InstallCluster.of(await connectKube(sel));
  } catch (e) {
    if (isUserError(e)) throw new UserError(`failed to create a kubernetes client: ${e.message}`, { cause: e });
    throw e;
  }
}

/** `upgrade --crds`: the CRD chart, Gateway API CRDs decided against what the cluster has. */
async function upgradeCrds(req: UpgradeRequest): Promise<UpgradeResult> {
  try {
    const cluster = await connect(req.cluster);
    try {
      const composed = await composeInputs(req, defaultValues(), false);
      return { objects: await renderCrdObjects(req.namespace, composed, await cluster.gatewayApi()), notes: [] };
    } finally {
      cluster.close();
    }
  } catch (e) {
    if (!isUserError(e)) throw e;
    throw UserError.verbatim(`× Could not render upgrade configuration: ${e.message}\n${TROUBLESHOOTING}\n\n`, { cause: e });
  }
}

/** Values the upgrade renders: stored overrides over chart defaults, then this run's flags and files. */
async function upgradeValues(req: UpgradeRequest, state: UpgradeSource): Promise<{ values: Values; notes: string[] }> {
  let secret;
  try {
    secret = await state.overridesSecret(req.namespace);
  } catch (e) {
    throw new UserError(`failed to load stored values: ${(e as Error).message}`, { cause: e });
  }
  if (!secret) throw new UserError(HELM_INSTALLED);
  let stored;
  try {
    stored = loadStoredValues(secret);
  } catch (e) {
    throw new UserError(`failed to load stored values: ${(e as Error).message}`, { cause: e });
  }
  const { values } = await composeInputs(req, stored.values);
  const notes =
    stored.unknownKeys.length > 0 ? [`Warning: ignoring keys of secret/${OVERRIDES_SECRET} this release does not know: ${stored.unknownKeys.join(', ')}`] : [];
  return { values, notes };
}

async function upgradeControlPlane(req: UpgradeRequest, state: UpgradeSource): Promise<UpgradeResult> {
  const now = req.now ?? new Date();
  const { values, notes } = await upgradeValues(req, state);
  const linkerdScheme = values.identity.issuer.scheme === 'linkerd.io/tls';
  if (!linkerdScheme && (flagSet(req.flags, 'identity-issuer-certificate-file') || flagSet(req.flags, 'identity-issuer-key-file'))) {
    throw new UserError(EXTERNAL_ISSUER);
  }
  validateInstallValues(values);
  if (linkerdScheme) await validateIssuerValues(values, credentialSources(req.flags), now);
  if (values.enableEndpointSlices) await state.assertEndpointSlices();
  if (!req.force && linkerdScheme) {
    const rejecting = await podsRejectingIssuer(await state.meshedPods(), req.namespace, values.identity.issuer.tls.crtPEM, now);
    if (rejecting.length > 0) throw new UserError(issuerUntrustedMessage(rejecting));
  }
  // proxy-init must run as root on Docker nodes; values that already say so need no check.
  if (!values.proxyInit.runAsRoot) await state.assertNoDockerNodes();

  // Like the real CLI, every upgrade generates new webhook serving certificates; the heartbeat
  // keeps its installed schedule (a new one each upgrade would be a diff in every GitOps render).
  const heartbeat = await state.heartbeat(req.namespace);
  const objects = await renderControlPlaneFor({ values, namespace: req.namespace, now, installed: { webhookSecrets: {}, heartbeat } });
  const rotation = flagSet(req.flags, 'identity-trust-anchors-file') ? ROTATION_WARNING : [];
  return { objects, notes: [...notes, ...rotation] };
}

/** The cluster's Linkerd CRDs must be current before the control plane is upgraded. */
async function assertCrds(cluster: InstallCluster): Promise<void> {
  let problems: string[];
  try {
    problems = await cluster.crdProblems();
  } catch (e) {
    throw new UserError(`${CRDS_FIRST}\n${(e as Error).message}`, { cause: e });
  }
  if (problems.length > 0) throw new UserError(`${CRDS_FIRST}\n${problems.join(', ')}`);
}

/**
 * Runs `linkerd upgrade` (with `--crds`, the CRDs). Failures carry the real CLI's text and are
 * printed as they are; only a kubeconfig that cannot be loaded is an ordinary `Error: `.
 */
export async function renderUpgrade(req: UpgradeRequest): Promise<UpgradeResult> {
  const warnings = deprecationWarnings(req.flags);
  const withWarnings = (r: UpgradeResult) => ({ ...r, notes: [...warnings, ...r.notes] });
  if (req.crds) return withWarnings(await upgradeCrds(req));
  if (req.fromManifests !== undefined) {
    const { ManifestState } = await import('./upgradeSource.js');
    const state = await ManifestState.read(req.fromManifests, req.readers).catch(verbatim);
    return withWarnings(await upgradeControlPlane(req, state).catch(verbatim));
  }
  const cluster = await connect(req.cluster);
  try {
    await assertCrds(cluster);
    return withWarnings(await upgradeControlPlane(req, cluster));
  } catch (e) {
    return verbatim(e);
  } finally {
    cluster.close();
  }
}
