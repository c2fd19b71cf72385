import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/*
 * A table-driven protobuf codec for the messages `diagnostics policy` and `diagnostics profile`
 * print. Each message is declared as its fields (number, proto name, type) in the order the
 * proto declares them, which is the order of the Go struct the real CLI marshals with
 * encoding/json. Decoding yields that Go JSON view directly:
 *
 * - a plain field is keyed by its proto name (the `json:"…,omitempty"` tag) and left out when it
 *   holds the zero value (empty string, 0, false, empty list or map, absent message);
 * - a oneof is keyed by the Go name of the oneof (`Kind`, `Permit`) holding one object keyed by
 *   the Go name of the set member (`Detect`, `MeshTLS`), whose value is always written;
 * - 64-bit integers are bigints, float32 values are the shortest decimal that reads back as them,
 *   bytes are Uint8Arrays (Go writes them as base64).
 *
 * Encoding takes the same view (used by the loopback servers of the tests and by anyone scripting
 * a controller). Unknown fields are skipped, as the Go structs keep them out of JSON.
 */

export type ScalarType = 'string' | 'bytes' | 'bool' | 'uint32' | 'int32' | 'uint64' | 'int64' | 'fixed32' | 'fixed64' | 'float' | 'double' | 'enum';

export interface FieldDef {
  readonly no: number;
  /** The proto field name (the JSON tag of the Go field). */
  readonly name: string;
  readonly type: ScalarType | (() => MessageDef);
  readonly repeated?: boolean;
  /** `map<string, string>`, the only map type these APIs use. */
  readonly map?: boolean;
  /** The proto name of the oneof this field belongs to. */
  readonly oneof?: string;
}

export interface MessageDef {
  readonly name: string;
  readonly fields: readonly FieldDef[];
}

export type GoJson = { [key: string]: GoValue };
export type GoValue = string | number | boolean | bigint | Uint8Array | GoJson | GoValue[];

/** Nesting deeper than this (RequestMatch `not` of `not` of …) is refused. */
export const MAX_DEPTH = 64;

export class ProtoDecodeError extends Error {}

/** Reads a length prefix and returns where the delimited body ends (the prefix read first, then the position). */
export function delimitedEnd(r: BinaryReader): number {
  const len = r.uint32();
  if (len > r.len - r.pos) throw new ProtoDecodeError(`a length of ${len} bytes runs past the message's end`);
  return r.pos + len;
}

/** The Go identifier protoc-gen-go makes of a proto name: `failure_injector` → `FailureInjector`. */
export function goName(protoName: string): string {
  return protoName
    .split('_')
    .map((p) => (p ? p.charAt(0).toUpperCase() + p.slice(1) : '_'))
    .join('');
}

/** The shortest decimal that reads back as the same float32, as Go's strconv formats a float32. */
export function float32Value(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  for (let p = 1; p <= 9; p++) {
    const n = Number(x.toPrecision(p));
    if (Math.fround(n) === x) return n;
  }
  return x;
}

const TEXT = new TextDecoder('utf-8', { fatal: false });

function isScalarWire(t: ScalarType): boolean {
  return t !== 'string' && t !== 'bytes';
}

function readScalar(r: BinaryReader, t: ScalarType): GoValue {
  switch (t) {
    case 'string':
      return TEXT.decode(r.bytes());
    case 'bytes':
      return r.bytes();
    case 'bool':
      return r.bool();
    case 'uint32':
      return r.uint32();
    case 'int32':
    case 'enum':
      return r.int32();
    case 'uint64':
      return BigInt(r.uint64());
    case 'int64':
      return BigInt(r.int64());
    case 'fixed32':
      return r.fixed32();
    case 'fixed64':
      return BigInt(r.fixed64());
    case 'float':
      return float32Value(r.float());
    case 'double':
      return r.double();
  }
}

function isZero(v: GoValue): boolean {
  if (v === '' || v === 0 || v === false || v === 0n) return true;
  return v instanceof Uint8Array && v.length === 0;
}

interface Raw {
  last?: GoValue;
  list: GoValue[];
  map: Record<string, string>;
}

function readMapEntry(r: BinaryReader, into: Record<string, string>): void {
  const end = delimitedEnd(r);
  let key = '';
  let value = '';
  while (r.pos < end) {
    const [f, t] = r.tag();
    if (f === 1 && t === WireType.LengthDelimited) key = TEXT.decode(r.bytes());
    else if (f === 2 && t === WireType.LengthDelimited) value = TEXT.decode(r.bytes());
    else r.skip(t);
  }
  into[key] = value;
}

function readMessage(r: BinaryReader, def: MessageDef, end: number, depth: number): GoJson {
  if (depth > MAX_DEPTH) throw new ProtoDecodeError(`message nested deeper than ${MAX_DEPTH} levels`);
  const byNo = new Map(def.fields.map((f) => [f.no, f]));
  const raw = new Map<number, Raw>();
  const oneofSet = new Map<string, number>();
  while (r.pos < end) {
    const [no, wire] = r.tag();
    const f = byNo.get(no);
    if (!f) {
      r.skip(wire);
      continue;
    }
    let slot = raw.get(no);
    if (!slot) raw.set(no, (slot = { list: [], map: {} }));
    if (f.oneof) oneofSet.set(f.oneof, no);
    if (f.map) {
      readMapEntry(r, slot.map);
    } else if (typeof f.type === 'function') {
      const v = readMessage(r, f.type(), delimitedEnd(r), depth + 1);
      if (f.repeated) slot.list.push(v);
      else slot.last = v;
    } else if (f.repeated && isScalarWire(f.type) && wire === WireType.LengthDelimited) {
      const packedEnd = delimitedEnd(r);
      while (r.pos < packedEnd) slot.list.push(readScalar(r, f.type));
    } else {
      const v = readScalar(r, f.type);
      if (f.repeated) slot.list.push(v);
      else slot.last = v;
    }
  }
  if (r.pos !== end) throw new ProtoDecodeError(`truncated ${def.name}`);
  const out: GoJson = {};
  for (const f of def.fields) {
    if (f.oneof) {
      const key = goName(f.oneof);
      if (key in out) continue;
      const chosen = oneofSet.get(f.oneof);
      const member = def.fields.find((m) => m.no === chosen);
      const v = chosen === undefined ? undefined : raw.get(chosen)?.last;
      // A oneof is placed where its first member is declared.
      if (member && v !== undefined) out[key] = { [goName(member.name)]: v };
      else out[key] = undefined as unknown as GoValue;
      continue;
    }
    const slot = raw.get(f.no);
    if (!slot) continue;
    if (f.map) {
      // Go's encoding/json writes a map's keys sorted.
      const entries = Object.entries(slot.map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (entries.length) out[f.name] = Object.fromEntries(entries);
    } else if (f.repeated) {
      if (slot.list.length) out[f.name] = slot.list;
    } else if (slot.last !== undefined && (typeof f.type === 'function' || !isZero(slot.last))) out[f.name] = slot.last;
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** Decodes `bytes` as `def` into the Go JSON view. Throws ProtoDecodeError on malformed input. */
export function decode(def: MessageDef, bytes: Uint8Array): GoJson {
  const r = new BinaryReader(bytes);
  try {
    return readMessage(r, def, r.len, 0);
  } catch (e) {
    if (e instanceof ProtoDecodeError) throw e;
    throw new ProtoDecodeError(`cannot decode ${def.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const WIRE: Record<ScalarType, WireType> = {
  string: WireType.LengthDelimited,
  bytes: WireType.LengthDelimited,
  bool: WireType.Varint,
  uint32: WireType.Varint,
  int32: WireType.Varint,
  enum: WireType.Varint,
  uint64: WireType.Varint,
  int64: WireType.Varint,
  fixed32: WireType.Bit32,
  fixed64: WireType.Bit64,
  float: WireType.Bit32,
  double: WireType.Bit64,
};

function writeScalar(w: BinaryWriter, no: number, t: ScalarType, v: GoValue): void {
  w.tag(no, WIRE[t]);
  switch (t) {
    case 'string':
      w.string(typeof v === 'string' ? v : '');
      break;
    case 'bytes':
      w.bytes(v as Uint8Array);
      break;
    case 'bool':
      w.bool(Boolean(v));
      break;
    case 'uint32':
      w.uint32(Number(v));
      break;
    case 'int32':
    case 'enum':
      w.int32(Number(v));
      break;
    case 'uint64':
      w.uint64(BigInt(v as number | bigint));
      break;
    case 'int64':
      w.int64(BigInt(v as number | bigint));
      break;
    case 'fixed32':
      w.fixed32(Number(v));
      break;
    case 'fixed64':
      w.fixed64(BigInt(v as number | bigint));
      break;
    case 'float':
      w.float(Number(v));
      break;
    case 'double':
      w.double(Number(v));
      break;
  }
}

function writeField(w: BinaryWriter, f: FieldDef, v: GoValue): void {
  if (typeof f.type === 'function') {
    w.tag(f.no, WireType.LengthDelimited).fork();
    writeMessage(w, f.type(), v as GoJson);
    w.join();
  } else writeScalar(w, f.no, f.type, v);
}

function writeMessage(w: BinaryWriter, def: MessageDef, m: GoJson): void {
  for (const f of def.fields) {
    if (f.oneof) {
      const chosen = m[goName(f.oneof)] as GoJson | undefined;
      const v = chosen?.[goName(f.name)];
      if (v !== undefined) writeField(w, f, v);
      continue;
    }
    const v = m[f.name];
    if (v === undefined) continue;
    if (f.map) {
      for (const [k, s] of Object.entries(v as Record<string, string>))
        w.tag(f.no, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(k).tag(2, WireType.LengthDelimited).string(s).join();
    } else if (f.repeated) for (const item of v as GoValue[]) writeField(w, f, item);
    else writeField(w, f, v);
  }
}

/** Encodes the Go JSON view `m` as `def`. */
export function encode(def: MessageDef, m: GoJson): Buffer {
  const w = new BinaryWriter();
  writeMessage(w, def, m);
  return Buffer.from(w.finish());
}
