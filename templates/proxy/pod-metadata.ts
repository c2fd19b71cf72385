import type { Values } from '../../src/core/values/index.js';
// fingerprint.js alone: the pki index would load the X.509 library for one hash.
import { sha256Hex } from '../../src/core/pki/fingerprint.js';
import {
  CONTROL_PLANE_NS_LABEL,
  CREATED_BY_ANNOTATION,
  PROXY_VERSION_ANNOTATION,
  proxyOwnerLabel,
  TRUST_ROOT_ANNOTATION,
  WORKLOAD_NS_LABEL,
} from '../../src/core/mesh/names.js';

export interface InjectedMetadataInput {
  controlPlaneNamespace: string;
  /** Lower-case workload kind (`deployment`, `cronjob`…); undefined for a bare Pod. */
  ownerKind?: string;
  ownerName?: string;
  workloadNamespace?: string;
  createdBy: string;
}

/** Annotations and labels `inject --manual` puts on the pod template, as the proxy injector does. */
export function injectedPodMetadata(values: Values, input: InjectedMetadataInput): { annotations: Record<string, string>; labels: Record<string, string> } {
  const annotations: Record<string, string> = {
    [CREATED_BY_ANNOTATION]: input.createdBy,
    [PROXY_VERSION_ANNOTATION]: values.proxy.image.version || values.linkerdVersion,
    [TRUST_ROOT_ANNOTATION]: sha256Hex(values.identityTrustAnchorsPEM),
  };
  const labels: Record<string, string> = { [CONTROL_PLANE_NS_LABEL]: input.controlPlaneNamespace };
  if (input.ownerKind && input.ownerName) labels[proxyOwnerLabel(input.ownerKind)] = input.ownerName;
  labels[WORKLOAD_NS_LABEL] = input.workloadNamespace ?? 'default';
  return { annotations, labels };
}
