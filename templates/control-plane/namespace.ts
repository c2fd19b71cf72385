import type { Namespace } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { CONTROL_PLANE_NS_LABEL, INJECT_ANNOTATION, INJECT_DISABLED, IS_CONTROL_PLANE_LABEL } from '../../src/core/mesh/names.js';

/**
 * The control-plane namespace. Webhooks are disabled for it (the injector must not inject
 * itself) and its PodSecurity level is `privileged` because proxy-init needs NET_ADMIN; with
 * the CNI plugin doing that work, `restricted` is enough.
 */
export function controlPlaneNamespace(values: Values, ctx: ControlPlaneContext): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: ctx.namespace,
      annotations: { [INJECT_ANNOTATION]: INJECT_DISABLED },
      labels: {
        [IS_CONTROL_PLANE_LABEL]: 'true',
        'config.linkerd.io/admission-webhooks': 'disabled',
        [CONTROL_PLANE_NS_LABEL]: ctx.namespace,
        'pod-security.kubernetes.io/enforce': values.cniEnabled ? 'restricted' : 'privileged',
        ...values.commonLabels,
      },
    },
  };
}
