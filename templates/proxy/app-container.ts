import type { Capabilities, Container, PodSpec, VolumeMount } from 'kubernetes-types/core/v1.js';
import { SERVICE_ACCOUNT_MOUNT_PATH } from './context.js';
import { DEBUG_CONTAINER_NAME, NETWORK_VALIDATOR_CONTAINER_NAME, PROXY_CONTAINER_NAME, PROXY_INIT_CONTAINER_NAME } from '../../src/core/mesh/names.js';

const MESH_CONTAINERS = new Set([PROXY_CONTAINER_NAME, PROXY_INIT_CONTAINER_NAME, NETWORK_VALIDATOR_CONTAINER_NAME, DEBUG_CONTAINER_NAME]);

/** The first container of the pod that is the user's own (not one Linkerd added). */
export function firstAppContainer(spec: PodSpec): Container | undefined {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the user's manifest is not validated against PodSpec
  return (spec.containers ?? []).find((c) => !MESH_CONTAINERS.has(c.name));
}

/** The proxy inherits the app's capabilities so a restrictive PodSecurity admission still admits the pod. */
export function appCapabilities(spec: PodSpec): Capabilities | undefined {
  const caps = firstAppContainer(spec)?.securityContext?.capabilities;
  return caps && (caps.add?.length || caps.drop?.length) ? structuredClone(caps) : undefined;
}

/**
 * With automountServiceAccountToken off, users mount the token by hand; the proxy needs the same
 * mount to reach the API, so the injector copies it.
 */
export function serviceAccountMount(spec: PodSpec): VolumeMount | undefined {
  const m = firstAppContainer(spec)?.volumeMounts?.find((v) => v.mountPath === SERVICE_ACCOUNT_MOUNT_PATH);
  return m ? structuredClone(m) : undefined;
}
