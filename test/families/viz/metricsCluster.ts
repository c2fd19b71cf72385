import { afterAll, beforeAll } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { clusterWithViz } from './cluster.js';
import { startMetricsApiServer, type MetricsApiServer } from './metricsApiServer.js';

/** A loopback cluster with viz installed whose metrics-api port-forward reaches a loopback metrics API. */
export interface MetricsCluster {
  readonly api: ApiServer;
  readonly metrics: MetricsApiServer;
  /** `linkerd viz ARGS` against the cluster. */
  readonly linkerd: (args: string[]) => Promise<CliResult>;
}

/** Starts the cluster and the metrics API before the file's tests and stops them after. */
export function useMetricsCluster(): MetricsCluster {
  const started: { api?: ApiServer; metrics?: MetricsApiServer } = {};
  const need = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useMetricsCluster: used before beforeAll ran');
    return v;
  };
  beforeAll(async () => {
    const metrics = await startMetricsApiServer();
    started.metrics = metrics;
    started.api = await startApiServer({
      objects: await clusterWithViz(),
      portForward: (_ns, _pod, port) => (port === 8085 ? { host: '127.0.0.1', port: metrics.port } : undefined),
    });
  });
  afterAll(async () => {
    await started.api?.stop();
    await started.metrics?.stop();
  });
  const cluster: MetricsCluster = {
    get api() {
      return need(started.api);
    },
    get metrics() {
      return need(started.metrics);
    },
    linkerd: (args) => runCli(['viz', ...args, '--kubeconfig', cluster.api.kubeconfigPath]),
  };
  return cluster;
}
