import type { Pod } from 'kubernetes-types/core/v1.js';
import type { CheckContext } from '../../../core/check/context.js';
import { dataPlanePods } from '../../../core/check/facts.js';
import { fail, pass, type CheckDefinition, type CheckOutcome } from '../../../core/check/types.js';
import { proxyContainer } from '../../../core/mesh/proxyContainer.js';
import { withMetricsApi } from './facts.js';

/*
 * The `linkerd-viz-data-plane` category (`--proxy`); `data plane proxy metrics are present in
 * Prometheus` asks the metrics API (gRPC ListPods) which meshed pods Prometheus has seen.
 */

const CATEGORY = 'linkerd-viz-data-plane';
const AUTHORIZATION_POLICIES = {
  group: 'policy.linkerd.io',
  version: 'v1alpha1',
  plural: 'authorizationpolicies',
  kind: 'AuthorizationPolicy',
  namespaced: true,
};
const DEFAULT_POLICY_ENV = 'LINKERD2_PROXY_INBOUND_DEFAULT_POLICY';

const deniesByDefault = (pod: Pod) => proxyContainer(pod)?.env?.some((e) => e.name === DEFAULT_POLICY_ENV && e.value === 'deny') === true;

/**
 * linkerd's check for default-deny pods Prometheus cannot scrape: a namespace holding the
 * `prometheus-scrape` policy of `viz allow-scrapes` is fine; elsewhere every pod whose proxy
 * denies by default is listed.
 */
async function prometheusAuthorized(ctx: CheckContext): Promise<CheckOutcome> {
  const one = ctx.options.dataPlaneNamespace;
  const [pods, policies] = await Promise.all([dataPlanePods(ctx), ctx.list(AUTHORIZATION_POLICIES, { namespace: one })]);
  const allowed = new Set(policies.filter((p) => p.metadata?.name === 'prometheus-scrape').map((p) => p.metadata?.namespace));
  const denied = pods.filter((p) => !allowed.has(p.metadata?.namespace) && deniesByDefault(p));
  if (denied.length === 0) return pass();
  const names = denied.map((p) => `\t* ${one ? '' : `${p.metadata?.namespace ?? ''}/`}${p.metadata?.name ?? ''}`);
  return fail(
    [
      'prometheus may not be authorized to scrape the following pods:',
      ...names,
      '    consider running `linkerd viz allow-scrapes` to authorize prometheus scrapes',
    ].join('\n'),
  );
}

/**
 * linkerd's data-plane reporting check: the pods of this control plane (in `-n`, or everywhere)
 * that the metrics API lists as not `added` (no metrics in Prometheus).
 */
async function metricsInPrometheus(ctx: CheckContext): Promise<CheckOutcome> {
  const ns = ctx.options.dataPlaneNamespace;
  const { pods } = await withMetricsApi(ctx, (api) => api.call('ListPods', ns ? { selector: { resource: { namespace: ns, type: '', name: '' } } } : {}));
  const missing = pods.filter((p) => p.controllerNamespace === ctx.options.controlPlaneNamespace && !p.added).map((p) => p.name);
  return missing.length > 0 ? fail(`Data plane metrics not found for ${missing.join(', ')}.`) : pass();
}

export const VIZ_DATA_PLANE_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D5101',
    category: CATEGORY,
    description: 'data plane namespace exists',
    severity: 'fatal',
    hintAnchor: 'l5d-data-plane-exists',
    retryable: false,
    async run(ctx) {
      const ns = ctx.options.dataPlaneNamespace;
      // Checking every namespace, there is none to look for.
      if (!ns) return pass();
      return (await ctx.find('namespaces', ns)) ? pass() : fail(`The "${ns}" namespace does not exist`);
    },
  },
  {
    id: 'L5D5102',
    category: CATEGORY,
    description: 'prometheus is authorized to scrape data plane pods',
    severity: 'warning',
    hintAnchor: 'l5d-viz-data-plane-prom-authz',
    retryable: false,
    run: prometheusAuthorized,
  },
  {
    id: 'L5D5103',
    category: CATEGORY,
    description: 'data plane proxy metrics are present in Prometheus',
    severity: 'warning',
    hintAnchor: 'l5d-data-plane-prom',
    retryable: true,
    run: metricsInPrometheus,
  },
];
