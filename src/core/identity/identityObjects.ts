import type { ConfigMap, Pod, Secret } from 'kubernetes-types/core/v1.js';
import { CONTROL_PLANE_NS_LABEL, ISSUER_SECRET, LINKERD_CONFIG, TRUST_ROOTS_CONFIGMAP } from '../mesh/names.js';
import { UserError } from '../errors.js';
import { WEBHOOK_SECRETS, type InstalledState } from '../mesh/renderControlPlaneFor.js';
import { OVERRIDES_SECRET } from '../mesh/loadStoredValues.js';
import { connectKube, type KubeClient } from '../kube/kubeClient.js';
import type { KubeSelection } from '../kube/kubeconfig.js';
import { parseLinkerdConfigValues } from '../kube/linkerdConfig.js';
import type { WebhookKey } from '../../../templates/control-plane/index.js';

/** Everything identity state is read from: a fixed number of requests, whatever the pod count. */
export interface IdentityObjects {
  trustRoots?: ConfigMap;
  linkerdConfig?: ConfigMap;
  /** `identityTrustAnchorsPEM` of linkerd-config's values. */
  configAnchors?: string;
  /** `identity.issuer.scheme` of linkerd-config's values. */
  scheme?: string;
  externalCA: boolean;
  issuer?: Secret;
  overrides?: Secret;
  /** Meshed pods (label linkerd.io/control-plane-ns), in every namespace. */
  pods: Pod[];
  /** Only when asked for (rendering): the webhook Secrets and the heartbeat CronJob. */
  installed?: InstalledState;
}

function configFacts(cm: ConfigMap | undefined): { anchors?: string; scheme?: string; externalCA: boolean } {
  if (cm === undefined) return { externalCA: false };
  const values = parseLinkerdConfigValues(cm);
  const identity = typeof values.identity === 'object' && values.identity !== null ? (values.identity as Record<string, unknown>) : {};
  const issuer = typeof identity.issuer === 'object' && identity.issuer !== null ? (identity.issuer as Record<string, unknown>) : {};
  return {
    anchors: typeof values.identityTrustAnchorsPEM === 'string' ? values.identityTrustAnchorsPEM : undefined,
    scheme: typeof issuer.scheme === 'string' ? issuer.scheme : undefined,
    externalCA: identity.externalCA === true,
  };
}

async function read(client: KubeClient, ns: string, o: { pods: boolean; installed: boolean }): Promise<IdentityObjects> {
  const keys = Object.keys(WEBHOOK_SECRETS) as WebhookKey[];
  // All reads start together; the first failure fails the whole read (nothing is printed before).
  const [trustRoots, linkerdConfig, issuer, overrides, pods, webhookSecrets, heartbeat] = await Promise.all([
    client.find('configmaps', TRUST_ROOTS_CONFIGMAP, ns),
    client.find('configmaps', LINKERD_CONFIG, ns),
    client.find('secrets', ISSUER_SECRET, ns),
    client.find('secrets', OVERRIDES_SECRET, ns),
    o.pods ? client.list('pods', { labelSelector: CONTROL_PLANE_NS_LABEL }) : Promise.resolve([]),
    o.installed ? Promise.all(keys.map((k) => client.find('secrets', WEBHOOK_SECRETS[k], ns))) : Promise.resolve([]),
    o.installed ? client.find('cronjobs', 'linkerd-heartbeat', ns) : Promise.resolve(undefined),
  ]);
  const facts = configFacts(linkerdConfig);
  const installed: InstalledState | undefined = o.installed
    ? {
        webhookSecrets: Object.fromEntries(keys.flatMap((k, i) => (webhookSecrets[i] ? [[k, webhookSecrets[i]]] : []))),
        heartbeat: heartbeat,
      }
    : undefined;
  return {
    trustRoots,
    linkerdConfig,
    configAnchors: facts.anchors,
    scheme: facts.scheme ?? (issuer?.type === 'kubernetes.io/tls' ? 'kubernetes.io/tls' : undefined),
    externalCA: facts.externalCA,
    issuer,
    overrides,
    pods: pods.filter((p) => p.metadata?.labels?.[CONTROL_PLANE_NS_LABEL] === ns),
    installed,
  };
}

/** Reads the identity objects of the control plane in `namespace` (and its meshed pods when `pods`). */
export async function readIdentityObjects(
  selection: KubeSelection,
  namespace: string,
  o: { pods?: boolean; installed?: boolean } = {},
): Promise<IdentityObjects> {
  const client = await connectKube(selection);
  try {
    const objects = await read(client, namespace, { pods: o.pods ?? true, installed: o.installed ?? false });
    if (objects.linkerdConfig === undefined && objects.trustRoots === undefined) {
      throw new UserError(`Linkerd is not installed in namespace ${namespace}: ConfigMap ${LINKERD_CONFIG} not found`);
    }
    return objects;
  } finally {
    client.close();
  }
}
