/**
 * Just enough of Kubernetes' protobuf encoding to read the bodies kubectl sends as
 * `application/vnd.kubernetes.protobuf` (it does for SelfSubjectAccessReviews): the
 * `k8s\0` + runtime.Unknown envelope and the review's resource attributes.
 */

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

type Field = number | Buffer;

function readVarint(buf: Buffer, pos: number): [number, number] {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    if (b === undefined) throw new Error('truncated varint');
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7;
  }
}

/** Decode one message into field number → values (varints as numbers, length-delimited as Buffers). */
function fields(buf: Buffer): Map<number, Field[]> {
  const out = new Map<number, Field[]>();
  let pos = 0;
  while (pos < buf.length) {
    let tag: number;
    [tag, pos] = readVarint(buf, pos);
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    let value: Field;
    if (wire === 0) [value, pos] = readVarint(buf, pos);
    else if (wire === 2) {
      let len: number;
      [len, pos] = readVarint(buf, pos);
      value = buf.subarray(pos, pos + len);
      pos += len;
    } else if (wire === 1) {
      value = buf.subarray(pos, pos + 8);
      pos += 8;
    } else if (wire === 5) {
      value = buf.subarray(pos, pos + 4);
      pos += 4;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    out.set(no, [...(out.get(no) ?? []), value]);
  }
  return out;
}

const str = (m: Map<number, Field[]>, no: number): string | undefined => {
  const v = m.get(no)?.[0];
  return Buffer.isBuffer(v) ? v.toString('utf8') : undefined;
};
const msg = (m: Map<number, Field[]>, no: number): Map<number, Field[]> | undefined => {
  const v = m.get(no)?.[0];
  return Buffer.isBuffer(v) ? fields(v) : undefined;
};

export function isKubeProtobuf(body: Buffer): boolean {
  return body.subarray(0, 4).equals(MAGIC);
}

/** The envelope's TypeMeta and raw payload. */
export function unwrapKubeProtobuf(body: Buffer): { apiVersion: string; kind: string; raw: Buffer } {
  const unknown = fields(body.subarray(4));
  const typeMeta = msg(unknown, 1);
  const raw = unknown.get(2)?.[0];
  return {
    apiVersion: (typeMeta && str(typeMeta, 1)) ?? '',
    kind: (typeMeta && str(typeMeta, 2)) ?? '',
    raw: Buffer.isBuffer(raw) ? raw : Buffer.alloc(0),
  };
}

/** A SelfSubjectAccessReview (authorization/v1 generated.proto) as its JSON form. */
export function decodeSelfSubjectAccessReview(raw: Buffer): object {
  const review = fields(raw);
  const spec = msg(review, 2);
  const ra = spec && msg(spec, 1);
  const nra = spec && msg(spec, 2);
  const pick = (m: Map<number, Field[]>, names: string[]) =>
    Object.fromEntries(names.map((n, i) => [n, str(m, i + 1)]).filter(([, v]) => v !== undefined && v !== ''));
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: {
      ...(ra ? { resourceAttributes: pick(ra, ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name']) } : {}),
      ...(nra ? { nonResourceAttributes: pick(nra, ['path', 'verb']) } : {}),
    },
  };
}
