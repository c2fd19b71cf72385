import { UserError } from '../../../core/errors.js';
import type { InputObject } from '../objects.js';
import { workloadOf } from '../workloads.js';
import type { AuthzSource, Body, PodView } from './rows.js';

/*
 * `linkerd authz -f`: the same question answered from manifests (read as `linkerd analyze` reads
 * them). Policy objects of any served version count; a workload's pod template stands for its pods.
 */

const POLICY_GROUP = 'policy.linkerd.io';

export function manifestAuthzSource(objects: readonly InputObject[], namespace: string): AuthzSource {
  const of = (kind: string) => objects.filter((o) => o.namespace === namespace && o.kind === kind && o.group === POLICY_GROUP).map((o) => o.body as Body);
  const named = (kind: string, plural: string) => (name: string) => {
    const found = objects.find((o) => o.namespace === namespace && o.kind === kind && o.group === POLICY_GROUP && o.name === name);
    return found ? Promise.resolve(found.body as Body) : Promise.reject(new Error(`${plural}.${POLICY_GROUP} "${name}" not found`));
  };
  return {
    serverAuthorizations: () => Promise.resolve(of('ServerAuthorization')),
    authorizationPolicies: () => Promise.resolve(of('AuthorizationPolicy')),
    server: named('Server', 'servers'),
    servers: () => Promise.resolve(of('Server')),
    httpRoute: named('HTTPRoute', 'httproutes'),
  };
}

/** The pod templates of `type` (canonical, `deployment`) and `name` (all of that kind when empty). */
export function manifestPods(objects: readonly InputObject[], namespace: string, type: string, name: string): PodView[] {
  const matching = objects.filter((o) => o.namespace === namespace && o.kind.toLowerCase() === type && (name === '' || o.name === name));
  const workloads = matching.map(workloadOf).filter((w) => w !== undefined);
  if (matching.length > 0 && workloads.length === 0) throw new UserError(`unsupported resource type: ${name || type}`);
  if (name !== '' && workloads.length === 0) throw new UserError(`${type} ${namespace}/${name} is in none of the manifests`);
  return workloads.map((w) => ({ labels: w.labels, ports: w.ports }));
}
