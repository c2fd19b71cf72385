import * as grpc from '@grpc/grpc-js';
import { grpcAt, grpcThroughPortForward, type ForwardedGrpc } from '../../../core/kube/grpcForward.js';
import type { KubeClient } from '../../../core/kube/kubeClient.js';
import { codec, METHODS, type MethodName, type MethodTypes } from './proto.js';

/*
 * The one client of linkerd's metrics API (linkerd2.viz.Api, port 8085 of the metrics-api pod):
 * plain-text gRPC over a port-forward, or straight to `--api-addr host:port`. Every viz command and
 * check that asks the metrics API goes through it. Each call has a deadline (the real CLI has none,
 * and hangs on a metrics-api that accepts but never answers).
 */

export const METRICS_API_PORT = 8085;
export const METRICS_API_DEPLOYMENT = 'metrics-api';

/** The deadline of each call; tests shorten it. */
export const metricsApiDeadline = { ms: 30_000 };

/** Go's names of the gRPC status codes, as `rpc error: code = … desc = …` prints them. */
const GO_CODES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

/** A failed call, worded as grpc-go words a status error. */
export class MetricsApiError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`rpc error: code = ${GO_CODES[code] ?? `Code(${code})`} desc = ${details}`);
    this.name = 'MetricsApiError';
  }
}

export interface MetricsApi {
  call<M extends MethodName>(method: M, request: MethodTypes[M][0]): Promise<MethodTypes[M][1]>;
  /** Calls made so far (the benchmark counts them). */
  readonly calls: number;
  close(): void;
}

function over(conn: ForwardedGrpc): MetricsApi {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    call(method, request) {
      calls++;
      const m = METHODS[method];
      const req = codec<typeof request>(m.request);
      const res = codec<MethodTypes[typeof method][1]>(m.response);
      return new Promise((resolve, reject) => {
        conn.client.makeUnaryRequest(
          m.path,
          (v: typeof request) => req.encode(v),
          (b: Buffer) => res.decode(b),
          request,
          new grpc.Metadata(),
          { deadline: Date.now() + metricsApiDeadline.ms },
          (err: grpc.ServiceError | null, value?: MethodTypes[typeof method][1]) => {
            if (err) reject(new MetricsApiError(err.code, err.details));
            else if (value === undefined) reject(new MetricsApiError(13, 'empty response'));
            else resolve(value);
          },
        );
      });
    },
    close: () => conn.close(),
  };
}

/** The metrics API at `--api-addr host:port`. */
export function metricsApiAt(address: string): MetricsApi {
  return over(grpcAt(address));
}

/** The metrics API of a pod, through a port-forward of the API server. */
export async function metricsApiOfPod(kube: KubeClient, namespace: string, pod: string): Promise<MetricsApi> {
  return over(await grpcThroughPortForward(kube, namespace, pod, METRICS_API_PORT));
}
