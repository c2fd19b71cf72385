import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { ProtoDecodeError, delimitedEnd } from './schema.js';

/*
 * The few messages of io.linkerd.proxy.destination that `diagnostics endpoints` uses, written from
 * the proxy API's field numbers (linkerd2-proxy-api destination.proto and net.proto). Fields
 * this command does not read are skipped.
 */

export const DESTINATION_GET = '/io.linkerd.proxy.destination.Destination/Get';

export interface GetDestination {
  readonly scheme: string;
  readonly path: string;
  readonly contextToken: string;
}

export interface WeightedAddr {
  /** IPv4 as a number, or IPv6 as two 64-bit halves. */
  ip?: { ipv4: number } | { first: bigint; last: bigint };
  port: number;
  weight: number;
  metricLabels: Record<string, string>;
  http2?: Record<string, unknown>;
}

export interface Update {
  add?: { addrs: WeightedAddr[]; metricLabels: Record<string, string> };
}

export function encodeGetDestination(m: GetDestination): Buffer {
  const w = new BinaryWriter();
  if (m.scheme) w.tag(1, WireType.LengthDelimited).string(m.scheme);
  if (m.path) w.tag(2, WireType.LengthDelimited).string(m.path);
  if (m.contextToken) w.tag(3, WireType.LengthDelimited).string(m.contextToken);
  return Buffer.from(w.finish());
}

export function decodeGetDestination(bytes: Uint8Array): GetDestination {
  const r = new BinaryReader(bytes);
  const m = { scheme: '', path: '', contextToken: '' };
  each(r, r.len, (field, type) => {
    if (field === 1) m.scheme = r.string();
    else if (field === 2) m.path = r.string();
    else if (field === 3) m.contextToken = r.string();
    else r.skip(type);
  });
  return m;
}

function each(r: BinaryReader, end: number, onField: (field: number, type: WireType) => void): void {
  while (r.pos < end) {
    const [field, type] = r.tag();
    onField(field, type);
  }
  if (r.pos !== end) throw new ProtoDecodeError('truncated message');
}

function mapEntry(r: BinaryReader, into: Record<string, string>): void {
  const end = delimitedEnd(r);
  let key = '';
  let value = '';
  each(r, end, (field, type) => {
    if (field === 1) key = r.string();
    else if (field === 2) value = r.string();
    else r.skip(type);
  });
  into[key] = value;
}

function ipAddress(r: BinaryReader): WeightedAddr['ip'] {
  const end = delimitedEnd(r);
  let ip: WeightedAddr['ip'];
  each(r, end, (field, type) => {
    if (field === 1) ip = { ipv4: r.fixed32() };
    else if (field === 2) {
      const v6End = delimitedEnd(r);
      const v6 = { first: 0n, last: 0n };
      each(r, v6End, (f, t) => {
        if (f === 1) v6.first = BigInt(r.fixed64());
        else if (f === 2) v6.last = BigInt(r.fixed64());
        else r.skip(t);
      });
      ip = v6;
    } else r.skip(type);
  });
  return ip;
}

function weightedAddr(r: BinaryReader): WeightedAddr {
  const end = delimitedEnd(r);
  const a: WeightedAddr = { port: 0, weight: 0, metricLabels: {} };
  each(r, end, (field, type) => {
    if (field === 1) {
      const addrEnd = delimitedEnd(r);
      each(r, addrEnd, (f, t) => {
        if (f === 1) a.ip = ipAddress(r);
        else if (f === 2) a.port = r.uint32();
        else r.skip(t);
      });
    } else if (field === 3) a.weight = r.uint32();
    else if (field === 4) mapEntry(r, a.metricLabels);
    else if (field === 8) {
      r.skip(type);
      a.http2 = {};
    } else r.skip(type);
  });
  return a;
}

export function decodeUpdate(bytes: Uint8Array): Update {
  const r = new BinaryReader(bytes);
  const u: Update = {};
  each(r, r.len, (field, type) => {
    if (field !== 1) {
      r.skip(type);
      return;
    }
    const end = delimitedEnd(r);
    const add = { addrs: [] as WeightedAddr[], metricLabels: {} as Record<string, string> };
    each(r, end, (f, t) => {
      if (f === 1) add.addrs.push(weightedAddr(r));
      else if (f === 2) mapEntry(r, add.metricLabels);
      else r.skip(t);
    });
    u.add = add;
  });
  return u;
}

/** For servers (tests) and tools: an Update with one address set. */
export function encodeUpdate(u: Update): Buffer {
  const w = new BinaryWriter();
  if (u.add) {
    w.tag(1, WireType.LengthDelimited).fork();
    for (const a of u.add.addrs) {
      w.tag(1, WireType.LengthDelimited).fork();
      w.tag(1, WireType.LengthDelimited).fork();
      if (a.ip && 'ipv4' in a.ip) w.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.Bit32).fixed32(a.ip.ipv4).join();
      w.tag(2, WireType.Varint).uint32(a.port);
      w.join();
      if (a.weight) w.tag(3, WireType.Varint).uint32(a.weight);
      for (const [k, v] of Object.entries(a.metricLabels))
        w.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(k).tag(2, WireType.LengthDelimited).string(v).join();
      w.join();
    }
    for (const [k, v] of Object.entries(u.add.metricLabels))
      w.tag(2, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(k).tag(2, WireType.LengthDelimited).string(v).join();
    w.join();
  }
  return Buffer.from(w.finish());
}
