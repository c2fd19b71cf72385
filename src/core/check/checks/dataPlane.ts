import type { Endpoints, Pod, Service } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { proxyVersionOf } from '../../kube/proxyVersion.js';
import type { CheckContext } from '../context.js';
import { dataPlanePods } from '../facts.js';
import { latestVersions } from './latest.js';
import type { Channels } from '../latestVersions.js';
import { trustBundle } from './certificates.js';
import { CONTROL_PLANE_NS_LABEL, INJECT_ANNOTATION, PROXY_CONTAINER_NAME, TRUST_ANCHORS_ENV } from '../../mesh/names.js';
import { isFinishedJobPod, podName, podNamespace, podStatus, proxyReady, terminalProblem } from '../pods.js';
import { proxyContainer } from '../../mesh/proxyContainer.js';
import { fail, pass, skip, type CheckDefinition, type CheckOutcome, type TerminalState } from '../types.js';

const ALL_TERMINAL: TerminalState[] = ['unschedulable', 'crash-loop', 'image-pull', 'pod-failed'];

/** Statuses in which a pod has no proxy left to wait for. */
const GONE = new Set(['Completed', 'NodeShutdown', 'Shutdown', 'Terminated']);

/**
 * linkerd's CheckPodsRunning: every pod is Running (or Evicted) with a ready proxy.
 * Finished Job pods are left out (linkerd/linkerd2#6128); a pod that waiting will not fix
 * fails the check at once.
 */
export function checkPodsRunning(pods: Pod[], namespace: string | undefined): CheckOutcome {
  if (pods.length === 0) {
    return fail(`no "${PROXY_CONTAINER_NAME}" containers found${namespace ? ` in the "${namespace}" namespace` : ''}`);
  }
  let firstProblem: CheckOutcome | undefined;
  for (const pod of pods) {
    if (isFinishedJobPod(pod)) continue;
    const status = podStatus(pod);
    if (GONE.has(status)) continue;
    const t = terminalProblem(pod);
    // A terminal pod is reported first: it is the reason waiting will not help.
    if (t) return fail(`pod "${podName(pod)}" status is ${status}: ${t.detail}`, { terminal: t.state });
    if (firstProblem) continue;
    if (status !== 'Running' && status !== 'Evicted') firstProblem = fail(`pod "${podName(pod)}" status is ${status}`);
    else if (!proxyReady(pod)) firstProblem = fail(`container "${PROXY_CONTAINER_NAME}" in pod "${podName(pod)}" is not ready`);
  }
  return firstProblem ?? pass();
}

/** linkerd's CheckProxyVersionsUpToDate, for Running pods with a proxy image tag; against `known` when the caller looked the latest up itself. */
export async function proxiesUpToDate(ctx: CheckContext, pods: Pod[], known?: Channels): Promise<CheckOutcome> {
  const latest = known ?? (await latestVersions(ctx));
  if (!latest) return skip('the latest version is unknown');
  const outdated = pods
    .filter((p) => podStatus(p) === 'Running')
    .map((p) => ({ p, v: proxyVersionOf(p) }))
    .filter(({ v }) => v !== '' && latest.mismatch(v) !== undefined)
    .map(({ p, v }) => `\t* ${podName(p)} (${v})`);
  return outdated.length > 0 ? fail(`some proxies are not running the current version:\n${outdated.join('\n')}`) : pass();
}

/** linkerd's CheckIfProxyVersionsMatchWithCLI: the first Running pod whose proxy is another version. */
export function proxiesMatchCli(ctx: CheckContext, pods: Pod[]): CheckOutcome {
  const cli = ctx.options.cliVersion;
  for (const pod of pods) {
    const v = proxyVersionOf(pod);
    if (podStatus(pod) === 'Running' && v !== '' && v !== cli) return fail(`${podName(pod)} running ${v} but cli running ${cli}`);
  }
  return pass();
}

/** Meshed pods (outside the control plane) whose inline trust anchors differ from the current bundle. */
export async function staleTrustBundles(ctx: CheckContext, namespace: string | undefined): Promise<CheckOutcome> {
  const pods = await ctx.list('pods', { namespace, labelSelector: CONTROL_PLANE_NS_LABEL });
  const bundle = (await trustBundle(ctx)).trim();
  const offending: string[] = [];
  for (const pod of pods) {
    // Control-plane proxies read the bundle from the ConfigMap itself.
    if (podNamespace(pod) === ctx.options.controlPlaneNamespace) continue;
    const env = proxyContainer(pod)?.env?.find((e) => e.name === TRUST_ANCHORS_ENV);
    if (!env) continue;
    if ((env.value ?? '').trim() !== bundle) offending.push(namespace ? `* ${podName(pod)}` : `* ${podNamespace(pod)}/${podName(pod)}`);
  }
  if (offending.length === 0) return pass();
  return fail(`Some pods do not have the current trust bundle and must be restarted:\n\t${offending.join('\n\t')}`);
}

/** Keys that only mean something as annotations, and the reverse. */
const ANNOTATION_ONLY_PREFIXES = ['config.linkerd.io', 'config.alpha.linkerd.io'];
const ANNOTATION_ONLY = [INJECT_ANNOTATION];
const LABEL_ONLY = ['mirror.linkerd.io/exported'];

const shouldBeAnnotation = (key: string) => ANNOTATION_ONLY_PREFIXES.some((p) => key.startsWith(p)) || ANNOTATION_ONLY.includes(key);

function misplaced(objects: Array<{ metadata?: ObjectMeta }>, pick: (m: ObjectMeta) => string[], header: string): CheckOutcome {
  const invalid = objects.flatMap((o) => {
    const keys = pick(o.metadata ?? {}).sort();
    return keys.length > 0 ? [`\t* ${o.metadata?.namespace}/${o.metadata?.name}\n\t\t${keys.join('\n\t\t')}`] : [];
  });
  return invalid.length > 0 ? fail(`${header}:\n${invalid.join('\n')}`) : pass();
}

const OPAQUE_PORTS = 'config.linkerd.io/opaque-ports';

/** `80,8080-8082` → ['80', '8080', '8081', '8082']; ranges expanded, as the injector reads them. */
function opaquePorts(annotations: Record<string, string> | undefined): string[] {
  const v = annotations?.[OPAQUE_PORTS];
  if (v === undefined) return [];
  return v.split(',').flatMap((p) => {
    const m = p.trim().match(/^(\d+)-(\d+)$/);
    if (!m) return [p.trim()];
    const out: string[] = [];
    for (let i = Number(m[1]); i <= Number(m[2]) && out.length < 65536; i++) out.push(String(i));
    return out;
  });
}

type ServicePort = NonNullable<NonNullable<Service['spec']>['ports']>[number];
const targetInt = (p: ServicePort) => (typeof p.targetPort === 'number' ? p.targetPort : undefined);
const targetName = (p: ServicePort) => (typeof p.targetPort === 'string' && !/^\d+$/.test(p.targetPort) ? p.targetPort : undefined);
const targetNumber = (p: ServicePort) => (typeof p.targetPort === 'string' && /^\d+$/.test(p.targetPort) ? Number(p.targetPort) : targetInt(p));

/** linkerd's misconfiguredOpaqueAnnotation, for one Service and one Pod it selects. */
export function opaquePortProblem(svc: Service, pod: Pod): string | undefined {
  const svcPorts = opaquePorts(svc.metadata?.annotations);
  const podPorts = opaquePorts(pod.metadata?.annotations);
  const svcName = svc.metadata?.name ?? '';
  const containerPorts = (pod.spec?.containers ?? []).flatMap((c) => c.ports ?? []);

  for (const p of svcPorts) {
    const port = Number(p);
    if (!/^\d+$/.test(p)) return `failed to convert ${p} to port number for pod ${podName(pod)}`;
    for (const sp of svc.spec?.ports ?? []) {
      if (sp.port !== port) continue;
      for (const cp of containerPorts) {
        if (cp.containerPort === targetNumber(sp) || (targetName(sp) !== undefined && cp.name === targetName(sp))) {
          const strPort = String(targetName(sp) === undefined ? targetNumber(sp) : cp.containerPort);
          if (podPorts.includes(strPort)) break;
          return `service ${svcName} expects target port ${strPort} to be opaque; add it to pod ${podName(pod)} ${OPAQUE_PORTS} annotation`;
        }
      }
    }
  }

  for (const p of podPorts) {
    if (svcPorts.includes(p)) continue;
    if (!/^\d+$/.test(p)) return `failed to convert ${p} to port number for pod ${podName(pod)}`;
    const port = Number(p);
    let handled = false;
    for (const sp of svc.spec?.ports ?? []) {
      const target = targetNumber(sp);
      if ((target === undefined || target === 0) && targetName(sp) === undefined && sp.port === port) {
        return `service ${svcName} targets the opaque port ${port}; add it to its ${OPAQUE_PORTS} annotation`;
      }
      if (target === port) {
        if (svcPorts.includes(String(sp.port))) {
          handled = true;
          break;
        }
        return `service ${svcName} targets the opaque port ${port} through ${sp.port}; add ${sp.port} to its ${OPAQUE_PORTS} annotation`;
      }
    }
    if (handled) continue;
    for (const sp of svc.spec?.ports ?? []) {
      const name = targetName(sp);
      if (name === undefined) continue;
      const cp = containerPorts.find((c) => c.containerPort === port && c.name === name);
      if (!cp) continue;
      if (svcPorts.includes(String(sp.port))) break;
      return `service ${svcName} targets the opaque port ${cp.name} through ${sp.port}; add ${sp.port} to its ${OPAQUE_PORTS} annotation`;
    }
  }
  return undefined;
}

/**
 * Services and the pods behind them agree on opaque ports. Endpoints and pods come from one
 * LIST each and are joined in memory (the Go CLI's GET per pod timed out at scale, #6272).
 */
async function opaquePortsAnnotated(ctx: CheckContext): Promise<CheckOutcome> {
  const ns = ctx.options.dataPlaneNamespace;
  const services = await ctx.list('services', { namespace: ns });
  const errors: string[] = [];
  for (const svc of services) {
    if (svc.spec?.clusterIP === 'None') continue;
    const endpoints: Endpoints | undefined = await ctx.find('endpoints', svc.metadata?.name ?? '', svc.metadata?.namespace);
    if (!endpoints) continue;
    const seen = new Set<string>();
    for (const subset of endpoints.subsets ?? []) {
      for (const addr of subset.addresses ?? []) {
        if (addr.targetRef?.kind !== 'Pod' || !addr.targetRef.name || seen.has(addr.targetRef.name)) continue;
        seen.add(addr.targetRef.name);
        const pod = await ctx.find('pods', addr.targetRef.name, svc.metadata?.namespace);
        if (!pod) continue;
        const problem = opaquePortProblem(svc, pod);
        if (problem) errors.push(`\t* ${problem}`);
      }
    }
  }
  return errors.length > 0 ? fail(errors.join('\n    ')) : pass();
}

export const DATA_PLANE_IDENTITY_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2001',
    category: 'linkerd-identity-data-plane',
    description: 'data plane proxies certificate match CA',
    severity: 'warning',
    hintAnchor: 'l5d-identity-data-plane-proxies-certs-match-ca',
    retryable: false,
    run: (ctx) => staleTrustBundles(ctx, ctx.options.dataPlaneNamespace),
  },
];

export const DATA_PLANE_CHECKS: CheckDefinition[] = [
  {
    id: 'L5D2401',
    category: 'linkerd-data-plane',
    description: 'data plane namespace exists',
    severity: 'fatal',
    hintAnchor: 'l5d-data-plane-exists',
    retryable: false,
    async run(ctx) {
      const ns = ctx.options.dataPlaneNamespace;
      if (ns === undefined) return pass();
      return (await ctx.find('namespaces', ns)) ? pass() : fail(`The "${ns}" namespace does not exist`);
    },
  },
  {
    id: 'L5D2402',
    category: 'linkerd-data-plane',
    description: 'data plane proxies are ready',
    severity: 'fatal',
    hintAnchor: 'l5d-data-plane-ready',
    retryable: true,
    surfaceErrorOnRetry: true,
    failFastOn: ALL_TERMINAL,
    async run(ctx) {
      return checkPodsRunning(await dataPlanePods(ctx), ctx.options.dataPlaneNamespace);
    },
  },
  {
    id: 'L5D2403',
    category: 'linkerd-data-plane',
    description: 'data plane is up-to-date',
    severity: 'warning',
    hintAnchor: 'l5d-data-plane-version',
    retryable: false,
    run: async (ctx) => proxiesUpToDate(ctx, await dataPlanePods(ctx)),
  },
  {
    id: 'L5D2404',
    category: 'linkerd-data-plane',
    description: 'data plane and cli versions match',
    severity: 'warning',
    hintAnchor: 'l5d-data-plane-cli-version',
    retryable: false,
    run: async (ctx) => proxiesMatchCli(ctx, await dataPlanePods(ctx)),
  },
  {
    id: 'L5D2405',
    category: 'linkerd-data-plane',
    description: 'data plane pod labels are configured correctly',
    severity: 'warning',
    hintAnchor: 'l5d-data-plane-pod-labels',
    retryable: false,
    run: async (ctx) =>
      misplaced(
        await dataPlanePods(ctx),
        (m) => Object.keys(m.labels ?? {}).filter(shouldBeAnnotation),
        'Some labels on data plane pods should be annotations',
      ),
  },
  {
    id: 'L5D2406',
    category: 'linkerd-data-plane',
    description: 'data plane service labels are configured correctly',
    severity: 'warning',
    hintAnchor: 'l5d-data-plane-services-labels',
    retryable: false,
    run: async (ctx) =>
      misplaced(
        await ctx.list('services', { namespace: ctx.options.dataPlaneNamespace }),
        (m) => Object.keys(m.labels ?? {}).filter(shouldBeAnnotation),
        'Some labels on data plane services should be annotations',
      ),
  },
  {
    id: 'L5D2407',
    category: 'linkerd-data-plane',
    description: 'data plane service annotations are configured correctly',
    severity: 'warning',
    hintAnchor: 'l5d-data-plane-services-annotations',
    retryable: false,
    run: async (ctx) =>
      misplaced(
        await ctx.list('services', { namespace: ctx.options.dataPlaneNamespace }),
        (m) => Object.keys(m.annotations ?? {}).filter((k) => LABEL_ONLY.includes(k)),
        'Some annotations on data plane services should be labels',
      ),
  },
  {
    id: 'L5D2408',
    category: 'linkerd-data-plane',
    description: 'opaque ports are properly annotated',
    severity: 'warning',
    hintAnchor: 'linkerd-opaque-ports-definition',
    retryable: false,
    run: opaquePortsAnnotated,
  },
];
