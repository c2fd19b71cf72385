/** What a multicluster render depends on besides the values. */
export interface MulticlusterContext {
  /** The release namespace: `linkerd-multicluster` for the CLI (no flag changes it). */
  namespace: string;
  /** `CLI` renders the Namespace object; a Helm install leaves the namespace to Helm. */
  releaseService: 'CLI' | 'Helm';
}

export const MULTICLUSTER_NAMESPACE = 'linkerd-multicluster';

export function cliContext(): MulticlusterContext {
  return { namespace: MULTICLUSTER_NAMESPACE, releaseService: 'CLI' };
}
