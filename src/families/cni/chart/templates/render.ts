import type { CniValues } from '../values.js';
import { cniConfigMap } from './configMap.js';
import { cniDaemonSet } from './daemonSet.js';
import type { CniContext } from './meta.js';
import { cniNamespace } from './namespace.js';
import { cniClusterRole, cniClusterRoleBinding, cniPsp, cniServiceAccount } from './rbac.js';

export type { CniContext } from './meta.js';

/** A rendered Kubernetes object: apiVersion, kind and metadata always set. */
export interface CniObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** The objects of `linkerd install-cni`, in the chart's order. Pure. */
export function renderCni(values: CniValues, ctx: CniContext): CniObject[] {
  const objects: object[] = [
    cniNamespace(ctx),
    cniServiceAccount(values, ctx),
    ...cniPsp(values, ctx),
    cniClusterRole(values),
    cniClusterRoleBinding(values, ctx),
    cniConfigMap(values, ctx),
    cniDaemonSet(values, ctx),
  ];
  return objects as CniObject[];
}
