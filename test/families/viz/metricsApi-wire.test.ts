import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { codec, type StatSummaryRequest, type StatSummaryResponse } from '../../../src/families/viz/metricsApi/proto.js';
import { goFixed } from '../../../src/families/viz/print/goFormat.js';
import { stripLeadingPadding, tabwrite } from '../../../src/families/viz/print/tabwriter.js';

/*
 * The loopback server shares the codec with the client, so these pin the field numbers against
 * bytes written by hand with the wire writer (viz.proto's numbers): a wrong number fails here.
 */

const resource = (w: BinaryWriter, field: number, ns: string, type: string, name: string) =>
  w
    .tag(field, WireType.LengthDelimited)
    .fork()
    .tag(1, WireType.LengthDelimited)
    .string(ns)
    .tag(2, WireType.LengthDelimited)
    .string(type)
    .tag(3, WireType.LengthDelimited)
    .string(name)
    .join();

describe('metrics API messages on the wire', () => {
  it('StatSummaryRequest: selector 1 (resource 1, label_selector 2), time_window 2, to_resource 4, tcp_stats 7', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).fork();
    resource(w, 1, 'emojivoto', 'deployment', 'web');
    w.tag(2, WireType.LengthDelimited).string('app=web').join();
    w.tag(2, WireType.LengthDelimited).string('1m');
    resource(w, 4, 'other', 'service', 'api');
    w.tag(7, WireType.Varint).bool(true);
    const request: StatSummaryRequest = {
      selector: { resource: { namespace: 'emojivoto', type: 'deployment', name: 'web' }, labelSelector: 'app=web' },
      timeWindow: '1m',
      outbound: { case: 'toResource', value: { namespace: 'other', type: 'service', name: 'api' } },
      tcpStats: true,
    };
    expect(codec<StatSummaryRequest>('StatSummaryRequest').encode(request).toString('hex')).toBe(Buffer.from(w.finish()).toString('hex'));
  });

  it('StatSummaryResponse: ok 1 → stat_tables 1 → pod_group 1 → rows 1 with resource 1, window 2, counts 3/4, stats 5, tcp 8, status 9, srv_stats 11', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).fork(); // ok
    w.tag(1, WireType.LengthDelimited).fork(); // stat_tables
    w.tag(1, WireType.LengthDelimited).fork(); // pod_group
    w.tag(1, WireType.LengthDelimited).fork(); // row
    resource(w, 1, 'ns', 'pod', 'web-1');
    w.tag(2, WireType.LengthDelimited).string('1m');
    w.tag(3, WireType.Varint).uint64(1n).tag(4, WireType.Varint).uint64(2n);
    w.tag(5, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(10n).tag(2, WireType.Varint).uint64(3n).tag(5, WireType.Varint).uint64(99n).join();
    w.tag(8, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(4n).tag(3, WireType.Varint).uint64(500n).join();
    w.tag(9, WireType.LengthDelimited).string('Running');
    w.tag(11, WireType.LengthDelimited).fork().tag(2, WireType.Varint).uint64(7n);
    resource(w, 3, 'ns', 'server', 'web-http');
    w.join();
    w.join().join().join().join();
    const decoded = codec<StatSummaryResponse>('StatSummaryResponse').decode(Buffer.from(w.finish()));
    expect(decoded.response.case).toBe('ok');
    const table = decoded.response.case === 'ok' ? decoded.response.value.statTables[0]?.table : undefined;
    const row = table?.case === 'podGroup' ? table.value.rows[0] : undefined;
    expect(row).toMatchObject({
      resource: { namespace: 'ns', type: 'pod', name: 'web-1' },
      timeWindow: '1m',
      meshedPodCount: 1n,
      runningPodCount: 2n,
      status: 'Running',
      stats: { successCount: 10n, failureCount: 3n, latencyMsP99: 99n },
      tcpStats: { openConnections: 4n, writeBytesTotal: 500n },
      srvStats: { deniedCount: 7n, srv: { name: 'web-http' } },
    });
  });
});

describe('Go formatting', () => {
  it('%.Nf rounds exact ties to even, as Go does (JavaScript rounds them up)', () => {
    expect([goFixed(0.25, 1), goFixed(0.75, 1), goFixed(2.05, 1), goFixed(12.125, 2), goFixed(1 / 3, 2)]).toEqual(['0.2', '0.8', '2.0', '12.12', '0.33']);
  });

  it('tabwriter: right-aligned blocks, a one-cell line ends a block, a form feed flushes', () => {
    const text = 'A\tBB\t\nCCC\tD\t\n\nX\tY\t\n';
    expect(stripLeadingPadding(tabwrite(text))).toBe('  A   BB\nCCC    D\n\nX   Y\n');
    expect(tabwrite('==> a <==\t\fR\tS\t\n')).toBe('   ==> a <==\n   R   S\n');
  });
});
