/** Names every part of the mesh shares: labels, annotations and variables, as linkerd's charts and proxy spell them. */

/** The label on every control-plane object and meshed pod, naming the control plane's namespace. */
export const CONTROL_PLANE_NS_LABEL = 'linkerd.io/control-plane-ns';

/** The label naming a control-plane component (destination, identity, proxy-injector, …). */
export const CONTROL_PLANE_COMPONENT_LABEL = 'linkerd.io/control-plane-component';

/** The proxy's variable holding the trust anchors it verifies peers with (PEM). */
export const TRUST_ANCHORS_ENV = 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS';
