/** Names every part of the mesh shares: labels, annotations and variables, as linkerd's charts and proxy spell them. */

// Every family reads these names from here, never as literals: a family that writes or selects
// `linkerd.io/control-plane-ns` by hand is one rename away from not seeing the mesh.

/* ── Labels ─────────────────────────────────────────────────────────────── */

/** The label on every control-plane object and meshed pod, naming the control plane's namespace. */
export const CONTROL_PLANE_NS_LABEL = 'linkerd.io/control-plane-ns';

/** The label naming a control-plane component (destination, identity, proxy-injector, …). */
export const CONTROL_PLANE_COMPONENT_LABEL = 'linkerd.io/control-plane-component';

/** The label on an extension's namespace (`viz`, `multicluster`, …): how `check` and `uninstall` find extensions. */
export const EXTENSION_LABEL = 'linkerd.io/extension';

/** The label on the control plane's own namespace. */
export const IS_CONTROL_PLANE_LABEL = 'linkerd.io/is-control-plane';

/** The label on CNI plugin objects, which carry the control-plane label too but are not the control plane's. */
export const CNI_RESOURCE_LABEL = 'linkerd.io/cni-resource';

/** The label on a meshed pod naming its workload's namespace. */
export const WORKLOAD_NS_LABEL = 'linkerd.io/workload-ns';

/** `linkerd.io/proxy-<kind>: <name>`: the label on a meshed pod naming the workload that owns it (`deployment`, `statefulset`, …). */
export function proxyOwnerLabel(kind: string): string {
  return `linkerd.io/proxy-${kind}`;
}

/* ── Annotations ────────────────────────────────────────────────────────── */

/** Whether the proxy injector meshes a pod (or every pod of a namespace): `enabled`, `disabled` or `ingress`. */
export const INJECT_ANNOTATION = 'linkerd.io/inject';
export const INJECT_ENABLED = 'enabled';
export const INJECT_DISABLED = 'disabled';
export const INJECT_INGRESS = 'ingress';

/** What made an object or injected a pod (`linkerd/cli <version>`, `linkerd/proxy-injector <version>`). */
export const CREATED_BY_ANNOTATION = 'linkerd.io/created-by';

/** The proxy version an injected pod runs. */
export const PROXY_VERSION_ANNOTATION = 'linkerd.io/proxy-version';

/** The SHA-256 of the trust anchors a pod was injected with: how `check` and rotation find stale pods. */
export const TRUST_ROOT_ANNOTATION = 'linkerd.io/trust-root-sha256';

/* ── ConfigMaps and Secrets of the control plane ────────────────────────── */

/** The ConfigMap holding the control plane's Helm values (key `values`). */
export const LINKERD_CONFIG = 'linkerd-config';

/** The ConfigMap holding the trust anchors proxies verify peers with, under TRUST_BUNDLE_KEY. */
export const TRUST_ROOTS_CONFIGMAP = 'linkerd-identity-trust-roots';
export const TRUST_BUNDLE_KEY = 'ca-bundle.crt';

/** The Secret holding the identity issuer's certificate and key. */
export const ISSUER_SECRET = 'linkerd-identity-issuer';

/* ── The CNI plugin (linkerd install-cni, check's linkerd-cni-plugin category) ── */

/**
 * The CNI plugin's name: its namespace (where `install-cni` renders, the default of
 * `--cni-namespace`), its ServiceAccount, ClusterRole, ClusterRoleBinding and DaemonSet, and the
 * plugin's name and type in the node's CNI configuration.
 */
export const CNI_NAME = 'linkerd-cni';

/** The CNI plugin's ConfigMap (the network config and the host directories). */
export const CNI_CONFIG_MAP = 'linkerd-cni-config';

/* ── Containers and ports of a meshed pod ───────────────────────────────── */

export const PROXY_CONTAINER_NAME = 'linkerd-proxy';
export const PROXY_INIT_CONTAINER_NAME = 'linkerd-init';
export const NETWORK_VALIDATOR_CONTAINER_NAME = 'linkerd-network-validator';
export const DEBUG_CONTAINER_NAME = 'linkerd-debug';

/** The proxy container's inbound port name. */
export const PROXY_PORT_NAME = 'linkerd-proxy';

/** The proxy container's admin port name (metrics, readiness, the identity `linkerd identity` dials). */
export const ADMIN_PORT_NAME = 'linkerd-admin';

/* ── Proxy environment ──────────────────────────────────────────────────── */

/** The proxy's variable holding the trust anchors it verifies peers with (PEM). */
export const TRUST_ANCHORS_ENV = 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS';
