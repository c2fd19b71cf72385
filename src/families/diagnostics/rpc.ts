import { status, type Client, type ServiceError } from '@grpc/grpc-js';
import { grpcErrorText, grpcGoDetails } from '../../core/net/grpcStatusText.js';
import { decode, encode, type GoJson, type MessageDef } from './proto/schema.js';

/*
 * One request to a proxy-API service, answered by one message: a unary call (policy) or the
 * first message of a server stream (GetProfile). Every call has a deadline. Failures are
 * RpcErrors whose text is grpc-go's (`rpc error: code = NotFound desc = unknown server`), which
 * the real CLI prints as is.
 */

export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(grpcErrorText(code, details));
  }
}

function rpcError(e: ServiceError, deadlineMs: number): RpcError {
  // A deadline of ours reads as Go's expired context.
  if (e.code === status.DEADLINE_EXCEEDED && /^Deadline exceeded/i.test(e.details)) return new RpcError(4, 'context deadline exceeded');
  return new RpcError(e.code, grpcGoDetails(e.details || e.message) || `no answer within ${deadlineMs} ms`);
}

export function unary(client: Client, method: string, reqDef: MessageDef, req: GoJson, resDef: MessageDef, deadlineMs: number): Promise<GoJson> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      method,
      (m: GoJson) => encode(reqDef, m),
      (b: Buffer) => decode(resDef, b),
      req,
      { deadline: Date.now() + deadlineMs },
      (e, res) => (e ? reject(rpcError(e, deadlineMs)) : resolve(res ?? {})),
    );
  });
}

/** The first message of a server stream; a stream that ends without one fails with `EOF`, as Go's Recv. */
export function firstOfStream(client: Client, method: string, reqDef: MessageDef, req: GoJson, resDef: MessageDef, deadlineMs: number): Promise<GoJson> {
  return new Promise((resolve, reject) => {
    const call = client.makeServerStreamRequest(
      method,
      (m: GoJson) => encode(reqDef, m),
      (b: Buffer) => decode(resDef, b),
      req,
      { deadline: Date.now() + deadlineMs },
    );
    let done = false;
    call.on('data', (m: GoJson) => {
      if (done) return;
      done = true;
      resolve(m);
      call.cancel();
    });
    call.on('error', (e: ServiceError) => {
      if (done) return;
      done = true;
      reject(rpcError(e, deadlineMs));
    });
    call.on('end', () => {
      if (done) return;
      done = true;
      reject(new Error('EOF'));
    });
  });
}
