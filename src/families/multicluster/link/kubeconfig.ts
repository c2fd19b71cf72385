import yaml from 'js-yaml';
import { UserError } from '../../../core/errors.js';
import type { TargetKubeconfig } from './input.js';

/*
 * The kubeconfig the credentials Secrets carry: the target's current context alone, its user
 * replaced by the remote-access ServiceAccount holding only its token, and its cluster (the server
 * replaced by `--api-server-address` when given; CA data and the other fields kept).
 */

export interface RemoteKubeconfigInput {
  kubeconfig: TargetKubeconfig;
  serviceAccountName: string;
  token: string;
  apiServerAddress: string;
}

/** The kubeconfig as an object, in the field order client-go writes it. */
export function remoteKubeconfig(input: RemoteKubeconfigInput): Record<string, unknown> {
  const { currentContext, context, cluster } = input.kubeconfig;
  if (!currentContext || !context || !cluster) throw new UserError('could not extract current context from config');
  const server = input.apiServerAddress || cluster.server;
  return {
    apiVersion: 'v1',
    clusters: [{ cluster: { ...structuredClone(cluster), server }, name: context.cluster }],
    contexts: [{ context: { ...structuredClone(context), user: input.serviceAccountName }, name: currentContext }],
    'current-context': currentContext,
    kind: 'Config',
    preferences: {},
    users: [{ name: input.serviceAccountName, user: { token: input.token } }],
  };
}

/** The kubeconfig as the YAML file the service mirror loads. */
export function remoteKubeconfigYaml(input: RemoteKubeconfigInput): string {
  return yaml.dump(remoteKubeconfig(input), { noRefs: true, lineWidth: -1 });
}
