import type { RoleBinding, Subject } from 'kubernetes-types/rbac/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ControlPlaneContext } from './context.js';
import { createdByAnnotation, namespacedMeta } from './metadata.js';
import { role, rule } from './rbac.js';
import { CONTROL_PLANE_NS_LABEL, LINKERD_CONFIG } from '../../src/core/mesh/names.js';

const ROLE = 'ext-namespace-metadata-linkerd-config';

/**
 * Extensions read linkerd-config through this Role. The `linkerd-config-reader` RoleBinding is
 * rendered only when `configReaders` lists the subjects (ServiceAccounts, users or groups) to bind.
 */
export function configRbac(values: Values, ctx: ControlPlaneContext) {
  const labels = { [CONTROL_PLANE_NS_LABEL]: ctx.namespace, ...values.commonLabels };
  const out: object[] = [role(ROLE, ctx, labels, [rule([''], ['configmaps'], ['get'], [LINKERD_CONFIG])], createdByAnnotation(values, ctx))];
  const subjects = configReaderSubjects(values.configReaders, ctx);
  if (subjects.length) {
    const binding: RoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: namespacedMeta('linkerd-config-reader', ctx, labels, createdByAnnotation(values, ctx)),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: ROLE },
      subjects,
    };
    out.push(binding);
  }
  return out;
}

/** Accepts a list of RBAC subjects; a bare ServiceAccount subject defaults to the control-plane namespace. */
function configReaderSubjects(readers: Values['configReaders'], ctx: ControlPlaneContext): Subject[] {
  if (!Array.isArray(readers)) return [];
  return readers
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && typeof (r as Subject).name === 'string')
    .map((r) => {
      const kind = typeof r.kind === 'string' ? r.kind : 'ServiceAccount';
      const s: Subject = { kind, name: String(r.name) };
      if (kind === 'ServiceAccount') s.namespace = typeof r.namespace === 'string' ? r.namespace : ctx.namespace;
      else s.apiGroup = 'rbac.authorization.k8s.io';
      return s;
    });
}
