import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/*
 * The messages of linkerd2.tap that `viz tap`, `top` and `profile --tap` send and read, written
 * from the field numbers of viz_tap.proto, viz.proto (linkerd2.viz) and common/net.proto. Encoders
 * for both directions: the CLI encodes requests and decodes events; tests and benches do the
 * reverse. A malformed message (a field overrunning its parent, a wrong wire type) throws.
 */

export interface Resource {
  namespace: string;
  type: string;
  name: string;
}

export interface ResourceSelection {
  resource: Resource;
  labelSelector: string;
}

/** One HTTP condition of a tap match (a oneof: exactly one key). */
export type HttpMatch = { scheme: string } | { method: string } | { authority: string } | { path: string };

/** The matches the CLI sends: all of (destinations | http) conditions. */
export type TapMatch = { destinations: ResourceSelection } | { http: HttpMatch };

export interface TapByResourceRequest {
  target: ResourceSelection;
  matches: TapMatch[];
  maxRps: number;
  /** `extract.http.headers`: ask for request and response headers (`-o json`). */
  extractHeaders: boolean;
}

export type IpAddress = { ipv4: number } | { first: bigint; last: bigint };

export interface TcpAddress {
  ip?: IpAddress;
  port: number;
}

export interface Duration {
  seconds: bigint;
  nanos: number;
}

export interface StreamId {
  base: number;
  stream: bigint;
}

export type Registered = { registered: number } | { unregistered: string };

export interface Header {
  name: string;
  valueStr?: string;
  valueBin?: Uint8Array;
}

export interface RequestInit {
  kind: 'requestInit';
  id: StreamId;
  method?: Registered;
  scheme?: Registered;
  authority: string;
  path: string;
  headers: Header[];
}

export interface ResponseInit {
  kind: 'responseInit';
  id: StreamId;
  sinceRequestInit?: Duration;
  httpStatus: number;
  headers: Header[];
}

export interface ResponseEnd {
  kind: 'responseEnd';
  id: StreamId;
  sinceRequestInit?: Duration;
  sinceResponseInit?: Duration;
  responseBytes: bigint;
  eos?: { grpcStatusCode: number } | { resetErrorCode: number };
  trailers: Header[];
}

export type HttpEvent = RequestInit | ResponseInit | ResponseEnd;

/** TapEvent.ProxyDirection. */
export const PROXY_DIRECTIONS = ['UNKNOWN', 'INBOUND', 'OUTBOUND'] as const;
export const INBOUND = 1;
export const OUTBOUND = 2;

export interface TapEvent {
  source?: TcpAddress;
  /** EndpointMeta labels; undefined when absent or empty (Go's nil map). */
  sourceMeta?: Record<string, string>;
  destination?: TcpAddress;
  destinationMeta?: Record<string, string>;
  routeMeta?: Record<string, string>;
  proxyDirection: number;
  http?: HttpEvent;
}

/** viz.proto's HttpMethod.Registered and Scheme.Registered names, by number. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'HEAD', 'TRACE'] as const;
export const SCHEMES = ['HTTP', 'HTTPS'] as const;

// ---------------------------------------------------------------------------------------------
// Encoding

const LEN = WireType.LengthDelimited;

function writeResource(w: BinaryWriter, field: number, r: Resource): void {
  w.tag(field, LEN).fork();
  if (r.namespace) w.tag(1, LEN).string(r.namespace);
  if (r.type) w.tag(2, LEN).string(r.type);
  if (r.name) w.tag(3, LEN).string(r.name);
  w.join();
}

function writeSelection(w: BinaryWriter, field: number, s: ResourceSelection): void {
  w.tag(field, LEN).fork();
  writeResource(w, 1, s.resource);
  if (s.labelSelector) w.tag(2, LEN).string(s.labelSelector);
  w.join();
}

const HTTP_MATCH_FIELDS = { scheme: 1, method: 2, authority: 3, path: 4 } as const;

export function encodeTapByResourceRequest(req: TapByResourceRequest): Uint8Array {
  const w = new BinaryWriter();
  writeSelection(w, 1, req.target);
  // match { all { matches: [...] } }, always present as the real CLI sends it.
  w.tag(2, LEN).fork().tag(1, LEN).fork();
  for (const m of req.matches) {
    w.tag(1, LEN).fork();
    if ('destinations' in m) writeSelection(w, 4, m.destinations);
    else {
      const [key, value] = Object.entries(m.http)[0] as [keyof typeof HTTP_MATCH_FIELDS, string];
      w.tag(5, LEN).fork().tag(HTTP_MATCH_FIELDS[key], LEN).string(value).join();
    }
    w.join();
  }
  w.join().join();
  if (req.maxRps !== 0) w.tag(3, WireType.Bit32).float(req.maxRps);
  // extract: an empty message, or extract { http { headers {} } }.
  w.tag(4, LEN).fork();
  if (req.extractHeaders) w.tag(1, LEN).fork().tag(1, LEN).fork().join().join();
  w.join();
  return w.finish();
}

function writeLabels(w: BinaryWriter, field: number, labels: Record<string, string> | undefined): void {
  if (labels === undefined) return;
  w.tag(field, LEN).fork();
  for (const [k, v] of Object.entries(labels)) w.tag(1, LEN).fork().tag(1, LEN).string(k).tag(2, LEN).string(v).join();
  w.join();
}

function writeAddress(w: BinaryWriter, field: number, a: TcpAddress | undefined): void {
  if (a === undefined) return;
  w.tag(field, LEN).fork();
  if (a.ip) {
    w.tag(1, LEN).fork();
    if ('ipv4' in a.ip) w.tag(1, WireType.Bit32).fixed32(a.ip.ipv4);
    else w.tag(2, LEN).fork().tag(1, WireType.Bit64).fixed64(a.ip.first).tag(2, WireType.Bit64).fixed64(a.ip.last).join();
    w.join();
  }
  if (a.port) w.tag(2, WireType.Varint).uint32(a.port);
  w.join();
}

function writeStreamId(w: BinaryWriter, id: StreamId): void {
  w.tag(1, LEN).fork();
  if (id.base) w.tag(1, WireType.Varint).uint32(id.base);
  if (id.stream) w.tag(2, WireType.Varint).uint64(id.stream);
  w.join();
}

function writeDuration(w: BinaryWriter, field: number, d: Duration | undefined): void {
  if (d === undefined) return;
  w.tag(field, LEN).fork();
  if (d.seconds) w.tag(1, WireType.Varint).int64(d.seconds);
  if (d.nanos) w.tag(2, WireType.Varint).int32(d.nanos);
  w.join();
}

function writeRegistered(w: BinaryWriter, field: number, r: Registered | undefined): void {
  if (r === undefined) return;
  w.tag(field, LEN).fork();
  if ('registered' in r) w.tag(1, WireType.Varint).int32(r.registered);
  else w.tag(2, LEN).string(r.unregistered);
  w.join();
}

function writeHeaders(w: BinaryWriter, field: number, headers: readonly Header[]): void {
  if (headers.length === 0) return;
  w.tag(field, LEN).fork();
  for (const h of headers) {
    w.tag(1, LEN).fork().tag(1, LEN).string(h.name);
    if (h.valueBin !== undefined) w.tag(3, LEN).bytes(h.valueBin);
    else w.tag(2, LEN).string(h.valueStr ?? '');
    w.join();
  }
  w.join();
}

/** A TapEvent's bytes (what the tap server sends in each frame). */
export function encodeTapEvent(e: TapEvent): Uint8Array {
  const w = new BinaryWriter();
  writeAddress(w, 1, e.source);
  writeAddress(w, 2, e.destination);
  if (e.http) {
    const h = e.http;
    w.tag(3, LEN).fork();
    if (h.kind === 'requestInit') {
      w.tag(1, LEN).fork();
      writeStreamId(w, h.id);
      writeRegistered(w, 2, h.method);
      writeRegistered(w, 3, h.scheme);
      if (h.authority) w.tag(4, LEN).string(h.authority);
      if (h.path) w.tag(5, LEN).string(h.path);
      writeHeaders(w, 6, h.headers);
    } else if (h.kind === 'responseInit') {
      w.tag(2, LEN).fork();
      writeStreamId(w, h.id);
      writeDuration(w, 2, h.sinceRequestInit);
      if (h.httpStatus) w.tag(3, WireType.Varint).uint32(h.httpStatus);
      writeHeaders(w, 4, h.headers);
    } else {
      w.tag(3, LEN).fork();
      writeStreamId(w, h.id);
      writeDuration(w, 2, h.sinceRequestInit);
      writeDuration(w, 3, h.sinceResponseInit);
      if (h.responseBytes) w.tag(4, WireType.Varint).uint64(h.responseBytes);
      if (h.eos) {
        w.tag(5, LEN).fork();
        if ('grpcStatusCode' in h.eos) w.tag(1, WireType.Varint).uint32(h.eos.grpcStatusCode);
        else w.tag(2, WireType.Varint).uint32(h.eos.resetErrorCode);
        w.join();
      }
      writeHeaders(w, 6, h.trailers);
    }
    w.join().join();
  }
  writeLabels(w, 4, e.destinationMeta);
  writeLabels(w, 5, e.sourceMeta);
  if (e.proxyDirection) w.tag(6, WireType.Varint).int32(e.proxyDirection);
  writeLabels(w, 7, e.routeMeta);
  return w.finish();
}

/** viz.ApiError, the body of an answer carrying the `linkerd-error` header. */
export function encodeApiError(error: string): Uint8Array {
  return new BinaryWriter().tag(1, LEN).string(error).finish();
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** Reads the fields of a message ending at `end`; a field running past `end` is malformed. */
function each(r: BinaryReader, end: number, onField: (field: number, type: WireType) => void): void {
  while (r.pos < end) {
    const [field, type] = r.tag();
    onField(field, type);
  }
  if (r.pos !== end) throw new Error('a field runs past the end of its message');
}

/** The end offset of the length-delimited field at the reader's position. */
function sub(r: BinaryReader, type: WireType): number {
  if (type !== LEN) throw new Error(`wire type ${type} where a message was expected`);
  const length = r.uint32();
  const end = r.pos + length;
  if (end > r.len) throw new Error('a message runs past the end of the frame');
  return end;
}

const big = (v: bigint | string): bigint => BigInt(v);

function readLabels(r: BinaryReader, type: WireType, into: Record<string, string>): void {
  each(r, sub(r, type), (field, t) => {
    if (field !== 1) return void r.skip(t);
    let key = '';
    let value = '';
    each(r, sub(r, t), (f, tt) => {
      if (f === 1) key = r.string();
      else if (f === 2) value = r.string();
      else r.skip(tt);
    });
    into[key] = value;
  });
}

function readMeta(r: BinaryReader, type: WireType): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  readLabels(r, type, labels);
  return Object.keys(labels).length > 0 ? labels : undefined;
}

function readAddress(r: BinaryReader, type: WireType): TcpAddress {
  const a: TcpAddress = { port: 0 };
  each(r, sub(r, type), (field, t) => {
    if (field === 1) {
      each(r, sub(r, t), (f, tt) => {
        if (f === 1) a.ip = { ipv4: r.fixed32() };
        else if (f === 2) {
          const v6 = { first: 0n, last: 0n };
          each(r, sub(r, tt), (g, gt) => {
            if (g === 1) v6.first = big(r.fixed64());
            else if (g === 2) v6.last = big(r.fixed64());
            else r.skip(gt);
          });
          a.ip = v6;
        } else r.skip(tt);
      });
    } else if (field === 2) a.port = r.uint32();
    else r.skip(t);
  });
  return a;
}

function readStreamId(r: BinaryReader, type: WireType): StreamId {
  const id: StreamId = { base: 0, stream: 0n };
  each(r, sub(r, type), (f, t) => {
    if (f === 1) id.base = r.uint32();
    else if (f === 2) id.stream = big(r.uint64());
    else r.skip(t);
  });
  return id;
}

function readDuration(r: BinaryReader, type: WireType): Duration {
  const d: Duration = { seconds: 0n, nanos: 0 };
  each(r, sub(r, type), (f, t) => {
    if (f === 1) d.seconds = big(r.int64());
    else if (f === 2) d.nanos = r.int32();
    else r.skip(t);
  });
  return d;
}

function readRegistered(r: BinaryReader, type: WireType): Registered {
  let v: Registered = { registered: 0 };
  each(r, sub(r, type), (f, t) => {
    if (f === 1) v = { registered: r.int32() };
    else if (f === 2) v = { unregistered: r.string() };
    else r.skip(t);
  });
  return v;
}

function readHeaders(r: BinaryReader, type: WireType): Header[] {
  const out: Header[] = [];
  each(r, sub(r, type), (field, t) => {
    if (field !== 1) return void r.skip(t);
    const h: Header = { name: '' };
    each(r, sub(r, t), (f, tt) => {
      if (f === 1) h.name = r.string();
      else if (f === 2) {
        h.valueStr = r.string();
        delete h.valueBin;
      } else if (f === 3) {
        h.valueBin = r.bytes();
        delete h.valueStr;
      } else r.skip(tt);
    });
    out.push(h);
  });
  return out;
}

function readHttp(r: BinaryReader, type: WireType): HttpEvent | undefined {
  let ev: HttpEvent | undefined;
  each(r, sub(r, type), (which, t) => {
    const end = sub(r, t);
    const id: StreamId = { base: 0, stream: 0n };
    if (which === 1) {
      const e: RequestInit = { kind: 'requestInit', id, authority: '', path: '', headers: [] };
      each(r, end, (f, tt) => {
        if (f === 1) e.id = readStreamId(r, tt);
        else if (f === 2) e.method = readRegistered(r, tt);
        else if (f === 3) e.scheme = readRegistered(r, tt);
        else if (f === 4) e.authority = r.string();
        else if (f === 5) e.path = r.string();
        else if (f === 6) e.headers = readHeaders(r, tt);
        else r.skip(tt);
      });
      ev = e;
    } else if (which === 2) {
      const e: ResponseInit = { kind: 'responseInit', id, httpStatus: 0, headers: [] };
      each(r, end, (f, tt) => {
        if (f === 1) e.id = readStreamId(r, tt);
        else if (f === 2) e.sinceRequestInit = readDuration(r, tt);
        else if (f === 3) e.httpStatus = r.uint32();
        else if (f === 4) e.headers = readHeaders(r, tt);
        else r.skip(tt);
      });
      ev = e;
    } else if (which === 3) {
      const e: ResponseEnd = { kind: 'responseEnd', id, responseBytes: 0n, trailers: [] };
      each(r, end, (f, tt) => {
        if (f === 1) e.id = readStreamId(r, tt);
        else if (f === 2) e.sinceRequestInit = readDuration(r, tt);
        else if (f === 3) e.sinceResponseInit = readDuration(r, tt);
        else if (f === 4) e.responseBytes = big(r.uint64());
        else if (f === 5) {
          each(r, sub(r, tt), (g, gt) => {
            if (g === 1) e.eos = { grpcStatusCode: r.uint32() };
            else if (g === 2) e.eos = { resetErrorCode: r.uint32() };
            else r.skip(gt);
          });
        } else if (f === 6) e.trailers = readHeaders(r, tt);
        else r.skip(tt);
      });
      ev = e;
    } else r.pos = end;
  });
  return ev;
}

export function decodeTapEvent(bytes: Uint8Array): TapEvent {
  const r = new BinaryReader(bytes);
  const e: TapEvent = { proxyDirection: 0 };
  each(r, r.len, (field, type) => {
    if (field === 1) e.source = readAddress(r, type);
    else if (field === 2) e.destination = readAddress(r, type);
    else if (field === 3) e.http = readHttp(r, type);
    else if (field === 4) e.destinationMeta = readMeta(r, type);
    else if (field === 5) e.sourceMeta = readMeta(r, type);
    else if (field === 6) e.proxyDirection = r.int32();
    else if (field === 7) e.routeMeta = readMeta(r, type);
    else r.skip(type);
  });
  return e;
}

export function decodeApiError(bytes: Uint8Array): string {
  const r = new BinaryReader(bytes);
  let error = '';
  each(r, r.len, (field, type) => {
    if (field === 1) error = r.string();
    else r.skip(type);
  });
  return error;
}

function readResource(r: BinaryReader, type: WireType): Resource {
  const res: Resource = { namespace: '', type: '', name: '' };
  each(r, sub(r, type), (f, t) => {
    if (f === 1) res.namespace = r.string();
    else if (f === 2) res.type = r.string();
    else if (f === 3) res.name = r.string();
    else r.skip(t);
  });
  return res;
}

function readSelection(r: BinaryReader, type: WireType): ResourceSelection {
  const s: ResourceSelection = { resource: { namespace: '', type: '', name: '' }, labelSelector: '' };
  each(r, sub(r, type), (f, t) => {
    if (f === 1) s.resource = readResource(r, t);
    else if (f === 2) s.labelSelector = r.string();
    else r.skip(t);
  });
  return s;
}

/** For the test tap server: what a CLI asked for. */
export function decodeTapByResourceRequest(bytes: Uint8Array): TapByResourceRequest {
  const r = new BinaryReader(bytes);
  const req: TapByResourceRequest = {
    target: { resource: { namespace: '', type: '', name: '' }, labelSelector: '' },
    matches: [],
    maxRps: 0,
    extractHeaders: false,
  };
  const keys = ['', 'scheme', 'method', 'authority', 'path'] as const;
  each(r, r.len, (field, type) => {
    if (field === 1) req.target = readSelection(r, type);
    else if (field === 2) {
      each(r, sub(r, type), (f, t) => {
        if (f !== 1) return void r.skip(t);
        each(r, sub(r, t), (g, gt) => {
          if (g !== 1) return void r.skip(gt);
          each(r, sub(r, gt), (m, mt) => {
            if (m === 4) req.matches.push({ destinations: readSelection(r, mt) });
            else if (m === 5) {
              each(r, sub(r, mt), (h, ht) => {
                const key = keys[h];
                if (h >= 1 && h <= 4 && key) req.matches.push({ http: { [key]: r.string() } as HttpMatch });
                else r.skip(ht);
              });
            } else r.skip(mt);
          });
        });
      });
    } else if (field === 3) req.maxRps = r.float();
    else if (field === 4) {
      each(r, sub(r, type), (f, t) => {
        if (f !== 1) return void r.skip(t);
        each(r, sub(r, t), (g, gt) => {
          if (g === 1) {
            req.extractHeaders = true;
            r.skip(gt);
          } else r.skip(gt);
        });
      });
    } else r.skip(type);
  });
  return req;
}
