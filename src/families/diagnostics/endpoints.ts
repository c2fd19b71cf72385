import type { Client } from '@grpc/grpc-js';
import { grpcGoDetails } from '../../core/net/grpcStatusText.js';
import { DESTINATION_GET, decodeUpdate, encodeGetDestination, type Update, type WeightedAddr } from './proto/destination.js';

/*
 * `diagnostics endpoints`: Destination.Get for each authority at once, reading each stream until
 * it ends or the wait is over (the real command always reads for 5 s), keeping only `add` updates.
 */

export interface Endpoint {
  readonly namespace: string;
  readonly ip: string;
  readonly port: number;
  readonly pod: string;
  readonly service: string;
  readonly weight: number;
  readonly http2?: Record<string, unknown>;
  readonly labels: Record<string, string>;
}

function ipText(ip: WeightedAddr['ip']): string {
  if (!ip) return '';
  if ('ipv4' in ip) return [24, 16, 8, 0].map((s) => (ip.ipv4 >>> s) & 0xff).join('.');
  const hex = ip.first.toString(16).padStart(16, '0') + ip.last.toString(16).padStart(16, '0');
  const groups = (hex.match(/.{4}/g) ?? []).map((g) => g.replace(/^0+(?=.)/, ''));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

function endpointsOf(u: Update): Endpoint[] {
  if (!u.add) return [];
  const service = `${u.add.metricLabels.service ?? ''}.${u.add.metricLabels.namespace ?? ''}`;
  return u.add.addrs.map((a) => ({
    namespace: u.add?.metricLabels.namespace ?? '',
    ip: ipText(a.ip),
    port: a.port,
    pod: (a.metricLabels.pod ?? '').replace(/^.*\//, ''),
    service,
    weight: a.weight,
    ...(a.http2 ? { http2: a.http2 } : {}),
    labels: a.metricLabels,
  }));
}

export class DestinationError extends Error {}

export function getEndpoints(client: Client, authorities: readonly string[], token: string, waitMs: number): Promise<Endpoint[]> {
  return new Promise((resolve, reject) => {
    const found: Endpoint[] = [];
    let open = authorities.length;
    const calls = authorities.map((path) => {
      const call = client.makeServerStreamRequest(DESTINATION_GET, encodeGetDestination, decodeUpdate, { scheme: 'http:', path, contextToken: token });
      call.on('data', (u: Update) => found.push(...endpointsOf(u)));
      call.on('error', (e: Error & { details?: string }) => {
        if ((e as { code?: number }).code === 1) return; // cancelled by us
        // The first stream error aborts the command, as in the real one, which prints the status
        // message alone (grpc-go's desc, without `rpc error: code = …`).
        reject(new DestinationError(grpcGoDetails(e.details ?? e.message)));
        finish();
      });
      call.on('end', () => {
        if (--open === 0) finish();
      });
      return call;
    });
    const timer = setTimeout(() => finish(), waitMs);
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const c of calls) c.cancel();
      resolve(found);
    }
  });
}
