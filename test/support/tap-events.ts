import type { ServerResponse } from 'node:http';
import { encodeApiError, encodeTapEvent, INBOUND, OUTBOUND, type TapEvent } from '../../src/families/viz/tap/proto.js';
import { frame } from '../../src/families/viz/tap/frames.js';
import type { StoredObject, TapCall, TapHandler } from './apiserver.js';

/* Tap events for tests and benches, and tap servers answering with them. */

export const vizNamespace: StoredObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'linkerd-viz', labels: { 'linkerd.io/extension': 'viz' } },
};

const ipv4 = (a: number, b: number, c: number, d: number) => ({ ipv4: ((a << 24) | (b << 16) | (c << 8) | d) >>> 0 });

/** One request's three events, outbound from web to voting over IPv4, plus odd ones. */
export function sampleEvents(): TapEvent[] {
  const src = { ip: ipv4(10, 42, 0, 7), port: 51234 };
  const dst = { ip: ipv4(10, 42, 0, 9), port: 8080 };
  const srcMeta = { pod: 'web-5f7d', namespace: 'emojivoto', deployment: 'web', tls: 'true' };
  const dstMeta = { pod: 'voting-6c9b', namespace: 'emojivoto', deployment: 'voting', tls: 'true' };
  const id = { base: 7, stream: 3n };
  return [
    {
      source: src,
      sourceMeta: srcMeta,
      destination: dst,
      destinationMeta: dstMeta,
      routeMeta: { route: 'POST /emojivoto.v1.VotingService/VoteDoughnut' },
      proxyDirection: OUTBOUND,
      http: {
        kind: 'requestInit',
        id,
        method: { registered: 1 },
        scheme: { registered: 0 },
        authority: 'voting-svc.emojivoto:8080',
        path: '/emojivoto.v1.VotingService/VoteDoughnut',
        headers: [
          { name: 'content-type', valueStr: 'application/grpc' },
          { name: 'x-bin', valueBin: Buffer.from('header-value-bin') },
          { name: 'x-html', valueStr: '<a&b>' },
        ],
      },
    },
    {
      source: src,
      sourceMeta: srcMeta,
      destination: dst,
      destinationMeta: dstMeta,
      proxyDirection: OUTBOUND,
      http: { kind: 'responseInit', id, sinceRequestInit: { seconds: 0n, nanos: 1_503_000 }, httpStatus: 200, headers: [] },
    },
    {
      source: src,
      sourceMeta: srcMeta,
      destination: dst,
      destinationMeta: dstMeta,
      proxyDirection: OUTBOUND,
      http: {
        kind: 'responseEnd',
        id,
        sinceRequestInit: { seconds: 0n, nanos: 1_900_000 },
        sinceResponseInit: { seconds: 1n, nanos: 250_000 },
        responseBytes: 5n,
        eos: { grpcStatusCode: 0 },
        trailers: [{ name: 'grpc-status', valueStr: '0' }],
      },
    },
    {
      source: { ip: { first: 0xff01000000000000n, last: 1n }, port: 443 },
      destination: { ip: { first: 0n, last: 0xffff0a2a0009n }, port: 80 },
      destinationMeta: { pod: 'my-pod', tls: 'no_identity' },
      proxyDirection: INBOUND,
      http: { kind: 'requestInit', id: { base: 1, stream: 18446744073709551615n }, method: { unregistered: 'PURGE' }, authority: 'h', path: '/', headers: [] },
    },
    {
      source: { ip: ipv4(0, 0, 0, 1), port: 0 },
      destination: { ip: { first: 0xff01000000000000n, last: 1n }, port: 0 },
      proxyDirection: INBOUND,
      http: {
        kind: 'responseEnd',
        id: { base: 1, stream: 0n },
        sinceResponseInit: { seconds: 100n, nanos: 0 },
        responseBytes: 1337n,
        eos: { resetErrorCode: 7 },
        trailers: [],
      },
    },
    {
      proxyDirection: OUTBOUND,
      http: { kind: 'responseEnd', id: { base: 2, stream: 9n }, responseBytes: 0n, eos: { grpcStatusCode: 666 }, trailers: [] },
    },
    { proxyDirection: 0 },
  ];
}

/** A tap server that records each call and answers with these frames, then ends the stream. */
export function framesServer(
  frames: Buffer[],
  calls: TapCall[] = [],
  opts: { end?: boolean; abort?: boolean; headers?: Record<string, string>; status?: number } = {},
): TapHandler {
  return (call: TapCall, res: ServerResponse) => {
    calls.push(call);
    res.writeHead(opts.status ?? 200, { 'Content-Type': 'application/octet-stream', ...opts.headers });
    res.flushHeaders();
    for (const f of frames) res.write(f);
    if (opts.abort) setTimeout(() => res.destroy(), 20);
    else if (opts.end !== false) res.end();
  };
}

export const eventFrames = (events: readonly TapEvent[]) => events.map((e) => frame(encodeTapEvent(e)));
export const apiErrorFrame = (message: string) => frame(encodeApiError(message));
