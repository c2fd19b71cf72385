import type { Namespace } from 'kubernetes-types/core/v1.js';
import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { vizLabels } from './meta.js';

/**
 * The viz namespace. Its pods need no capabilities of their own, but proxy-init does unless the
 * CNI plugin sets up the network, hence `privileged` without CNI and `restricted` with it. An
 * external Prometheus is recorded in an annotation, where `viz check` and the dashboard find it.
 */
export function vizNamespace(values: VizValues, ctx: VizContext): Namespace {
  const labels = { ...vizLabels(values), 'pod-security.kubernetes.io/enforce': values.cniEnabled ? 'restricted' : 'privileged' };
  const metadata: Namespace['metadata'] = { name: ctx.namespace, labels: { ...labels, ...values.commonLabels } };
  if (values.prometheusUrl) metadata.annotations = { 'viz.linkerd.io/external-prometheus': values.prometheusUrl };
  return { apiVersion: 'v1', kind: 'Namespace', metadata };
}
