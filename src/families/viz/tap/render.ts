import { JSONPath } from 'jsonpath-plus';
import {
  PROXY_DIRECTIONS,
  HTTP_METHODS,
  SCHEMES,
  INBOUND,
  OUTBOUND,
  type Duration,
  type Header,
  type Registered,
  type TapEvent,
  type TcpAddress,
} from './proto.js';

/*
 * How `viz tap` prints an event (viz/cmd/tap.go): one `req`/`rsp`/`end` line, the same line with
 * the peers' and route's labels (`-o wide`), the event as indented JSON (`-o json`), or the part
 * of that JSON a JSONPath selects (`-o jsonpath=…`). The JSON follows Go's encoding/json: struct
 * field order, sorted map keys, `null` for absent maps and lists, HTML characters escaped.
 */

/** grpc-go's codes.Code names. */
const GRPC_CODES = [
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

export function grpcCodeName(code: number): string {
  return GRPC_CODES[code] ?? `Code(${code})`;
}

/** A protobuf enum's Go String(): its name, or the number when the name is unknown. */
const enumName = (names: readonly string[], n: number) => names[n] ?? String(n);

/** linkerd's HTTPMethodToString / formatScheme: the registered name or the unregistered text. */
export function registeredText(r: Registered | undefined, names: readonly string[]): string {
  if (r === undefined) return '';
  return 'registered' in r ? enumName(names, r.registered) : r.unregistered;
}

const hex4 = (n: bigint) => Number(n & 0xffffn);

/** Go's net.IP String(): dotted IPv4 (also for v4-mapped IPv6), RFC 5952 IPv6, '' for none. */
export function ipText(ip: TcpAddress['ip']): string {
  if (ip === undefined) return '';
  if ('ipv4' in ip) {
    const v = ip.ipv4 >>> 0;
    if (v === 0) return '';
    return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
  }
  const groups = [48n, 32n, 16n, 0n].map((s) => hex4(ip.first >> s)).concat([48n, 32n, 16n, 0n].map((s) => hex4(ip.last >> s)));
  const [, , , , , six = 0, seven = 0, eight = 0] = groups;
  if (groups.slice(0, 5).every((g) => g === 0) && six === 0xffff) return [seven >> 8, seven & 255, eight >> 8, eight & 255].join('.');
  // The longest run of two or more zero groups (the first of equals) becomes `::`.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const text = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (best < 0) return text(groups);
  return `${text(groups.slice(0, best))}::${text(groups.slice(best + bestLen))}`;
}

/** Go's net.JoinHostPort(ip, port). */
export function addressText(a: TcpAddress | undefined): string {
  const host = ipText(a?.ip);
  const port = String(a?.port ?? 0);
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** durationpb AsDuration().Microseconds(): truncated toward zero. */
export function micros(d: Duration | undefined): bigint {
  if (d === undefined) return 0n;
  return (d.seconds * 1_000_000_000n + BigInt(d.nanos)) / 1000n;
}

/** The default line (no `-o`). */
export function tapLine(e: TapEvent): string {
  const srcLabels = e.sourceMeta ?? {};
  const dstLabels = e.destinationMeta ?? {};
  let proxy = '???';
  let tls = '';
  if (e.proxyDirection === INBOUND) {
    proxy = 'in ';
    tls = srcLabels.tls ?? '';
  } else if (e.proxyDirection === OUTBOUND) {
    proxy = 'out';
    tls = dstLabels.tls ?? '';
  }
  const flow = `proxy=${proxy} src=${addressText(e.source)} dst=${addressText(e.destination)} tls=${tls}`;
  const h = e.http;
  if (h === undefined) return `unknown ${flow}`;
  const id = `${h.id.base}:${h.id.stream}`;
  switch (h.kind) {
    case 'requestInit':
      return `req id=${id} ${flow} :method=${registeredText(h.method, HTTP_METHODS)} :authority=${h.authority} :path=${h.path}`;
    case 'responseInit':
      return `rsp id=${id} ${flow} :status=${h.httpStatus} latency=${micros(h.sinceRequestInit)}µs`;
    case 'responseEnd': {
      const tail = `duration=${micros(h.sinceResponseInit)}µs response-length=${h.responseBytes}B`;
      if (h.eos && 'grpcStatusCode' in h.eos) return `end id=${id} ${flow} grpc-status=${grpcCodeName(h.eos.grpcStatusCode)} ${tail}`;
      if (h.eos && 'resetErrorCode' in h.eos) return `end id=${id} ${flow} reset-error=${h.eos.resetErrorCode} ${tail}`;
      return `end id=${id} ${flow} ${tail}`;
    }
  }
}

const labelWords = (prefix: string, labels: Record<string, string> | undefined) =>
  Object.entries(labels ?? {})
    .map(([k, v]) => `${prefix}_${k}=${v}`)
    .sort();

/** `-o wide`: the line, then the sorted `src_*`, `dst_*` and `rt_*` labels. Go prints route labels in map order; sorted here. */
export function tapLineWide(e: TapEvent): string {
  return [tapLine(e), ...labelWords('src', e.sourceMeta), ...labelWords('dst', e.destinationMeta), ...labelWords('rt', e.routeMeta)].join(' ');
}

// ---------------------------------------------------------------------------------------------
// JSON

type GoJson = null | string | number | bigint | boolean | GoJson[] | { [k: string]: GoJson };

const sortedMap = (labels: Record<string, string> | undefined): GoJson =>
  labels === undefined ? null : Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A durationpb.Duration through encoding/json: its non-zero fields, or null when absent. */
const durationJson = (d: Duration | undefined): GoJson =>
  d === undefined ? null : { ...(d.seconds !== 0n ? { seconds: d.seconds } : {}), ...(d.nanos !== 0 ? { nanos: d.nanos } : {}) };

function headersJson(headers: readonly Header[]): GoJson {
  const out = headers.flatMap((h): GoJson[] => {
    if (h.valueStr !== undefined) return [{ name: h.name, valueStr: h.valueStr }];
    if (h.valueBin !== undefined) return [{ name: h.name, valueBin: Buffer.from(h.valueBin).toString('base64') }];
    return [];
  });
  return out.length > 0 ? out : null;
}

const endpointJson = (a: TcpAddress | undefined, labels: Record<string, string> | undefined): GoJson => ({
  ip: ipText(a?.ip),
  port: a?.port ?? 0,
  metadata: sortedMap(labels),
});

/** The display object `-o json` prints (and `-o jsonpath` selects from). */
export function tapEventJson(e: TapEvent): { [k: string]: GoJson } {
  const out: { [k: string]: GoJson } = {
    source: endpointJson(e.source, e.sourceMeta),
    destination: endpointJson(e.destination, e.destinationMeta),
    routeMeta: sortedMap(e.routeMeta),
    proxyDirection: enumName(PROXY_DIRECTIONS, e.proxyDirection),
  };
  const h = e.http;
  if (h === undefined) return out;
  const id = { base: h.id.base, stream: h.id.stream };
  if (h.kind === 'requestInit') {
    out.requestInitEvent = {
      id,
      method: registeredText(h.method, HTTP_METHODS),
      scheme: registeredText(h.scheme, SCHEMES),
      authority: h.authority,
      path: h.path,
      headers: headersJson(h.headers),
    };
  } else if (h.kind === 'responseInit') {
    out.responseInitEvent = { id, sinceRequestInit: durationJson(h.sinceRequestInit), httpStatus: h.httpStatus, headers: headersJson(h.headers) };
  } else {
    const grpc = h.eos && 'grpcStatusCode' in h.eos ? h.eos.grpcStatusCode : 0;
    const reset = h.eos && 'resetErrorCode' in h.eos ? h.eos.resetErrorCode : 0;
    out.responseEndEvent = {
      id,
      sinceRequestInit: durationJson(h.sinceRequestInit),
      sinceResponseInit: durationJson(h.sinceResponseInit),
      responseBytes: h.responseBytes,
      trailers: headersJson(h.trailers),
      grpcStatusCode: grpc,
      ...(reset !== 0 ? { resetErrorCode: reset } : {}),
    };
  }
  return out;
}

/** Go's json string escaping: JSON's, plus `<`, `>`, `&`, U+2028 and U+2029 as \u escapes. */
function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** json.MarshalIndent(v, "", "  "). */
export function goJson(v: unknown, indent = ''): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + goJson(x, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, x]) => `${inner}${goString(k)}: ${goJson(x, inner)}`).join(',\n')}\n${indent}}`;
}

export function tapLineJson(e: TapEvent): string {
  return goJson(tapEventJson(e));
}

/**
 * linkerd's jsonpath helper: `-o jsonpath=EXPR` where EXPR is `a.b`, `.a.b`, `{a.b}` or `{.a.b}`.
 * Returns the per-event renderer; a bad expression makes every event print its error object, as
 * the real command does. A flag without an expression is refused up front.
 */
export function jsonPathRenderer(output: string): (e: TapEvent) => string {
  const parts = output.split('=');
  if (parts.length !== 2 || parts[1] === '') throw new Error('{"error jsonpath": "jsonpath filter not found"}');
  const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/.exec(parts[1] ?? '');
  if (!m) {
    const err = `{"error jsonpath": "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"}`;
    return () => err;
  }
  const path = `$.${m[1] ?? m[2]}`;
  return (e) => {
    let found: unknown[];
    try {
      found = JSONPath<unknown[]>({ path, json: tapEventJson(e), wrap: true, eval: 'safe' });
    } catch (err) {
      return `{"error parsing jsonpath":" ${(err as Error).message}" }`;
    }
    if (found.length === 0) return `{"error filtering JSON": "couldn't find any results matching with jsonpath filter"}`;
    return goJson(found[0]);
  };
}
