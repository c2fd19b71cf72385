import { composeChartInputs, type ChartInputs } from '../../core/values/chart.js';
import type { KubeSelection } from '../../core/kube/kubeconfig.js';
import { VIZ_NAMESPACE, vizChart, vizCredentials, type VizObject, type VizValues } from './chart/index.js';
import { requireControlPlane } from '../../core/check/requireControlPlane.js';

/*
 * `linkerd viz install` as linkerd's viz/cmd/install.go does it: the core control plane checked
 * first (unless --skip-checks or --ignore-cluster), the values composed by the chart engine, then
 * what the command itself sets over the user's values: `-L` as linkerdNamespace,
 * LINKERD_DOCKER_REGISTRY as defaultRegistry, and cniEnabled when linkerd-config says so.
 */

export const DEFAULT_LINKERD_NAMESPACE = 'linkerd';

export interface VizInstallRequest {
  /** `-L`. */
  linkerdNamespace: string;
  /** The cluster to check and read; undefined with --ignore-cluster or --skip-checks. */
  cluster?: KubeSelection;
  waitMs: number;
  inputs: ChartInputs;
  env: NodeJS.ProcessEnv;
  onWaiting?: () => void;
  now?: Date;
}

/** The values of a viz install: the engine's composition, then the command's own overrides. */
export async function vizInstallValues(req: VizInstallRequest): Promise<VizValues> {
  const cluster = req.cluster
    ? await requireControlPlane({ namespace: req.linkerdNamespace, cluster: req.cluster, waitMs: req.waitMs, env: req.env, onWaiting: req.onWaiting })
    : { cniEnabled: false };
  const { values } = await composeChartInputs(vizChart, req.inputs);
  if (req.linkerdNamespace !== DEFAULT_LINKERD_NAMESPACE) values.linkerdNamespace = req.linkerdNamespace;
  const registry = req.env.LINKERD_DOCKER_REGISTRY;
  if (registry) values.defaultRegistry = registry;
  if (cluster.cniEnabled) values.cniEnabled = true;
  return values;
}

/** Every object of `linkerd viz install`, in the chart's order, with fresh tap and tap-injector certificates. */
export async function renderVizInstall(req: VizInstallRequest): Promise<VizObject[]> {
  const values = await vizInstallValues(req);
  const credentials = await vizCredentials(values, VIZ_NAMESPACE, req.now ?? new Date());
  const { viz } = await vizChart.templates();
  return viz(values, { namespace: VIZ_NAMESPACE, credentials });
}
