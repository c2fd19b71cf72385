import type { Container, PodSpec, Volume, VolumeMount } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { SERVICE_ACCOUNT_MOUNT_PATH, type ProxyPodContext } from './context.js';
import { proxyContainer } from './proxy-container.js';
import { debugContainer, networkValidatorContainer, proxyInitContainer } from './init-containers.js';
import { proxyVolumes } from './volumes.js';
import { firstAppContainer } from './app-container.js';
import { podInboundPorts } from './pod-ports.js';

/** Where each added container goes; a template for both plain objects and edited YAML documents. */
export interface SidecarParts {
  initContainersPrepend: Container[];
  initContainersAppend: Container[];
  containersPrepend: Container[];
  containersAppend: Container[];
  volumes: Volume[];
}

/**
 * The proxy spec for one pod, as the chart's _proxy.tpl, _proxy-init.tpl and patch.json make it. Native sidecar (default): init then proxy at the head of
 * `initContainers`. Classic: init appended to `initContainers`, proxy first among `containers` when
 * it must be up before the app (`await`), else last.
 */
export function sidecarParts(values: Values, ctx: ProxyPodContext, opts: { debugSidecar?: boolean } = {}): SidecarParts {
  const init = values.cniEnabled ? networkValidatorContainer(values) : proxyInitContainer(values, ctx);
  const proxy = proxyContainer(values, ctx);
  const parts: SidecarParts = {
    initContainersPrepend: [],
    initContainersAppend: [],
    containersPrepend: [],
    containersAppend: [],
    volumes: proxyVolumes(values, ctx),
  };
  if (values.proxy.nativeSidecar) {
    parts.initContainersPrepend.push(init, proxy);
  } else {
    parts.initContainersAppend.push(init);
    (values.proxy.await ? parts.containersPrepend : parts.containersAppend).push(proxy);
  }
  if (opts.debugSidecar) parts.containersAppend.push(debugContainer(values));
  return parts;
}

/**
 * Everything sidecarParts reads from the pod, as a key: with the same values, control-plane
 * namespace and options, pods with equal keys get equal parts. Undefined when the app container
 * carries capabilities or a service-account mount (rare; those pods are rendered on their own).
 */
export function sidecarPodKey(ctx: ProxyPodContext): string | undefined {
  if (ctx.component) return undefined;
  const app = firstAppContainer(ctx.podSpec);
  if (app?.securityContext?.capabilities !== undefined) return undefined;
  const mounts: unknown = app?.volumeMounts;
  if (mounts !== undefined && !(Array.isArray(mounts) && mounts.every((m: VolumeMount | null) => m?.mountPath !== SERVICE_ACCOUNT_MOUNT_PATH)))
    return undefined;
  return podInboundPorts(ctx.podSpec);
}

/** Apply the parts to a plain pod spec (install's control-plane pods); returns a new spec. */
export function withSidecar(spec: PodSpec, parts: SidecarParts): PodSpec {
  const out: PodSpec = { ...spec };
  const init = [...parts.initContainersPrepend, ...(spec.initContainers ?? []), ...parts.initContainersAppend];
  if (init.length) out.initContainers = init;
  out.containers = [...parts.containersPrepend, ...spec.containers, ...parts.containersAppend];
  out.volumes = [...(spec.volumes ?? []), ...parts.volumes];
  return out;
}
