import type { Pod, Secret } from 'kubernetes-types/core/v1.js';
import type { CheckContext } from '../../../core/check/context.js';
import { credentialsOf, decodeBundle, notFound, type Cert } from '../../../core/check/facts.js';
import { certAndAnchorsExpiringSoon, certAndAnchorsOutcome } from '../../../core/check/checks/certificates.js';
import { checkPodsRunning, proxiesMatchCli, proxiesUpToDate, staleTrustBundles } from '../../../core/check/checks/dataPlane.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome, type TerminalState } from '../../../core/check/types.js';
import { proxyContainer } from '../../../core/mesh/proxyContainer.js';
import { CONTROL_PLANE_NS_LABEL } from '../../../core/mesh/names.js';
import { externalPrometheus, metricsApiPodName, missingDeployment, vizNamespace, vizNamespaceObject, vizPods, withMetricsApi } from './facts.js';
import { CHECK_STATUS_OK } from '../metricsApi/proto.js';
import { Channels, fetchLatestVersions } from '../../../core/check/latestVersions.js';

/*
 * The `linkerd-viz` category (linkerd's viz/pkg/healthcheck), in the real order, with its words.
 * `viz extension self-check` asks the metrics API (gRPC SelfCheck) through the viz commands' client.
 */

const CATEGORY = 'linkerd-viz';
const ALL_TERMINAL: TerminalState[] = ['unschedulable', 'crash-loop', 'image-pull', 'pod-failed'];

export const TAP_APISERVICE = 'v1alpha1.tap.linkerd.io';
const TAP_SECRET = 'tap-k8s-tls';
const TAP_LEGACY_SECRET = 'linkerd-tap-tls';

/** linkerd's checkResources: `missing <Kinds>: a, b` for the expected names absent from `objects`. */
function missing(kinds: string, objects: ReadonlyArray<{ metadata?: { name?: string } }>, expected: string[]): CheckOutcome {
  const names = new Set(objects.map((o) => o.metadata?.name));
  const absent = expected.filter((n) => !names.has(n)).sort();
  return absent.length > 0 ? fail(`missing ${kinds}: ${absent.join(', ')}`) : pass();
}

const rbacNames = (ns: string, last: string) => [`linkerd-${ns}-tap`, `linkerd-${ns}-metrics-api`, `linkerd-${ns}-${last}`, 'linkerd-tap-injector'];

function secretText(secret: Secret, key: string): string | undefined {
  const b64 = secret.data?.[key];
  return b64 === undefined ? secret.stringData?.[key] : Buffer.from(b64, 'base64').toString('utf8');
}

/** tap's serving certificate: Secret `tap-k8s-tls` (`tls.crt`/`tls.key`), or the legacy `linkerd-tap-tls` (`crt.pem`/`key.pem`). */
async function tapCredentials(ctx: CheckContext): Promise<{ leaf: Cert; chain: Cert[] }> {
  const ns = await vizNamespace(ctx);
  const current = await ctx.find('secrets', TAP_SECRET, ns);
  const [secret, name, crtKey, keyKey] = current
    ? [current, TAP_SECRET, 'tls.crt', 'tls.key']
    : [await ctx.find('secrets', TAP_LEGACY_SECRET, ns), TAP_LEGACY_SECRET, 'crt.pem', 'key.pem'];
  if (!secret) throw notFound('secrets', TAP_LEGACY_SECRET);
  const crt = secretText(secret, crtKey);
  if (crt === undefined) throw new Error(`key ${crtKey} needs to exist in secret ${name}`);
  const key = secretText(secret, keyKey);
  if (key === undefined) throw new Error(`key ${keyKey} needs to exist in secret ${name}`);
  return credentialsOf(crt, key);
}

async function tapApiService(ctx: CheckContext) {
  const service = await ctx.find('apiservices', TAP_APISERVICE);
  if (!service) throw notFound('apiservices.apiregistration.k8s.io', TAP_APISERVICE);
  return service;
}

/** linkerd's CheckCertAndAnchors for tap's certificate against the APIService's caBundle. */
async function tapCertValid(ctx: CheckContext): Promise<CheckOutcome> {
  const service = await tapApiService(ctx);
  const anchors = decodeBundle(Buffer.from(service.spec?.caBundle ?? '', 'base64').toString('utf8'));
  const cert = await tapCredentials(ctx);
  return certAndAnchorsOutcome(ctx, anchors, cert, `tap.${await vizNamespace(ctx)}.svc`);
}

/** linkerd's CheckCertAndAnchorsExpiringSoon. */
async function tapCertNotExpiring(ctx: CheckContext): Promise<CheckOutcome> {
  return certAndAnchorsExpiringSoon(ctx, await tapCredentials(ctx));
}

/** linkerd's CheckAPIService: the `Available` condition, `<Reason>: <Message>` when it is not True. */
async function tapApiRunning(ctx: CheckContext): Promise<CheckOutcome> {
  const service = await tapApiService(ctx);
  const available = service.status?.conditions?.find((c) => c.type === 'Available');
  if (!available) return fail(`${TAP_APISERVICE} service not available`);
  return available.status === 'True' ? pass() : fail(`${available.reason ?? ''}: ${available.message ?? ''}`);
}

/** linkerd's CheckIfDataPlanePodsExist: every pod of the namespace has a proxy. */
function podsInjected(pods: readonly Pod[]): CheckOutcome {
  const bare = pods.find((p) => !proxyContainer(p));
  return bare ? fail(`could not find proxy container for ${bare.metadata?.name ?? ''} pod`) : pass();
}

/** What the metrics-API client needs before it can port-forward: a Running pod of `metrics-api`. */
async function metricsApiPod(ctx: CheckContext): Promise<CheckOutcome> {
  if (ctx.options.apiAddr) return pass();
  await metricsApiPodName(ctx);
  return pass();
}

/** linkerd's viz self-check: every non-OK result's message, or `No results returned`. */
async function selfCheck(ctx: CheckContext): Promise<CheckOutcome> {
  const { results } = await withMetricsApi(ctx, (api) => api.call('SelfCheck', {}));
  if (results.length === 0) return fail('No results returned');
  const errors = results.filter((r) => r.Status !== CHECK_STATUS_OK).map((r) => r.FriendlyMessageToUser);
  return errors.length > 0 ? fail(errors.join('\n    ')) : pass();
}

async function prometheusInstalled(ctx: CheckContext): Promise<CheckOutcome> {
  if (await externalPrometheus(ctx)) return skip('prometheus is external');
  const ns = await vizNamespace(ctx);
  const name = `linkerd-${ns}-prometheus`;
  for (const outcome of [
    missing('ClusterRoles', await ctx.list('clusterroles'), [name]),
    missing('ClusterRoleBindings', await ctx.list('clusterrolebindings'), [name]),
    missing('ConfigMaps', await ctx.list('configmaps', { namespace: ns }), ['prometheus-config']),
  ]) {
    if (outcome.kind === 'fail') return outcome;
  }
  const absent = missingDeployment(await vizPods(ctx), ['prometheus']);
  return absent ? fail(absent) : pass();
}

/**
 * The latest versions as the real viz check gets them: its own versioncheck request, as install
 * `unknown`, whose failure is this check's error (viz has no `can determine the latest version`).
 * `--expected-version` of `linkerd check` stands in for it, once per run.
 */
function vizLatestVersions(ctx: CheckContext): Promise<Channels> {
  return ctx.shared('viz-latest-versions', async () => {
    const expected = ctx.options.expectedVersion;
    if (expected) return Channels.of(expected);
    return fetchLatestVersions({ ...ctx.options.versionCheck, cliVersion: ctx.options.cliVersion, uuid: 'unknown' });
  });
}

/** The meshed pods of the viz namespace: the extension's proxies. */
const vizProxies = async (ctx: CheckContext) => ctx.list('pods', { namespace: await vizNamespace(ctx), labelSelector: CONTROL_PLANE_NS_LABEL });

const check = (
  id: string,
  description: string,
  hintAnchor: string,
  severity: CheckDefinition['severity'],
  run: CheckDefinition['run'],
  extra: Partial<CheckDefinition> = {},
): CheckDefinition => ({ id, category: CATEGORY, description, severity, hintAnchor, retryable: false, run, ...extra });

export const VIZ_CHECKS: CheckDefinition[] = [
  check('L5D5001', 'linkerd-viz Namespace exists', 'l5d-viz-ns-exists', 'fatal', async (ctx) => (await vizNamespaceObject(ctx), pass())),
  check('L5D5002', 'can initialize the client', 'l5d-viz-existence-client', 'fatal', metricsApiPod, { retryable: true }),
  check('L5D5003', 'linkerd-viz ClusterRoles exist', 'l5d-viz-cr-exists', 'fatal', async (ctx) =>
    missing('ClusterRoles', await ctx.list('clusterroles'), rbacNames(await vizNamespace(ctx), 'tap-admin')),
  ),
  check('L5D5004', 'linkerd-viz ClusterRoleBindings exist', 'l5d-viz-crb-exists', 'fatal', async (ctx) =>
    missing('ClusterRoleBindings', await ctx.list('clusterrolebindings'), rbacNames(await vizNamespace(ctx), 'tap-auth-delegator')),
  ),
  check('L5D5005', 'tap API server has valid cert', 'l5d-tap-cert-valid', 'fatal', tapCertValid),
  check('L5D5006', 'tap API server cert is valid for at least 60 days', 'l5d-tap-cert-not-expiring-soon', 'warning', tapCertNotExpiring),
  check('L5D5007', 'tap API service is running', 'l5d-tap-api', 'warning', tapApiRunning, { retryable: true }),
  check('L5D5008', 'linkerd-viz pods are injected', 'l5d-viz-pods-injection', 'warning', async (ctx) => podsInjected(await vizPods(ctx))),
  check(
    'L5D5009',
    'viz extension pods are running',
    'l5d-viz-pods-running',
    'warning',
    async (ctx) => {
      const pods = await ctx.list('pods', { namespace: await vizNamespace(ctx), labelSelector: 'linkerd.io/extension=viz' });
      const absent = missingDeployment(pods, ['web', 'tap', 'metrics-api', 'tap-injector']);
      return absent ? fail(absent) : checkPodsRunning(pods, undefined);
    },
    { retryable: true, surfaceErrorOnRetry: true, failFastOn: ALL_TERMINAL },
  ),
  check('L5D5010', 'viz extension proxies are healthy', 'l5d-viz-proxy-healthy', 'warning', async (ctx) => {
    const ns = await vizNamespace(ctx);
    const running = checkPodsRunning(await vizProxies(ctx), ns);
    return running.kind === 'pass' ? staleTrustBundles(ctx, ns) : running;
  }),
  check('L5D5011', 'viz extension proxies are up-to-date', 'l5d-viz-proxy-cp-version', 'warning', async (ctx) =>
    proxiesUpToDate(ctx, await vizProxies(ctx), await vizLatestVersions(ctx)),
  ),
  check('L5D5012', 'viz extension proxies and cli versions match', 'l5d-viz-proxy-cli-version', 'warning', async (ctx) =>
    proxiesMatchCli(ctx, await vizProxies(ctx)),
  ),
  check('L5D5013', 'prometheus is installed and configured correctly', 'l5d-viz-prometheus', 'warning', prometheusInstalled),
  check('L5D5014', 'viz extension self-check', 'l5d-viz-metrics-api', 'fatal', selfCheck, { retryable: true }),
];
