import type { Values } from '../../src/core/values/index.js';
// fingerprint.js alone: the pki index would load the X.509 library for one hash.
import { sha256Hex } from '../../src/core/pki/fingerprint.js';

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
    'linkerd.io/created-by': input.createdBy,
    'linkerd.io/proxy-version': values.proxy.image.version || values.linkerdVersion,
    'linkerd.io/trust-root-sha256': sha256Hex(values.identityTrustAnchorsPEM),
  };
  const labels: Record<string, string> = { 'linkerd.io/control-plane-ns': input.controlPlaneNamespace };
  if (input.ownerKind && input.ownerName) labels[`linkerd.io/proxy-${input.ownerKind}`] = input.ownerName;
  labels['linkerd.io/workload-ns'] = input.workloadNamespace ?? 'default';
  return { annotations, labels };
}
