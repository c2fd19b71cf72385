import * as grpc from '@grpc/grpc-js';
import type { KubeClient } from './kubeClient.js';
import { listenForward } from './portForwardListener.js';

/*
 * Plain-text gRPC to a pod's port, as the real CLI reaches the destination and policy controllers:
 * a gRPC client dialled to an ephemeral forward listener on 127.0.0.1 (portForwardListener).
 * Shared by every family that speaks gRPC to the cluster.
 */

export interface ForwardedGrpc {
  readonly client: grpc.Client;
  close(): void;
}

export async function grpcThroughPortForward(kube: KubeClient, namespace: string, pod: string, port: number): Promise<ForwardedGrpc> {
  const listener = await listenForward(kube, namespace, pod, port);
  return grpcAt(`127.0.0.1:${listener.port}`, () => listener.close());
}

/** Plain-text gRPC to `host:port` (`--api-addr`). */
export function grpcAt(address: string, onClose: () => void = () => undefined): ForwardedGrpc {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return {
    client,
    close() {
      client.close();
      onClose();
    },
  };
}

/**
 * The running pod of the Deployment named `deployment` (its single ReplicaSet owner's single
 * owner), as the real CLI picks the destination pod to port-forward to.
 */
export async function runningPodOf(kube: KubeClient, namespace: string, deployment: string): Promise<string> {
  const [pods, sets] = await Promise.all([kube.list('pods', { namespace }), kube.list('replicasets', { namespace })]);
  const owners = new Map(sets.map((rs) => [rs.metadata?.name ?? '', rs.metadata?.ownerReferences ?? []]));
  for (const pod of pods) {
    if (pod.status?.phase !== 'Running') continue;
    const refs = pod.metadata?.ownerReferences ?? [];
    if (refs.length !== 1 || refs[0]?.kind !== 'ReplicaSet') continue;
    const up = owners.get(refs[0].name) ?? [];
    if (up.length === 1 && up[0]?.name === deployment) return pod.metadata?.name ?? '';
  }
  throw new Error(`no running pods found for ${deployment}`);
}
