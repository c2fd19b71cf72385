import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { goJsonIndent, goYaml, goYamlKeyLess } from '../../../src/families/diagnostics/goJson.js';
import * as m from '../../../src/families/diagnostics/proto/messages.js';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import {
  decode,
  delimitedEnd,
  encode,
  float32Value,
  goName,
  MAX_DEPTH,
  ProtoDecodeError,
  type GoJson,
} from '../../../src/families/diagnostics/proto/schema.js';

describe('proxy-API field tables and the Go JSON view', () => {
  it('decodes what it encodes, leaving zero values out and keeping set oneof members', () => {
    const server: GoJson = {
      protocol: { Kind: { Opaque: {} } },
      authorizations: [{ networks: [{ net: { ip: { Ip: { Ipv4: 0 } } } }], authentication: { Permit: { Unauthenticated: {} } } }],
      labels: { kind: 'default', name: 'deny' },
    };
    expect(decode(m.Server, encode(m.Server, server))).toEqual(server);
    expect(decode(m.PortSpec, encode(m.PortSpec, { workload: '', port: 0 }))).toEqual({});
  });

  it('writes the field numbers of the proxy API', () => {
    // PortSpec{workload=1 "a:b", port=2 8080}
    expect([...encode(m.PortSpec, { workload: 'a:b', port: 8080 })]).toEqual([0x0a, 3, 0x61, 0x3a, 0x62, 0x10, 0x90, 0x3f]);
    // TrafficSpec{source_workload=1, authority=3 (oneof target)}
    expect([...encode(m.TrafficSpec, { source_workload: 'x', Target: { Authority: 'y' } })]).toEqual([0x0a, 1, 0x78, 0x1a, 1, 0x79]);
  });

  it('sorts map keys, skips unknown fields and lets the last oneof member win', () => {
    const w = new BinaryWriter();
    for (const [k, v] of [
      ['name', 'n'],
      ['group', 'g'],
    ])
      w.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(k!).tag(2, WireType.LengthDelimited).string(v!).join();
    w.tag(99, WireType.Varint).uint32(7);
    w.tag(1, WireType.LengthDelimited).fork().tag(2, WireType.LengthDelimited).fork().join().tag(3, WireType.LengthDelimited).fork().join().join();
    const got = decode(m.Server, w.finish());
    expect(Object.keys(got.labels as object)).toEqual(['group', 'name']);
    expect(got.protocol).toEqual({ Kind: { Tls: {} } });
  });

  it('prints float32 as Go does (shortest form) and 64-bit integers exactly', () => {
    expect(float32Value(Math.fround(0.2))).toBe(0.2);
    expect(float32Value(Math.fround(1e-7))).toBe(1e-7);
    const profile = decode(m.DestinationProfile, encode(m.DestinationProfile, { retry_budget: { retry_ratio: 0.2, ttl: { seconds: 10n } } }));
    expect(goJsonIndent(profile)).toBe('{\n  "retry_budget": {\n    "retry_ratio": 0.2,\n    "ttl": {\n      "seconds": 10\n    }\n  }\n}');
    const net = decode(m.IPNetwork, encode(m.IPNetwork, { ip: { Ip: { Ipv6: { first: 0xfd00000000000001n, last: 2n ** 64n - 1n } } } }));
    expect(goJsonIndent(net)).toContain('"first": 18230571291595767809');
    expect(goJsonIndent(net)).toContain('"last": 18446744073709551615');
  });

  it('escapes HTML characters and writes bytes as base64, as encoding/json', () => {
    const match = decode(m.HeaderMatch, encode(m.HeaderMatch, { name: 'x-<a>&b', Value: { Exact: new Uint8Array([104, 105]) } }));
    expect(goJsonIndent(match)).toBe('{\n  "name": "x-\\u003ca\\u003e\\u0026b",\n  "Value": {\n    "Exact": "aGk="\n  }\n}');
    expect(goYaml(match)).toBe('Value:\n  Exact: aGk=\nname: x-<a>&b\n');
    expect(goJsonIndent({})).toBe('{}');
    expect(goYaml({})).toBe('{}\n');
  });

  it('orders YAML keys as go-yaml v2 (non-letters first, digit runs as numbers)', () => {
    expect(goYamlKeyLess('a_b', 'aB')).toBe(true);
    expect(goYamlKeyLess('http2', 'http10')).toBe(true);
    expect(goYamlKeyLess('Kind', 'authorizations')).toBe(true);
    expect(goYamlKeyLess('labels', 'labels')).toBe(false);
    expect(goYaml({ http10: 1, http2: 2, Kind: 3 })).toBe('Kind: 3\nhttp2: 2\nhttp10: 1\n');
  });

  it('refuses nesting deeper than the limit and truncated messages', () => {
    let deep: GoJson = { Match: { Path: { regex: '/' } } };
    for (let i = 0; i <= MAX_DEPTH; i++) deep = { Match: { Not: deep } };
    const bytes = encode(m.RequestMatch, deep);
    expect(() => decode(m.RequestMatch, bytes)).toThrow(ProtoDecodeError);
    const ok = encode(m.PortSpec, { workload: 'abc', port: 1 });
    expect(() => decode(m.PortSpec, ok.subarray(0, 3))).toThrow(ProtoDecodeError);
    // A length prefix past the end is named as such, not left to the reader's RangeError.
    expect(() => delimitedEnd(new BinaryReader(Uint8Array.from([0x7f, 0x61])))).toThrow(
      new ProtoDecodeError("a length of 127 bytes runs past the message's end"),
    );
    expect(delimitedEnd(new BinaryReader(Uint8Array.from([0x01, 0x61])))).toBe(2);
  });

  it('names Go identifiers as protoc-gen-go', () => {
    expect(['failure_injector', 'meshTLS', 'ipv4', 'first_available'].map(goName)).toEqual(['FailureInjector', 'MeshTLS', 'Ipv4', 'FirstAvailable']);
  });
});
