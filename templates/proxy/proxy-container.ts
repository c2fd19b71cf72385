import type { Capabilities, Container, SecurityContext, VolumeMount } from 'kubernetes-types/core/v1.js';
import type { Values } from '../../src/core/values/index.js';
import { UserError } from '../../src/core/errors.js';
import { END_ENTITY_VOLUME, IDENTITY_TOKEN_VOLUME, type ProxyPodContext } from './context.js';
import { proxyEnv } from './proxy-env.js';
import { resourceRequirements } from './resources.js';
import { appCapabilities, serviceAccountMount } from './app-container.js';
import { podinfoMount, proxyTracingEnabled } from './tracing.js';
import { ADMIN_PORT_NAME, PROXY_CONTAINER_NAME, PROXY_PORT_NAME } from '../../src/core/mesh/names.js';

export function proxyImage(values: Values): string {
  return `${values.proxy.image.name}:${values.proxy.image.version || values.linkerdVersion}`;
}

function proxySecurityContext(values: Values, caps: Capabilities | undefined): SecurityContext {
  if (values.proxy.securityContext && Object.keys(values.proxy.securityContext).length) {
    return values.proxy.securityContext;
  }
  const sc: SecurityContext = { allowPrivilegeEscalation: false };
  if (caps) sc.capabilities = caps;
  sc.readOnlyRootFilesystem = true;
  sc.runAsNonRoot = true;
  sc.runAsUser = values.proxy.uid;
  if (values.proxy.gid >= 0) sc.runAsGroup = values.proxy.gid;
  sc.seccompProfile = { type: 'RuntimeDefault' };
  return sc;
}

/** The `linkerd-proxy` container (the chart's _proxy.tpl), native-sidecar or classic per `proxy.nativeSidecar`. */
export function proxyContainer(values: Values, ctx: ProxyPodContext): Container {
  const p = values.proxy;
  if (p.nativeSidecar && p.waitBeforeExitSeconds) {
    throw new UserError('proxy.nativeSidecar and waitBeforeExitSeconds cannot be used simultaneously');
  }
  const admin = p.ports.admin;
  const c: Container = {
    env: proxyEnv(values, ctx),
    image: proxyImage(values),
    imagePullPolicy: p.image.pullPolicy || values.imagePullPolicy,
    livenessProbe: {
      httpGet: { path: '/live', port: admin },
      initialDelaySeconds: p.livenessProbe.initialDelaySeconds,
      timeoutSeconds: p.livenessProbe.timeoutSeconds,
    },
    name: PROXY_CONTAINER_NAME,
    ports: [
      { containerPort: p.ports.inbound, name: PROXY_PORT_NAME },
      { containerPort: admin, name: ADMIN_PORT_NAME },
    ],
    readinessProbe: {
      httpGet: { path: '/ready', port: admin },
      initialDelaySeconds: p.readinessProbe.initialDelaySeconds,
      timeoutSeconds: p.readinessProbe.timeoutSeconds,
    },
  };
  if (p.nativeSidecar && p.await) {
    c.startupProbe = {
      httpGet: { path: '/ready', port: admin },
      initialDelaySeconds: p.startupProbe.initialDelaySeconds,
      periodSeconds: p.startupProbe.periodSeconds,
      failureThreshold: p.startupProbe.failureThreshold,
    };
  }
  const resources = resourceRequirements(p.resources);
  if (resources) c.resources = resources;
  c.securityContext = proxySecurityContext(values, p.capabilities ?? appCapabilities(ctx.podSpec));
  c.terminationMessagePolicy = 'FallbackToLogsOnError';
  if (!p.nativeSidecar && (p.await || p.waitBeforeExitSeconds)) {
    c.lifecycle = {};
    if (p.await) {
      c.lifecycle.postStart = { exec: { command: ['/usr/lib/linkerd/linkerd-await', '--timeout=2m', `--port=${admin}`] } };
    }
    if (p.waitBeforeExitSeconds) {
      c.lifecycle.preStop = { exec: { command: ['/bin/sleep', String(p.waitBeforeExitSeconds)] } };
    }
  }
  const mounts: VolumeMount[] = [{ mountPath: '/var/run/linkerd/identity/end-entity', name: END_ENTITY_VOLUME }];
  if (proxyTracingEnabled(values)) mounts.push(podinfoMount());
  if (values.identity.serviceAccountTokenProjection) mounts.push({ mountPath: '/var/run/secrets/tokens', name: IDENTITY_TOKEN_VOLUME });
  const sa = p.saMountPath ?? serviceAccountMount(ctx.podSpec);
  if (sa) mounts.push(sa);
  c.volumeMounts = mounts;
  if (p.nativeSidecar) c.restartPolicy = 'Always';
  return c;
}
