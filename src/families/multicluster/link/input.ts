import type { Secret, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';

/*
 * What link-gen reads from the target cluster and its kubeconfig, one field per read of the real
 * command, so the command's cluster reads map onto it one to one.
 */

/** The target's kubeconfig, reduced to what the credentials carry: the selected context and its cluster. */
export interface TargetKubeconfig {
  /** The current context (`--context` replaces it); undefined when the file names none. */
  currentContext?: string;
  /** That context's entry, as the kubeconfig file spells it (`cluster`, `namespace`, `user`, …). */
  context?: { cluster: string; namespace?: string; [field: string]: unknown };
  /** That context's cluster entry, as the file spells it (`server`, `certificate-authority-data`, …). */
  cluster?: { server: string; [field: string]: unknown };
}

export interface LinkGenReads {
  /**
   * GET ConfigMap `linkerd-config` in `-L`: its parsed `values`, or undefined when NotFound (the
   * caller passes any other API error through).
   */
  linkerdConfigValues: Record<string, unknown> | undefined;
  /** GET ServiceAccount `--service-account-name` in `--namespace` (NotFound is the caller's API error). */
  serviceAccount: ServiceAccount;
  /** LIST Secrets in `--namespace` with field selector `type=kubernetes.io/service-account-token`, in list order. */
  tokenSecrets: readonly Secret[];
  kubeconfig: TargetKubeconfig;
  /** GET Service `--gateway-name` in `--gateway-namespace`; only read (and required) with `--gateway`. */
  gatewayService?: Service;
}

/** link-gen's flags, with the real defaults filled in by linkGenOptions(). */
export interface LinkGenOptions {
  clusterName: string;
  /** `--namespace`: where the SA and token are read, and where Secret #1 and the Link go. */
  namespace: string;
  /** `-L`: linkerd-config's namespace, the Link's targetClusterLinkerdNamespace, Secret #2's namespace. */
  linkerdNamespace: string;
  apiServerAddress: string;
  serviceAccountName: string;
  gatewayName: string;
  gatewayNamespace: string;
  selector: string;
  remoteDiscoverySelector: string;
  federatedServiceSelector: string;
  /** Comma-separated; overrides the Service's ingress addresses. */
  gatewayAddresses: string;
  /** 0: the Service's port. */
  gatewayPort: number;
  excludedAnnotations: readonly string[];
  excludedLabels: readonly string[];
  gateway: boolean;
  /** The CLI version, for the Link's `linkerd.io/created-by`. */
  cliVersion: string;
}

export const LINK_GEN_DEFAULTS: Omit<LinkGenOptions, 'clusterName' | 'cliVersion'> = {
  namespace: 'linkerd-multicluster',
  linkerdNamespace: 'linkerd',
  apiServerAddress: '',
  serviceAccountName: 'linkerd-service-mirror-remote-access-default',
  gatewayName: 'linkerd-gateway',
  gatewayNamespace: 'linkerd-multicluster',
  selector: 'mirror.linkerd.io/exported=true',
  remoteDiscoverySelector: 'mirror.linkerd.io/exported=remote-discovery',
  federatedServiceSelector: 'mirror.linkerd.io/federated=member',
  gatewayAddresses: '',
  gatewayPort: 0,
  excludedAnnotations: [],
  excludedLabels: [],
  gateway: true,
};

/** The real flag defaults under what the user set. */
export function linkGenOptions(set: Partial<LinkGenOptions> & Pick<LinkGenOptions, 'clusterName' | 'cliVersion'>): LinkGenOptions {
  return { ...LINK_GEN_DEFAULTS, ...set };
}
