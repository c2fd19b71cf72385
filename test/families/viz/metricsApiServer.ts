import * as grpc from '@grpc/grpc-js';
import { codec, METHODS, type MethodName, type MethodTypes } from '../../../src/families/viz/metricsApi/proto.js';

/*
 * A loopback linkerd2.viz.Api server (real @grpc/grpc-js): each method answers from a handler
 * the test sets, and every request is recorded. Unset methods answer UNIMPLEMENTED.
 */

export type Handler<M extends MethodName> = (request: MethodTypes[M][0]) => MethodTypes[M][1] | Error | 'hang';

export interface MetricsApiServer {
  port: number;
  address: string;
  calls: Array<{ method: MethodName; request: unknown }>;
  on<M extends MethodName>(method: M, handler: Handler<M>): void;
  stop(): Promise<void>;
}

export async function startMetricsApiServer(): Promise<MetricsApiServer> {
  const server = new grpc.Server();
  const handlers = new Map<MethodName, Handler<MethodName>>();
  const calls: MetricsApiServer['calls'] = [];
  const hanging = new Set<grpc.ServerUnaryCall<unknown, unknown>>();
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, m] of Object.entries(METHODS) as Array<[MethodName, (typeof METHODS)[MethodName]]>) {
    const req = codec<unknown>(m.request);
    const res = codec<unknown>(m.response);
    definition[name] = {
      path: m.path,
      requestStream: false,
      responseStream: false,
      requestSerialize: (v: unknown) => req.encode(v),
      requestDeserialize: (b: Buffer) => req.decode(b),
      responseSerialize: (v: unknown) => res.encode(v),
      responseDeserialize: (b: Buffer) => res.decode(b),
    };
  }
  const impl: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(METHODS) as MethodName[]) {
    impl[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      calls.push({ method: name, request: call.request });
      const handler = handlers.get(name);
      if (!handler) {
        callback({ code: grpc.status.UNIMPLEMENTED, details: `unknown method ${name}` });
        return;
      }
      const answer = handler(call.request as never);
      if (answer === 'hang') hanging.add(call);
      else if (answer instanceof Error) callback({ code: grpc.status.UNKNOWN, details: answer.message });
      else callback(null, answer);
    };
  }
  server.addService(definition, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    port,
    address: `127.0.0.1:${port}`,
    calls,
    on(method, handler) {
      handlers.set(method, handler as unknown as Handler<MethodName>);
    },
    stop: () => {
      server.forceShutdown();
      return Promise.resolve();
    },
  };
}
