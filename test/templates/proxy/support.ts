import { defaultValues, type Values } from '../../../src/core/values/index.js';

/** Shared by the proxy-spec tests: a stand-in trust-anchor bundle (never parsed by the templates). */
export const ANCHORS = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

/** Default values with the stand-in anchors, edited by `edit`. */
export function values(edit: (v: Values) => void = () => {}): Values {
  const v = defaultValues();
  v.identityTrustAnchorsPEM = ANCHORS;
  edit(v);
  return v;
}

/** The proxy's trace variables with tracing on and a meshed collector, in spec order. */
export const TRACE_VARS = [
  'LINKERD2_PROXY_TRACE_ATTRIBUTES_PATH',
  'LINKERD2_PROXY_TRACE_ANNOTATIONS_PATH',
  'LINKERD2_PROXY_TRACE_PROTOCOL',
  'LINKERD2_PROXY_TRACE_SERVICE_NAME',
  'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_ADDR',
  'LINKERD2_PROXY_TRACE_COLLECTOR_SVC_NAME',
  'LINKERD2_PROXY_TRACE_EXTRA_ATTRIBUTES',
];
