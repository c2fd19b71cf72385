import type { Secret } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../core/errors.js';

/** The Secret type the service mirror and the destination controller watch for. */
export const REMOTE_KUBECONFIG_TYPE = 'mirror.linkerd.io/remote-kubeconfig';
const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';

/** `cluster-credentials-<cluster>`: the name the controller's Role grants, in both namespaces. */
export function credentialsSecretName(clusterName: string): string {
  return `cluster-credentials-${clusterName}`;
}

/**
 * The remote-access token: the first token Secret (in list order) whose ServiceAccount annotation
 * names the account, its `data.token` decoded. The real command's messages when there is none.
 */
export function serviceAccountToken(secrets: readonly Secret[], serviceAccountName: string): string {
  const secret = secrets.find((s) => s.metadata?.annotations?.[SA_NAME_ANNOTATION] === serviceAccountName);
  if (!secret) throw new UserError(`could not find service account token secret for ${serviceAccountName}`);
  const token = secret.data?.token;
  if (!token) throw new UserError(`could not find the token data in service account secret ${secret.metadata?.name ?? ''}`);
  return Buffer.from(token, 'base64').toString('utf8');
}

export interface CredentialsInput {
  clusterName: string;
  /** `--namespace`: Secret #1, for the service mirror controller. */
  namespace: string;
  /** `-L`: Secret #2, for the destination controller's cluster store. */
  linkerdNamespace: string;
  kubeconfigYaml: string;
  /** The target's `identityTrustDomain` and `clusterDomain`, from its linkerd-config. */
  trustDomain: string;
  clusterDomain: string;
}

function secret(metadata: NonNullable<Secret['metadata']>, kubeconfigYaml: string): Secret {
  // Kubernetes objects marshalled by client-go carry creationTimestamp: null.
  return {
    kind: 'Secret',
    apiVersion: 'v1',
    metadata: { name: metadata.name, namespace: metadata.namespace, creationTimestamp: null as unknown as string, ...metadata },
    data: { kubeconfig: Buffer.from(kubeconfigYaml, 'utf8').toString('base64') },
    type: REMOTE_KUBECONFIG_TYPE,
  };
}

/**
 * The two credentials Secrets, same name and kubeconfig: one in `--namespace` for the Link's
 * service mirror, one in `-L` (labelled with the cluster, annotated with its trust and cluster
 * domains) for the destination controller's remote discovery and federated services.
 */
export function credentialsSecrets(input: CredentialsInput): [Secret, Secret] {
  const name = credentialsSecretName(input.clusterName);
  return [
    secret({ name, namespace: input.namespace }, input.kubeconfigYaml),
    secret(
      {
        name,
        namespace: input.linkerdNamespace,
        labels: { 'multicluster.linkerd.io/cluster-name': input.clusterName },
        annotations: {
          'multicluster.linkerd.io/trust-domain': input.trustDomain,
          'multicluster.linkerd.io/cluster-domain': input.clusterDomain,
        },
      },
      input.kubeconfigYaml,
    ),
  ];
}
