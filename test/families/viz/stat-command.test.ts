import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';
import { metricsApiDeadline } from '../../../src/families/viz/metricsApi/client.js';
import type { StatSummaryRequest } from '../../../src/families/viz/metricsApi/proto.js';
import { clusterWithViz } from './cluster.js';
import { startMetricsApiServer, type MetricsApiServer } from './metricsApiServer.js';
import { okStat, statRow } from './metricsRows.js';

const GOLDEN = path.join(import.meta.dirname, 'golden', 'stat');
let api: ApiServer;
let metrics: MetricsApiServer;

beforeAll(async () => {
  metrics = await startMetricsApiServer();
  api = await startApiServer({
    objects: await clusterWithViz(),
    portForward: (_ns, _pod, port) => (port === 8085 ? { host: '127.0.0.1', port: metrics.port } : undefined),
  });
});
afterAll(async () => {
  await api.stop();
  await metrics.stop();
});
beforeEach(() => {
  metrics.calls.length = 0;
  api.resetRequests();
  api.setDenials([]);
});

const linkerd = (args: string[]): Promise<CliResult> => runCli(['viz', ...args, '--kubeconfig', api.kubeconfigPath]);
const lastRequest = () => metrics.calls.at(-1)?.request as StatSummaryRequest;

describe('viz stat tables (loopback metrics API through the port-forward)', () => {
  it('prints the real -A table for two namespaces (linkerd’s stat_all_output golden)', async () => {
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'emoji', 'emojivoto2'), statRow('deployment', 'emoji', 'emojivoto1')]));
    const r = await linkerd(['stat', 'deploy', '-A']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'NAMESPACE    NAME    MESHED   SUCCESS      RPS   LATENCY_P50   LATENCY_P95   LATENCY_P99   TCP_CONN\n' +
        'emojivoto1   emoji      1/2   100.00%   2.0rps         123ms         123ms         123ms        123\n' +
        'emojivoto2   emoji      1/2   100.00%   2.0rps         123ms         123ms         123ms        123\n',
    );
    expect(lastRequest()).toMatchObject({ selector: { resource: { namespace: '', type: 'deployment', name: '' } }, timeWindow: '1m', tcpStats: true });
  });

  it('prints -o json as the real command (linkerd’s stat_one_output_json golden)', async () => {
    metrics.on('StatSummary', () => okStat([statRow('namespace', 'emoji', 'emojivoto1')]));
    const r = await linkerd(['stat', 'ns/emoji', '-o', 'json']);
    expect(r.stdout).toBe(
      '[\n  {\n    "namespace": "emojivoto1",\n    "kind": "namespace",\n    "name": "emoji",\n    "success": 1,\n    "rps": 2.05,\n' +
        '    "latency_ms_p50": 123,\n    "latency_ms_p95": 123,\n    "latency_ms_p99": 123,\n    "tcp_open_connections": 123,\n' +
        '    "tcp_read_bytes_rate": 2.05,\n    "tcp_write_bytes_rate": 2.05\n  }\n]\n',
    );
    // A namespace target drops the namespace of -n from its resource words, as linkerd does.
    expect(lastRequest().selector?.resource).toMatchObject({ type: 'namespace', name: 'emoji' });
  });

  it('one workload', async () => {
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'web', 'emojivoto', { stats: { successCount: 90n, failureCount: 10n } as never })]));
    const r = await linkerd(['stat', 'deploy/web', '-n', 'emojivoto']);
    expectGoldenFile(path.join(GOLDEN, 'one.txt'), r.stdout);
    expect(lastRequest()).toMatchObject({ selector: { resource: { namespace: 'emojivoto', type: 'deployment', name: 'web' } } });
  });

  it('all kinds: one table per type in linkerd’s order, names prefixed, rows without requests as -', async () => {
    metrics.on('StatSummary', () =>
      okStat([
        statRow('pod', 'web-5f7c-abcd0', 'emojivoto', { status: 'Running', meshedPodCount: 1n, runningPodCount: 1n }),
        statRow('deployment', 'web', 'emojivoto'),
        statRow('deployment', 'vote-bot', 'emojivoto', { requests: false }),
        statRow('deployment', 'unmeshed', 'emojivoto', { meshedPodCount: 0n }),
        statRow('service', 'web-svc', 'emojivoto'),
        statRow('server', 'web-http', 'emojivoto', { srv: 'web-http', denied: 30n }),
        statRow('httproute', 'web-route', 'emojivoto', { srv: 'web-http', denied: 6n }),
        statRow('authorizationpolicy', 'web-authz', 'emojivoto'),
      ]),
    );
    const r = await linkerd(['stat', 'all', '-n', 'emojivoto']);
    expectGoldenFile(path.join(GOLDEN, 'all-kinds.txt'), r.stdout);
    expect(r.stdout).not.toContain('unmeshed');
    const unmeshed = await linkerd(['stat', 'all', '-n', 'emojivoto', '--unmeshed']);
    expect(unmeshed.stdout).toContain('deploy/unmeshed');
  });

  it('TCP only: a row without HTTP requests shows dashes, -o wide adds the byte rates', async () => {
    metrics.on('StatSummary', () =>
      okStat([
        statRow('deployment', 'redis', 'db', { requests: false }),
        statRow('deployment', 'api', 'db', { tcpStats: { openConnections: 4n, readBytesTotal: 6000n, writeBytesTotal: 1500n } }),
      ]),
    );
    const r = await linkerd(['stat', 'deploy', '-n', 'db', '-o', 'wide']);
    expectGoldenFile(path.join(GOLDEN, 'tcp-wide.txt'), r.stdout);
    const json = JSON.parse((await linkerd(['stat', 'deploy', '-n', 'db', '-o', 'json'])).stdout) as Array<Record<string, unknown>>;
    expect(json[1]).toEqual({
      namespace: 'db',
      kind: 'deployment',
      name: 'redis',
      success: null,
      rps: null,
      latency_ms_p50: null,
      latency_ms_p95: null,
      latency_ms_p99: null,
    });
  });

  it('time windows: the window is sent and rates are over the row’s window', async () => {
    metrics.on('StatSummary', (req) => okStat([statRow('deployment', 'web', 'emojivoto', { timeWindow: req.timeWindow })]));
    const r = await linkerd(['stat', 'deploy', '-n', 'emojivoto', '-t', '10m']);
    expect(lastRequest().timeWindow).toBe('10m');
    expectGoldenFile(path.join(GOLDEN, 'window-10m.txt'), r.stdout);
    const short = await linkerd(['stat', 'deploy', '-t', '10s']);
    expect([short.code, short.stderr]).toEqual([
      1,
      'Error: error creating metrics request while making stats request: metrics time window needs to be at least 15s\n',
    ]);
  });

  it('--to, --from and -l go into the request; --from shows unmeshed rows', async () => {
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'client', 'emojivoto', { meshedPodCount: 0n })]));
    await linkerd(['stat', 'deploy', '-n', 'emojivoto', '--to', 'svc/web', '--to-namespace', 'other', '-l', 'app=x']);
    expect(lastRequest()).toMatchObject({
      selector: { labelSelector: 'app=x' },
      outbound: { case: 'toResource', value: { namespace: 'other', type: 'service', name: 'web' } },
    });
    const from = await linkerd(['stat', 'deploy', '-n', 'emojivoto', '--from', 'deploy/vote-bot']);
    expect(lastRequest().outbound).toMatchObject({ case: 'fromResource', value: { namespace: 'emojivoto', type: 'deployment', name: 'vote-bot' } });
    expect(from.stdout).toContain('client');
  });

  it('no rows: `No traffic found.` on stderr, exit 0; -o json prints []', async () => {
    metrics.on('StatSummary', () => okStat([]));
    const r = await linkerd(['stat', 'deploy', '-n', 'emojivoto']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', 'No traffic found.\n']);
    expect((await linkerd(['stat', 'deploy', '-n', 'emojivoto', '-o', 'json'])).stdout).toBe('[]\n');
  });
});

describe('viz stat errors', () => {
  it('refuses bad flags before asking anything, in the real words', async () => {
    const cases: Array<[string[], string]> = [
      [['stat', 'deploy', '--to', 'deploy/x', '--from', 'deploy/y'], '--to and --from flags are mutually exclusive'],
      [['stat', 'deploy', '-A', '-n', 'other'], '--all-namespaces and --namespace flags are mutually exclusive'],
      [['stat', 'deploy/web', '-A'], 'stats for a resource cannot be retrieved by name across all namespaces'],
      [['stat', 'deploy', '-o', 'yaml'], '--output currently only supports table, json and wide'],
      [['stat', 'ns', '--to-namespace', 'x'], '--to-namespace flag is incompatible with namespace resource type'],
      [['stat', 'deploy/a', 'deploy/a'], 'cannot supply duplicate resources'],
      [['stat', 'deploy/x', 'all'], "'all' can't be supplied alongside other resources"],
      [['stat', 'a/b/c'], 'Invalid resource string: a/b/c'],
      [['stat', 'widgets'], 'cannot find Kubernetes canonical name from friendly name [widgets]'],
    ];
    for (const [args, message] of cases) {
      const r = await linkerd(args);
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `Error: error creating metrics request while making stats request: ${message}\n`]);
    }
    expect(metrics.calls).toHaveLength(0);
    expect(api.requestCount()).toBe(0);
  });

  it('prints the server’s answer error raw (no newline), exit 1', async () => {
    metrics.on('StatSummary', () => ({ response: { case: 'error' as const, value: { error: 'deployments.apps "nope" not found' } } }));
    const r = await linkerd(['stat', 'deploy/nope', '-n', 'emojivoto']);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'StatSummary API response error: deployments.apps "nope" not found']);
    metrics.on('StatSummary', () => new Error('boom'));
    const failed = await linkerd(['stat', 'deploy', '-n', 'emojivoto']);
    expect(failed.stderr).toBe('StatSummary API error: rpc error: code = Unknown desc = boom');
  });

  it('viz not installed: Cannot connect to Linkerd Viz, and the hint', async () => {
    const bare = await startApiServer({ objects: [] });
    try {
      const r = await runCli(['viz', 'stat', 'deploy', '--kubeconfig', bare.kubeconfigPath]);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe(
        'Cannot connect to Linkerd Viz: namespace with label "linkerd.io/extension: viz" not found\nValidate the install with: linkerd viz check\n',
      );
    } finally {
      await bare.stop();
    }
  });

  it('a metrics API that never answers fails at the deadline', async () => {
    metrics.on('StatSummary', () => 'hang');
    const saved = metricsApiDeadline.ms;
    metricsApiDeadline.ms = 300;
    try {
      const r = await linkerd(['stat', 'deploy', '-n', 'emojivoto']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^StatSummary API error: rpc error: code = DeadlineExceeded desc = /);
    } finally {
      metricsApiDeadline.ms = saved;
    }
  });

  it('--api-addr dials the metrics API directly, without a port-forward; an unreachable one is Unavailable', async () => {
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'web', 'emojivoto')]));
    const r = await linkerd(['stat', 'deploy', '-n', 'emojivoto', '--api-addr', metrics.address]);
    expect(r.stdout).toContain('web');
    expect(api.requests.some((q) => q.path.endsWith('/portforward'))).toBe(false);
    const closed = await linkerd(['stat', 'deploy', '-n', 'emojivoto', '--api-addr', '127.0.0.1:1']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/^StatSummary API error: rpc error: code = Unavailable desc = /);
  });
});

describe('viz stat as a process', () => {
  it('bin/linkerd prints the table and exits once the port-forward and the gRPC channel are closed', async () => {
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'web', 'emojivoto')]));
    const r = await runCli(['viz', 'stat', 'deploy', '-n', 'emojivoto', '--kubeconfig', api.kubeconfigPath], { spawn: true });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('web');
  });
});

describe('viz stat reads', () => {
  it('reads /version, the labelled namespaces, and the viz namespace’s pods and ReplicaSets, then one port-forward', async () => {
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'web', 'emojivoto')]));
    await linkerd(['stat', 'deploy', '-A']);
    const paths = api.requests.map((q) => `${q.method} ${q.path}`);
    expect(paths).toEqual([
      'GET /version',
      'GET /api/v1/namespaces',
      'GET /api/v1/namespaces/linkerd-viz/pods',
      'GET /apis/apps/v1/namespaces/linkerd-viz/replicasets',
      'GET /api/v1/namespaces/linkerd-viz/pods/metrics-api-5f7c9d8b0-abcd0/portforward',
    ]);
    expect(metrics.calls.map((c) => c.method)).toEqual(['StatSummary']);
  });

  it('a user who may not list namespaces finds viz in linkerd-viz (linkerd/linkerd2#13169)', async () => {
    api.setDenials([{ verb: 'list', resource: 'namespaces' }]);
    metrics.on('StatSummary', () => okStat([statRow('deployment', 'web', 'emojivoto')]));
    const r = await linkerd(['stat', 'deploy', '-n', 'emojivoto']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('web');
  });
});
