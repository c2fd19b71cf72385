import type { Pod } from 'kubernetes-types/core/v1.js';
import { LINKERD_CRD_EXPECTATIONS } from '../../../../templates/crds/index.js';
import { networkContainsCidr, networkContainsIp, parseCidr } from '../../net/cidr.js';
import { BUILTIN_RESOURCES, type BuiltinResource } from '../../kube/resources.js';
import type { CheckContext } from '../context.js';
import { controlPlanePods, linkerdConfigMap, linkerdValues } from '../facts.js';
import { podName, terminalProblem } from '../pods.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome, type TerminalState } from '../types.js';
import { CNI_RESOURCE_LABEL, CONTROL_PLANE_COMPONENT_LABEL, CONTROL_PLANE_NS_LABEL, LINKERD_CONFIG } from '../../mesh/names.js';

/** Control-plane objects carry `linkerd.io/control-plane-ns`; CNI ones are told apart by `linkerd.io/cni-resource`. */
const CONTROL_PLANE_SELECTOR = `${CONTROL_PLANE_NS_LABEL},!${CNI_RESOURCE_LABEL}`;

const ALL_TERMINAL: TerminalState[] = ['unschedulable', 'crash-loop', 'image-pull', 'pod-failed'];

/** linkerd's checkResources: every expected name is among the objects, else `missing <Kinds>: a, b`. */
function missing(kinds: string, objects: Array<{ metadata?: { name?: string } }>, expected: string[]): CheckOutcome {
  const names = new Set(objects.map((o) => o.metadata?.name));
  const absent = expected.filter((n) => !names.has(n)).sort();
  return absent.length > 0 ? fail(`missing ${kinds}: ${absent.join(', ')}`) : pass();
}

/** Every Linkerd CRD exists and serves the last version this release defines. */
export async function crdsExist(ctx: CheckContext): Promise<CheckOutcome> {
  const crds = await ctx.list('customresourcedefinitions');
  const problems: string[] = [];
  for (const want of LINKERD_CRD_EXPECTATIONS) {
    const crd = crds.find((c) => c.metadata?.name === want.name);
    if (!crd) problems.push(`missing ${want.name}`);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- objects from the API server are not validated against their types
    else if (!(crd.spec?.versions ?? []).some((v) => v.name === want.lastVersion)) problems.push(`CRD ${want.name} is missing version ${want.lastVersion}`);
  }
  return problems.length > 0 ? fail(problems.join(', ')) : pass();
}

async function namespaceExists(ctx: CheckContext, ns: string): Promise<CheckOutcome> {
  return (await ctx.find('namespaces', ns)) ? pass() : fail(`The "${ns}" namespace does not exist`);
}

const expectedRbac = (ns: string) => [`linkerd-${ns}-identity`, `linkerd-${ns}-proxy-injector`];

/**
 * `control plane <Kinds> exist`: among the control plane's objects of one resource (those of its
 * namespace, for a namespaced resource), every expected name is present.
 */
function controlPlaneObjectsExist(
  id: string,
  resource: BuiltinResource,
  kinds: string,
  hintAnchor: string,
  expected: (controlPlaneNamespace: string) => string[],
): CheckDefinition {
  return {
    id,
    category: 'linkerd-config',
    description: `control plane ${kinds} exist`,
    severity: 'fatal',
    hintAnchor,
    retryable: false,
    async run(ctx) {
      const ns = ctx.options.controlPlaneNamespace;
      const read = BUILTIN_RESOURCES[resource].namespaced
        ? { namespace: ns, labelSelector: CONTROL_PLANE_SELECTOR }
        : { labelSelector: CONTROL_PLANE_SELECTOR };
      return missing(kinds, await ctx.list(resource, read), expected(ns));
    },
  };
}

/**
 * linkerd's validateControlPlanePods: for each core component at least one Running pod
 * whose containers are all ready. When none can get there by waiting (unschedulable,
 * crash-looping, image pull failures) the failure is terminal.
 */
function validateControlPlanePods(pods: Pod[]): CheckOutcome {
  for (const component of ['destination', 'identity', 'proxy-injector']) {
    const mine = pods.filter((p) => p.metadata?.labels?.[CONTROL_PLANE_COMPONENT_LABEL] === component);
    const running = mine.filter((p) => p.status?.phase === 'Running');
    const problem = readinessProblem(component, running);
    if (problem === undefined) continue;
    const stuck = mine.map((p) => ({ pod: p, t: terminalProblem(p) }));
    const first = stuck[0];
    if (first?.t && stuck.every((s) => s.t !== undefined)) {
      return fail(`${problem}: pod/${podName(first.pod)} ${first.t.detail}`, { terminal: first.t.state });
    }
    return fail(problem);
  }
  return pass();
}

/** Why none of a component's running pods is ready; undefined when one is. */
function readinessProblem(component: string, running: Pod[]): string | undefined {
  if (running.length === 0) return `No running pods for "linkerd-${component}"`;
  let problem: string | undefined;
  for (const pod of running) {
    const lastNotReady = (pod.status?.containerStatuses ?? []).filter((c) => !c.ready).at(-1);
    if (lastNotReady === undefined) return undefined;
    problem = `pod/${podName(pod)} container ${lastNotReady.name} is not ready`;
  }
  return problem;
}

async function clusterNetworks(ctx: CheckContext) {
  const values = await linkerdValues(ctx);
  return { text: values.clusterNetworks, nets: values.clusterNetworks.split(',').map((n) => parseCidr(n)) };
}

export const LINKERD_CRD_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D1401',
    category: 'linkerd-crd',
    description: 'control plane CustomResourceDefinitions exist',
    severity: 'fatal',
    hintAnchor: 'l5d-existence-crd',
    retryable: true,
    run: crdsExist,
  },
];

export const EXISTENCE_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D1501',
    category: 'linkerd-existence',
    description: `'${LINKERD_CONFIG}' config map exists`,
    severity: 'fatal',
    hintAnchor: 'l5d-existence-linkerd-config',
    retryable: false,
    async run(ctx) {
      await linkerdValues(ctx);
      return pass();
    },
  },
  {
    id: 'L5D1502',
    category: 'linkerd-existence',
    description: 'heartbeat ServiceAccount exist',
    severity: 'fatal',
    hintAnchor: 'l5d-existence-sa',
    retryable: false,
    async run(ctx) {
      if ((await linkerdValues(ctx)).disableHeartBeat) return pass();
      const sas = await ctx.list('serviceaccounts', { namespace: ctx.options.controlPlaneNamespace, labelSelector: CONTROL_PLANE_SELECTOR });
      return missing('ServiceAccounts', sas, ['linkerd-heartbeat']);
    },
  },
  {
    id: 'L5D1503',
    category: 'linkerd-existence',
    description: 'control plane replica sets are ready',
    severity: 'fatal',
    hintAnchor: 'l5d-existence-replicasets',
    retryable: true,
    async run(ctx) {
      const sets = await ctx.list('replicasets', { namespace: ctx.options.controlPlaneNamespace });
      const failures = sets.flatMap((rs) =>
        (rs.status?.conditions ?? []).filter((c) => c.type === 'ReplicaFailure' && c.status === 'True').map((c) => `${c.reason ?? ''}: ${c.message ?? ''}`),
      );
      return failures.length > 0 ? fail(failures.join('\n   ')) : pass();
    },
  },
  {
    id: 'L5D1504',
    category: 'linkerd-existence',
    description: 'no unschedulable pods',
    severity: 'warning',
    hintAnchor: 'l5d-existence-unschedulable-pods',
    retryable: true,
    surfaceErrorOnRetry: true,
    failFastOn: ['unschedulable'],
    async run(ctx) {
      const pods = await ctx.list('pods', { namespace: ctx.options.controlPlaneNamespace });
      for (const pod of pods) {
        const c = (pod.status?.conditions ?? []).find((x) => x.reason === 'Unschedulable');
        // Waiting does not schedule a pod: report it now rather than at the end of --wait.
        if (c) return fail(`${podName(pod)}: ${c.message ?? ''}`, { terminal: 'unschedulable' });
      }
      return pass();
    },
  },
  {
    id: 'L5D1505',
    category: 'linkerd-existence',
    description: 'control plane pods are ready',
    severity: 'fatal',
    hintAnchor: 'l5d-api-control-ready',
    retryable: true,
    surfaceErrorOnRetry: true,
    failFastOn: ALL_TERMINAL,
    async run(ctx) {
      return validateControlPlanePods(await controlPlanePods(ctx));
    },
  },
  {
    id: 'L5D1506',
    category: 'linkerd-existence',
    description: 'cluster networks contains all node podCIDRs',
    severity: 'error',
    hintAnchor: 'l5d-cluster-networks-cidr',
    retryable: false,
    async run(ctx) {
      const { nets } = await clusterNetworks(ctx);
      const nodes = await ctx.list('nodes');
      const cidrs = nodes.map((n) => n.spec?.podCIDR ?? '').filter((c) => c !== '');
      // Some providers (DigitalOcean) expose no podCIDR: nothing to compare.
      if (cidrs.length === 0) return skip("skipping check because the nodes aren't exposing podCIDR");
      const bad = cidrs.filter((c) => !nets.some((n) => networkContainsCidr(n, parseCidr(c)))).sort();
      if (bad.length === 0) return pass();
      return fail(
        `node has podCIDR(s) [${bad.join(' ')}] which are not contained in the Linkerd clusterNetworks.\n\tTry installing linkerd via --set clusterNetworks="${bad.join('\\,')}"`,
      );
    },
  },
  {
    id: 'L5D1507',
    category: 'linkerd-existence',
    description: 'cluster networks contains all pods',
    severity: 'error',
    hintAnchor: 'l5d-cluster-networks-pods',
    retryable: false,
    async run(ctx) {
      const { text, nets } = await clusterNetworks(ctx);
      for (const pod of await ctx.list('pods')) {
        const ip = pod.status?.podIP;
        if (pod.spec?.hostNetwork || !ip) continue;
        if (!nets.some((n) => networkContainsIp(n, ip))) {
          return fail(`the Linkerd clusterNetworks [${JSON.stringify(text)}] do not include pod ${pod.metadata?.namespace}/${podName(pod)} (${ip})`);
        }
      }
      return pass();
    },
  },
  {
    id: 'L5D1508',
    category: 'linkerd-existence',
    description: 'cluster networks contains all services',
    severity: 'error',
    hintAnchor: 'l5d-cluster-networks-pods',
    retryable: false,
    async run(ctx) {
      const { text, nets } = await clusterNetworks(ctx);
      for (const svc of await ctx.list('services')) {
        const ip = svc.spec?.clusterIP;
        if (!ip || ip === 'None') continue;
        if (!nets.some((n) => networkContainsIp(n, ip))) {
          return fail(`the Linkerd clusterNetworks [${JSON.stringify(text)}] do not include svc ${svc.metadata?.namespace}/${svc.metadata?.name} (${ip})`);
        }
      }
      return pass();
    },
  },
];

export const CONFIG_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D1601',
    category: 'linkerd-config',
    description: 'control plane Namespace exists',
    severity: 'fatal',
    hintAnchor: 'l5d-existence-ns',
    retryable: false,
    run: (ctx) => namespaceExists(ctx, ctx.options.controlPlaneNamespace),
  },
  controlPlaneObjectsExist('L5D1602', 'clusterroles', 'ClusterRoles', 'l5d-existence-cr', expectedRbac),
  controlPlaneObjectsExist('L5D1603', 'clusterrolebindings', 'ClusterRoleBindings', 'l5d-existence-crb', expectedRbac),
  controlPlaneObjectsExist('L5D1604', 'serviceaccounts', 'ServiceAccounts', 'l5d-existence-sa', () => [
    'linkerd-destination',
    'linkerd-identity',
    'linkerd-proxy-injector',
  ]),
  {
    id: 'L5D1605',
    category: 'linkerd-config',
    description: 'control plane CustomResourceDefinitions exist',
    severity: 'fatal',
    hintAnchor: 'l5d-existence-crd',
    retryable: false,
    run: crdsExist,
  },
  controlPlaneObjectsExist('L5D1606', 'mutatingwebhookconfigurations', 'MutatingWebhookConfigurations', 'l5d-existence-mwc', () => [
    'linkerd-proxy-injector-webhook-config',
  ]),
  controlPlaneObjectsExist('L5D1607', 'validatingwebhookconfigurations', 'ValidatingWebhookConfigurations', 'l5d-existence-vwc', () => [
    'linkerd-sp-validator-webhook-config',
  ]),
  {
    id: 'L5D1608',
    category: 'linkerd-config',
    description: 'proxy-init container runs as root user if docker container runtime is used',
    severity: 'error',
    hintAnchor: 'l5d-proxy-init-run-as-root',
    retryable: false,
    async run(ctx) {
      if (!(await linkerdConfigMap(ctx))) return skip('skipping check because ConigMap does not exist');
      if ((await linkerdValues(ctx)).proxyInit.runAsRoot) return pass();
      const docker = (await ctx.list('nodes')).some((n) => (n.status?.nodeInfo?.containerRuntimeVersion ?? '').startsWith('docker:'));
      if (!docker) return pass();
      return fail(
        'there are nodes using the docker container runtime and proxy-init container must run as root user.\ntry installing linkerd via --set proxyInit.runAsRoot=true',
      );
    },
  },
];
