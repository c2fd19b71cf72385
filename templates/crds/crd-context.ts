/** What a CRD render depends on besides the CRDs themselves. */
export interface CrdContext {
  /** The control-plane namespace, recorded on every CRD so `uninstall`/`prune` can find it. */
  namespace: string;
  /** The CLI version, written into the `linkerd.io/created-by` annotation. */
  cliVersion: string;
  /** The linkerd-crds chart version, written into the `helm.sh/chart` label. */
  chartVersion: string;
  /** Also render the Gateway API route CRDs Linkerd can provide (the Gateway API decision of `install --crds` decides this). */
  installGatewayAPI?: boolean;
}
