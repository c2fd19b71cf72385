import { describe, expect, it } from 'vitest';
import { OUTBOUND, type TapEvent } from '../../../../src/families/viz/tap/proto.js';
import { MAX_OUTSTANDING, topDuration, TopTable } from '../../../../src/families/viz/tap/topTable.js';

let stream = 0n;
/** The three events of one request from `src` pod to `dst` pod. */
function request(o: {
  src: string;
  dst: string;
  path: string;
  method?: number;
  status?: number;
  grpc?: number;
  reset?: boolean;
  ms: number;
  route?: string;
}): TapEvent[] {
  const id = { base: 1, stream: stream++ };
  const base = { sourceMeta: { pod: o.src }, destinationMeta: { pod: o.dst }, routeMeta: o.route ? { route: o.route } : undefined, proxyDirection: OUTBOUND };
  const eos = o.reset ? { resetErrorCode: 1 } : o.grpc !== undefined ? { grpcStatusCode: o.grpc } : undefined;
  return [
    { ...base, http: { kind: 'requestInit', id, method: { registered: o.method ?? 0 }, authority: 'a', path: o.path, headers: [] } },
    { ...base, http: { kind: 'responseInit', id, httpStatus: o.status ?? 200, headers: [] } },
    { ...base, http: { kind: 'responseEnd', id, sinceRequestInit: { seconds: 0n, nanos: o.ms * 1_000_000 }, responseBytes: 0n, eos, trailers: [] } },
  ];
}

const feed = (t: TopTable, events: TapEvent[][]) => events.flat().forEach((e) => t.add(e));

describe('viz top table', () => {
  it('merges requests with equal key columns and sorts rows by count, most first', () => {
    const t = new TopTable({ hideSources: false, routes: false });
    feed(t, [
      request({ src: 'web', dst: 'emoji', path: '/list', ms: 3 }),
      request({ src: 'web', dst: 'voting', path: '/vote', ms: 1 }),
      request({ src: 'web', dst: 'voting', path: '/vote', ms: 5, status: 503 }),
      request({ src: 'web', dst: 'voting', path: '/vote', ms: 2 }),
    ]);
    const { lines, headerRow } = t.screen();
    expect(lines.slice(0, headerRow)).toEqual(['(press q to quit)', '(press a/LeftArrowKey to scroll left, d/RightArrowKey to scroll right)', '']);
    expect(lines.slice(headerRow)).toEqual([
      'Source  Destination  Method      Path    Count    Best   Worst    Last  Success Rate',
      'web     voting       GET         /vote       3     1ms     5ms     2ms        66.67%',
      'web     emoji        GET         /list       1     3ms     3ms     3ms       100.00%',
    ]);
  });

  it('--hide-sources drops the Source column and merges across sources; --routes keys by route', () => {
    const hidden = new TopTable({ hideSources: true, routes: false });
    const events = [request({ src: 'a', dst: 'd', path: '/x', ms: 1, route: 'GET /x' }), request({ src: 'b', dst: 'd', path: '/y', ms: 1, route: 'GET /x' })];
    feed(hidden, events);
    expect(hidden.screen().lines.slice(3)).toEqual([
      'Destination  Method      Path   Count    Best   Worst    Last  Success Rate',
      'd            GET         /x         1     1ms     1ms     1ms       100.00%',
      'd            GET         /y         1     1ms     1ms     1ms       100.00%',
    ]);
    const routes = new TopTable({ hideSources: true, routes: true });
    feed(routes, events);
    expect(routes.screen().lines.slice(3)).toEqual([
      'Destination  Route    Count    Best   Worst    Last  Success Rate',
      'd            GET /x       2     1ms     1ms     1ms       100.00%',
    ]);
  });

  it('counts gRPC Unknown/DeadlineExceeded/Internal/Unavailable/DataLoss and resets as failures', () => {
    const t = new TopTable({ hideSources: false, routes: false });
    feed(t, [
      request({ src: 's', dst: 'd', path: '/p', ms: 1, grpc: 0 }),
      request({ src: 's', dst: 'd', path: '/p', ms: 1, grpc: 14 }),
      request({ src: 's', dst: 'd', path: '/p', ms: 1, reset: true }),
      request({ src: 's', dst: 'd', path: '/p', ms: 1, grpc: 5 }),
    ]);
    expect(t.rows[0]).toMatchObject({ count: 4, successes: 2, failures: 2 });
  });

  it('formats latencies as top does: µs, ms, then whole seconds', () => {
    expect([topDuration(999_400n), topDuration(1_499_999n), topDuration(2_500_000_000n), topDuration(65_000_000_000n)]).toEqual(['999µs', '1ms', '3s', '1m5s']);
  });

  it('forgets the oldest unanswered requests past its bound', () => {
    const t = new TopTable({ hideSources: false, routes: false });
    const all = Array.from({ length: MAX_OUTSTANDING + 1 }, (_, i) => request({ src: 's', dst: 'd', path: `/${i}`, ms: 1 }));
    for (const r of all) t.add(r[0]!);
    for (const r of all) t.add(r[2]!);
    expect(t.rows.length).toBe(MAX_OUTSTANDING);
    expect(t.rows.some((r) => r.path === '/0')).toBe(false);
  });
});
