import type { Client } from '@grpc/grpc-js';
import { UserError } from '../../core/errors.js';
import { canonicalResourceName } from '../../core/kube/friendlyNames.js';
import { INBOUND_GET_PORT, OUTBOUND_GET, OutboundPolicy, PortSpec, Server, TrafficSpec } from './proto/messages.js';
import type { GoJson } from './proto/schema.js';
import { RpcError, unary } from './rpc.js';

/*
 * `diagnostics policy`: which policy API to ask, and the asking. A pod's port is asked of the
 * inbound API as workload `<ns>:<pod>`; a Service's port of the outbound API as authority
 * `<svc>.<ns>.svc:<port>`, with the token as the source workload.
 */

export type PolicyTarget =
  | { readonly kind: 'inbound'; readonly workload: string; readonly port: number }
  | { readonly kind: 'outbound'; readonly sourceWorkload: string; readonly authority: string };

/** Go's strconv.ParseUint(s, 10, 32), with its error text. */
function parseUint32(s: string): number {
  if (!/^[0-9]+$/.test(s)) throw new UserError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (n > 0xffffffff) throw new UserError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

export function parsePolicyArgs(resource: string, port: string, namespace: string, token: string): PolicyTarget {
  const parts = resource.split('/');
  if (parts.length === 1) throw new UserError('resource type and name are required');
  if (parts.length !== 2) throw new UserError(`invalid resource string: ${resource}`);
  const type = canonicalResourceName(parts[0] ?? '');
  const name = parts[1] ?? '';
  const n = parseUint32(port);
  if (type === 'pod') return { kind: 'inbound', workload: `${namespace}:${name}`, port: n };
  if (type === 'service') return { kind: 'outbound', sourceWorkload: token, authority: `${name}.${namespace}.svc:${n}` };
  throw new UserError(`invalid resource type ${resource}; must be one of Pod or Service`);
}

/** The decoded Server or OutboundPolicy, in the Go JSON view. gRPC failures become UserErrors with grpc-go's text. */
export async function queryPolicy(client: Client, target: PolicyTarget, deadlineMs: number): Promise<GoJson> {
  try {
    if (target.kind === 'inbound') return await unary(client, INBOUND_GET_PORT, PortSpec, { workload: target.workload, port: target.port }, Server, deadlineMs);
    return await unary(
      client,
      OUTBOUND_GET,
      TrafficSpec,
      { source_workload: target.sourceWorkload, Target: { Authority: target.authority } },
      OutboundPolicy,
      deadlineMs,
    );
  } catch (e) {
    if (e instanceof RpcError) throw new UserError(e.message, { cause: e });
    throw e;
  }
}
