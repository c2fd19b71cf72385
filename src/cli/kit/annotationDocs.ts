/*
 * The proxy annotations `linkerd doc` documents, with linkerd's descriptions as its current
 * reference pages print them (the `Appache` is theirs). `config.linkerd.io/disable-identity` is
 * left out: linkerd no longer reads it.
 */

import { INJECT_ANNOTATION } from '../../core/mesh/names.js';

export interface AnnotationDoc {
  readonly Name: string;
  readonly Description: string;
}

const doc = (Name: string, Description: string): AnnotationDoc => ({ Name, Description });

export const ANNOTATION_DOCS: readonly AnnotationDoc[] = [
  doc(INJECT_ANNOTATION, 'Controls whether or not a pod should be injected; accepted values are `enabled`, `disabled` and `ingress`'),
  doc('config.linkerd.io/proxy-image', 'Linkerd proxy container image name'),
  doc('config.linkerd.io/image-pull-policy', 'Docker image pull policy'),
  doc('config.linkerd.io/init-image', 'Linkerd init container image name'),
  doc('config.linkerd.io/init-image-version', 'Linkerd init container image version'),
  doc('config.linkerd.io/debug-image', 'Linkerd debug container image name'),
  doc('config.linkerd.io/debug-image-version', 'Linkerd debug container image version'),
  doc('config.linkerd.io/debug-image-pull-policy', 'Docker image pull policy for debug image'),
  doc('config.linkerd.io/control-port', 'Proxy port to use for control'),
  doc(
    'config.linkerd.io/skip-inbound-ports',
    'Ports that should skip the proxy and send directly to the application. Comma-separated list of values, where each value can be a port number or a range `a-b`.',
  ),
  doc(
    'config.linkerd.io/opaque-ports',
    "Ports that skip the proxy's protocol detection mechanism and are proxied opaquely. Comma-separated list of values, where each value can be a port number or a range `a-b`.",
  ),
  doc(
    'config.linkerd.io/skip-outbound-ports',
    'Outbound ports that should skip the proxy. Comma-separated list of values, where each value can be a port number or a range `a-b`.',
  ),
  doc('config.linkerd.io/inbound-port', 'Proxy port to use for inbound traffic'),
  doc('config.linkerd.io/admin-port', 'Proxy port to serve metrics on'),
  doc('config.linkerd.io/outbound-port', 'Proxy port to use for outbound traffic'),
  doc('config.linkerd.io/proxy-cpu-request', 'Amount of CPU units that the proxy sidecar requests'),
  doc('config.linkerd.io/proxy-memory-request', 'Amount of Memory that the proxy sidecar requests'),
  doc('config.linkerd.io/proxy-cpu-limit', 'Maximum amount of CPU units that the proxy sidecar can use'),
  doc('config.linkerd.io/proxy-memory-limit', 'Maximum amount of Memory that the proxy sidecar can use'),
  doc('config.linkerd.io/proxy-uid', 'Run the proxy under this user ID'),
  doc('config.linkerd.io/proxy-log-level', 'Log level for the proxy'),
  doc('config.linkerd.io/proxy-log-format', 'Log format (plain or json) for the proxy'),
  doc('config.linkerd.io/enable-external-profiles', 'Enable service profiles for non-Kubernetes services'),
  doc('config.linkerd.io/proxy-version', 'Tag to be used for the Linkerd proxy images'),
  doc('config.linkerd.io/enable-debug-sidecar', 'Inject a debug sidecar for data plane debugging'),
  doc('config.linkerd.io/proxy-outbound-connect-timeout', 'Used to configure the outbound TCP connection timeout in the proxy'),
  doc(
    'config.alpha.linkerd.io/proxy-wait-before-exit-seconds',
    "Adds a preStop hook to the proxy container to delay receiving SIGTERM signal from Kubernetes but no longer than pod's `terminationGracePeriodSeconds`. Defaults to `0`",
  ),
  doc('config.linkerd.io/proxy-await', 'The application container will not start until the proxy is ready; accepted values are `enabled` and `disabled`'),
  doc('config.linkerd.io/close-wait-timeout', 'Sets nf_conntrack_tcp_timeout_close_wait. Accepts a duration string, e.g. `1m` or `3600s`'),
  doc(
    'config.linkerd.io/access-log',
    'Enables HTTP access logging in the proxy. Accepted values are `apache`, to output the access log in the Appache Common Log Format, and `json`, to output the access log in JSON.',
  ),
  doc('config.linkerd.io/default-inbound-policy', "Proxy's default inbound policy"),
  doc(
    'config.beta.linkerd.io/proxy-enable-native-sidecar',
    'Enable KEP-753 native sidecars. This is a beta feature. It requires Kubernetes >= 1.29. If enabled, .proxy.waitBeforeExitSeconds should not be used.',
  ),
  doc(
    'config.alpha.linkerd.io/proxy-enable-native-sidecar',
    'Enable KEP-753 native sidecars. This is a beta feature. It requires Kubernetes >= 1.29. If enabled, .proxy.waitBeforeExitSeconds should not be used. Deprecated in favor of config.beta.linkerd.io/proxy-enable-native-sidecar',
  ),
];
