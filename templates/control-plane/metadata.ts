import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { cliCreatedBy } from '../../src/core/version.js';
import type { ControlPlaneContext } from './context.js';
import { CONTROL_PLANE_COMPONENT_LABEL, CONTROL_PLANE_NS_LABEL, CREATED_BY_ANNOTATION } from '../../src/core/mesh/names.js';

/** `linkerd.io/control-plane-component` values used by the chart. */
export type Component = 'identity' | 'destination' | 'heartbeat' | 'proxy-injector' | 'controller';

/** The `linkerd.io/created-by` value: `values.cliVersion` (set by the CLI), else this CLI. */
export function createdBy(values: Values, ctx: ControlPlaneContext): string {
  return values.cliVersion || cliCreatedBy(ctx.cliVersion);
}

/** The labels every control-plane object carries, plus the user's commonLabels. */
export function componentLabels(values: Values, ctx: ControlPlaneContext, component?: Component, extra: Record<string, string> = {}): Record<string, string> {
  const labels: Record<string, string> = {};
  if (component) labels[CONTROL_PLANE_COMPONENT_LABEL] = component;
  labels[CONTROL_PLANE_NS_LABEL] = ctx.namespace;
  return { ...extra, ...labels, ...values.commonLabels };
}

/** Metadata of a cluster-scoped object (RBAC, webhook configurations): labels only. */
export function clusterMeta(name: string, labels: Record<string, string>, annotations?: Record<string, string>): ObjectMeta {
  return annotations && Object.keys(annotations).length ? { name, labels, annotations } : { name, labels };
}

/** Metadata of a namespaced object; `createdBy` adds the `linkerd.io/created-by` annotation. */
export function namespacedMeta(name: string, ctx: ControlPlaneContext, labels: Record<string, string>, annotations?: Record<string, string>): ObjectMeta {
  const meta: ObjectMeta = { name, namespace: ctx.namespace, labels };
  if (annotations && Object.keys(annotations).length) meta.annotations = annotations;
  return meta;
}

/** `{ linkerd.io/created-by: … }`, what ConfigMaps, Secrets, Services, workloads and PDBs carry. */
export function createdByAnnotation(values: Values, ctx: ControlPlaneContext): Record<string, string> {
  return { [CREATED_BY_ANNOTATION]: createdBy(values, ctx) };
}

export { b64 } from '../shared/encoding.js';
