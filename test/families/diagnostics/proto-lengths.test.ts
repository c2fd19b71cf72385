import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { decodeUpdate } from '../../../src/families/diagnostics/proto/destination.js';
import * as m from '../../../src/families/diagnostics/proto/messages.js';
import { decode } from '../../../src/families/diagnostics/proto/schema.js';

// A length prefix of 128 or more takes two varint bytes. A decoder that takes the position before
// reading the prefix ends such a body two bytes early: a two-byte field at its tail (a small varint)
// is lost and then read as a field of the enclosing message. Fields may come in any order on the
// wire, so each case puts a long field first and the small one last.
const LONG = 'x'.repeat(200);

describe('length-delimited bodies of 128 bytes and more, a small field last', () => {
  it('destination Update: the weight after a long metric label is kept', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).fork(); // Update.add (WeightedAddrSet)
    w.tag(1, WireType.LengthDelimited).fork(); // addrs[0] (WeightedAddr)
    w.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string('pod').tag(2, WireType.LengthDelimited).string(LONG).join();
    w.tag(3, WireType.Varint).uint32(7); // weight
    w.join().join();
    const update = decodeUpdate(w.finish());
    expect(update.add?.addrs).toEqual([{ port: 0, weight: 7, metricLabels: { pod: LONG } }]);
  });

  it('field-table decoder: the port after a long unknown field of a nested message is kept', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).string('web'); // TrafficSpec.source_workload
    w.tag(2, WireType.LengthDelimited).fork(); // TrafficSpec.addr (TcpAddress)
    w.tag(15, WireType.LengthDelimited).string(LONG); // a field this release does not know
    w.tag(2, WireType.Varint).uint32(5); // TcpAddress.port
    w.join();
    expect(decode(m.TrafficSpec, w.finish())).toEqual({ source_workload: 'web', Target: { Addr: { port: 5 } } });
  });

  it('field-table decoder: a map entry of 128 bytes and more ends where its prefix says', () => {
    // Server.labels entry {value: LONG, key: ""}: the empty key (two bytes, tag 1) is last; read
    // as Server's field 1 it would make an empty `protocol` appear.
    const w = new BinaryWriter();
    w.tag(4, WireType.LengthDelimited).fork().tag(2, WireType.LengthDelimited).string(LONG).tag(1, WireType.LengthDelimited).string('').join();
    expect(decode(m.Server, w.finish())).toEqual({ labels: { '': LONG } });
  });
});
