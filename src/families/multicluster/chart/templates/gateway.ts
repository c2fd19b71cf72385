import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { PodSpec, Service, ServiceAccount, ServicePort } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { componentAffinity } from '../../../../../templates/shared/affinity.js';
import type { MulticlusterValues } from '../values.js';
import type { MulticlusterContext } from './context.js';
import { createdBy, labels, namespaced } from './metadata.js';
import { serviceAccount } from './rbac.js';
import { disruptionBudget, haStrategy, podSecurityContext, restrictedSecurityContext, scheduling } from './workload.js';
import { EXTENSION_LABEL, INJECT_ANNOTATION } from '../../../../core/mesh/names.js';

/*
 * The chart's gateway.yaml: the gateway Deployment (a pause container; the injected proxy is the
 * gateway), its PodDisruptionBudget with anti-affinity, the Service source clusters reach it on,
 * and its ServiceAccount, whose identity the Service advertises for link-gen to copy into the Link.
 */

/** `<gateway>.<ns>.serviceaccount.identity.<linkerd ns>.<trust domain>`: the gateway proxy's mesh identity. */
export function gatewayIdentity(values: MulticlusterValues, ctx: MulticlusterContext): string {
  return `${values.gateway.name}.${ctx.namespace}.serviceaccount.identity.${values.linkerdNamespace}.${values.identityTrustDomain}`;
}

function gatewayDeployment(values: MulticlusterValues, ctx: MulticlusterContext): Deployment {
  const g = values.gateway;
  const spec: PodSpec = {} as PodSpec;
  const affinity = componentAffinity({ labelKey: 'app', component: g.name, antiAffinity: values.enablePodAntiAffinity, nodeAffinity: values.nodeAffinity });
  if (affinity) spec.affinity = affinity;
  if (g.terminationGracePeriodSeconds !== '') spec.terminationGracePeriodSeconds = Number(g.terminationGracePeriodSeconds);
  spec.automountServiceAccountToken = false;
  spec.containers = [{ name: 'pause', image: g.pauseImage, securityContext: restrictedSecurityContext(g.UID, g.GID) }];
  spec.securityContext = podSecurityContext();
  spec.serviceAccountName = g.name;
  Object.assign(spec, scheduling(g.nodeSelector, g.tolerations));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      annotations: createdBy(values),
      labels: {
        'app.kubernetes.io/name': 'gateway',
        'app.kubernetes.io/part-of': 'Linkerd',
        'app.kubernetes.io/version': values.linkerdVersion,
        component: 'gateway',
        app: g.name,
        [EXTENSION_LABEL]: 'multicluster',
        ...values.commonLabels,
      },
      name: g.name,
      namespace: ctx.namespace,
    },
    spec: {
      replicas: g.replicas,
      revisionHistoryLimit: values.revisionHistoryLimit,
      selector: { matchLabels: { app: g.name } },
      ...(values.enablePodAntiAffinity ? { strategy: haStrategy() } : {}),
      template: {
        metadata: {
          annotations: {
            ...createdBy(values),
            [INJECT_ANNOTATION]: 'enabled',
            'config.linkerd.io/proxy-require-identity-inbound-ports': String(g.port),
            'config.linkerd.io/enable-gateway': 'true',
            'config.linkerd.io/default-inbound-policy': 'all-authenticated',
            'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
            ...g.deploymentAnnotations,
          },
          labels: { app: g.name, [EXTENSION_LABEL]: 'multicluster', ...values.podLabels },
        },
        spec,
      },
    },
  };
}

function gatewayDisruptionBudget(values: MulticlusterValues, ctx: MulticlusterContext): PodDisruptionBudget[] {
  if (!values.enablePodAntiAffinity) return [];
  const g = values.gateway;
  return [
    disruptionBudget(namespaced(g.name, ctx, { app: g.name, [EXTENSION_LABEL]: 'multicluster', ...values.commonLabels }, createdBy(values)), {
      app: g.name,
    }),
  ];
}

/** Node ports are only meaningful (and only emitted) on NodePort and LoadBalancer Services. */
const takesNodePorts = (type: string) => type === 'NodePort' || type === 'LoadBalancer';

function servicePort(name: string, port: number, nodePort: number | undefined, withNodePorts: boolean): ServicePort {
  const p: ServicePort = { name, port, protocol: 'TCP' };
  if (withNodePorts && nodePort) p.nodePort = nodePort;
  return p;
}

/**
 * The gateway Service. Its annotations are the contract with link-gen: identity, probe path and
 * period, and the gateway marker (`component: gateway` is an annotation here, not a label).
 */
export function gatewayService(values: MulticlusterValues, ctx: MulticlusterContext): Service {
  const g = values.gateway;
  const nodePorts = takesNodePorts(g.serviceType);
  const spec: NonNullable<Service['spec']> = {
    ports: [servicePort('mc-gateway', g.port, g.nodePort, nodePorts), servicePort('mc-probe', g.probe.port, g.probe.nodePort, nodePorts)],
    selector: { app: g.name },
    type: g.serviceType,
  };
  if (g.serviceExternalTrafficPolicy) spec.externalTrafficPolicy = g.serviceExternalTrafficPolicy;
  if (nodePorts && g.healthCheckNodePort) spec.healthCheckNodePort = g.healthCheckNodePort;
  if (g.loadBalancerClass) spec.loadBalancerClass = g.loadBalancerClass;
  if (g.loadBalancerIP) spec.loadBalancerIP = g.loadBalancerIP;
  if (g.loadBalancerSourceRanges.length) spec.loadBalancerSourceRanges = [...g.loadBalancerSourceRanges];
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: namespaced(g.name, ctx, labels(values), {
      'mirror.linkerd.io/gateway-identity': gatewayIdentity(values, ctx),
      'mirror.linkerd.io/probe-period': String(g.probe.seconds),
      'mirror.linkerd.io/probe-path': g.probe.path,
      'mirror.linkerd.io/multicluster-gateway': 'true',
      component: 'gateway',
      ...createdBy(values),
      ...g.serviceAnnotations,
    }),
    spec,
  };
}

/** Nothing with `gateway.enabled=false` (`--gateway=false`); else Deployment, [PDB], Service, ServiceAccount. */
export function gatewayObjects(values: MulticlusterValues, ctx: MulticlusterContext): (Deployment | PodDisruptionBudget | Service | ServiceAccount)[] {
  if (!values.gateway.enabled) return [];
  return [
    gatewayDeployment(values, ctx),
    ...gatewayDisruptionBudget(values, ctx),
    gatewayService(values, ctx),
    serviceAccount(values.gateway.name, values, ctx, labels(values)),
  ];
}
