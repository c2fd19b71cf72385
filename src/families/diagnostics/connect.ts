import type { GlobalOptions } from '../../cli/globals.js';
import type { KubeClient } from '../../core/kube/kubeClient.js';
import type { ForwardedGrpc } from '../../core/kube/grpcForward.js';

/*
 * gRPC to a port of the linkerd-destination pod (the destination API on 8086, the policy API on
 * 8090), as `diagnostics policy` and `diagnostics profile` reach it: `--api-addr` as given, else a
 * port-forward to the running pod of the Deployment (or to --destination-pod) in -L. The forward
 * is opened once before the client is made, as the real CLI's Init does, so a missing pod is
 * reported at once rather than as an unreachable controller.
 */

export const DESTINATION_DEPLOYMENT = 'linkerd-destination';

export async function controllerGrpc(globals: GlobalOptions, kube: KubeClient | undefined, destinationPod: string, port: number): Promise<ForwardedGrpc> {
  const grpcForward = await import('../../core/kube/grpcForward.js');
  if (globals.apiAddr) return grpcForward.grpcAt(globals.apiAddr);
  if (!kube) {
    const { connectKube } = await import('../../core/kube/kubeClient.js');
    kube = await connectKube(globals);
  }
  const ns = globals.linkerdNamespace;
  const pod = destinationPod || (await grpcForward.runningPodOf(kube, ns, DESTINATION_DEPLOYMENT));
  const { portForward } = await import('../../core/kube/portForward.js');
  (await portForward(kube, ns, pod, port)).destroy();
  return grpcForward.grpcThroughPortForward(kube, ns, pod, port);
}
