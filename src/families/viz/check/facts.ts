import type { Namespace, Pod } from 'kubernetes-types/core/v1.js';
import type { CheckContext } from '../../../core/check/context.js';
import { notFound } from '../../../core/check/facts.js';
import { EXTENSION_LABEL } from '../../../core/mesh/names.js';
import { podStatus } from '../../../core/check/pods.js';
import { METRICS_API_DEPLOYMENT, metricsApiAt, metricsApiOfPod, type MetricsApi } from '../metricsApi/client.js';

/*
 * What the viz checks share, read through the run's cluster snapshot: where viz is installed
 * (the namespace labelled `linkerd.io/extension: viz`, or `--viz-namespace`) and its pods.
 */

export { EXTENSION_LABEL };
export const EXTERNAL_PROMETHEUS = 'viz.linkerd.io/external-prometheus';

/** The options `linkerd viz check` adds; `linkerd check` runs viz without them. */
export interface VizCheckOptions {
  /** `--viz-namespace`: where viz is, instead of finding it by label. */
  vizNamespace?: string;
}

declare module '../../../core/check/family.js' {
  interface CheckFamilyOptions {
    viz?: VizCheckOptions;
  }
}

export const NOT_FOUND = 'namespace with label "linkerd.io/extension: viz" not found';

/** The viz namespace object, as linkerd's GetNamespaceWithExtensionLabel finds it. */
export function vizNamespaceObject(ctx: CheckContext): Promise<Namespace> {
  return ctx.fact('viz-namespace', async () => {
    const named = ctx.options.families?.viz?.vizNamespace;
    if (named) {
      const ns = await ctx.find('namespaces', named);
      if (!ns) throw notFound('namespaces', named);
      if (ns.metadata?.labels?.[EXTENSION_LABEL] !== 'viz') throw new Error('This is not a linkerd-viz namespace');
      return ns;
    }
    const labelled = await ctx.list('namespaces', { labelSelector: EXTENSION_LABEL });
    const ns = labelled.find((n) => n.metadata?.labels?.[EXTENSION_LABEL] === 'viz');
    if (!ns) throw new Error(NOT_FOUND);
    return ns;
  });
}

export async function vizNamespace(ctx: CheckContext): Promise<string> {
  return (await vizNamespaceObject(ctx)).metadata?.name ?? '';
}

/** The `prometheusUrl` viz was installed with, recorded on its namespace; empty when on-cluster. */
export async function externalPrometheus(ctx: CheckContext): Promise<string> {
  return (await vizNamespaceObject(ctx)).metadata?.annotations?.[EXTERNAL_PROMETHEUS] ?? '';
}

export async function vizPods(ctx: CheckContext): Promise<Pod[]> {
  return ctx.list('pods', { namespace: await vizNamespace(ctx) });
}

/** linkerd's CheckForPods: the deployment of each pod is its name without the two generated parts. */
export function missingDeployment(pods: readonly Pod[], deployments: readonly string[]): string | undefined {
  const present = new Set(pods.map((p) => (p.metadata?.name ?? '').split('-').slice(0, -2).join('-')));
  const absent = deployments.find((d) => !present.has(d));
  return absent === undefined ? undefined : `Could not find pods for deployment ${absent}`;
}

/**
 * The Running pod of the `metrics-api` Deployment (a pod whose ReplicaSet the Deployment owns),
 * as linkerd picks the one to port-forward to.
 */
export async function metricsApiPodName(ctx: CheckContext): Promise<string> {
  const ns = await vizNamespace(ctx);
  const [pods, replicaSets] = await Promise.all([ctx.list('pods', { namespace: ns }), ctx.list('replicasets', { namespace: ns })]);
  const ofMetricsApi = new Set(
    replicaSets
      .filter((rs) => rs.metadata?.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === METRICS_API_DEPLOYMENT))
      .map((rs) => rs.metadata?.name),
  );
  const running = pods.find((p) => podStatus(p) === 'Running' && p.metadata?.ownerReferences?.some((o) => o.kind === 'ReplicaSet' && ofMetricsApi.has(o.name)));
  if (!running?.metadata?.name) throw new Error(`no running pods found for ${METRICS_API_DEPLOYMENT}`);
  return running.metadata.name;
}

/** One metrics-API session for a check: opened (port-forward or `--api-addr`), used, closed. */
export async function withMetricsApi<T>(ctx: CheckContext, use: (api: MetricsApi) => Promise<T>): Promise<T> {
  const addr = ctx.options.apiAddr;
  const api = addr ? metricsApiAt(addr) : await metricsApiOfPod(await ctx.client(), await vizNamespace(ctx), await metricsApiPodName(ctx));
  try {
    return await use(api);
  } finally {
    api.close();
  }
}
