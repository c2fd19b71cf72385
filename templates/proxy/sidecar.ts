import type { Container, PodSpec, Volume } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import type { ProxyPodContext } from './context.js';
import { proxyContainer } from './proxy-container.js';
import { debugContainer, networkValidatorContainer, proxyInitContainer } from './init-containers.js';
import { proxyVolumes } from './volumes.js';

/** Where each added container goes; a template for both plain objects and edited YAML documents. */
export interface SidecarParts {
  initContainersPrepend: Container[];
  initContainersAppend: Container[];
  containersPrepend: Container[];
  containersAppend: Container[];
  volumes: Volume[];
}

/**
 * The proxy spec for one pod (spec §3.6). Native sidecar (default): init then proxy at the head of
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

/** Apply the parts to a plain pod spec (install's control-plane pods); returns a new spec. */
export function withSidecar(spec: PodSpec, parts: SidecarParts): PodSpec {
  const out: PodSpec = { ...spec };
  const init = [...parts.initContainersPrepend, ...(spec.initContainers ?? []), ...parts.initContainersAppend];
  if (init.length) out.initContainers = init;
  out.containers = [...parts.containersPrepend, ...spec.containers, ...parts.containersAppend];
  out.volumes = [...(spec.volumes ?? []), ...parts.volumes];
  return out;
}
