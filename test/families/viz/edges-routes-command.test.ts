import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';
import type { EdgesRequest, Edge, RouteRow, TopRoutesRequest } from '../../../src/families/viz/metricsApi/proto.js';
import { clusterWithViz } from './cluster.js';
import { startMetricsApiServer, type MetricsApiServer } from './metricsApiServer.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
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
});

const linkerd = (args: string[]): Promise<CliResult> => runCli(['viz', ...args, '--kubeconfig', api.kubeconfigPath]);

const edge = (src: string, dst: string, ns: string, client: string, server: string, msg = ''): Edge => ({
  src: { namespace: ns, type: 'deployment', name: src },
  dst: { namespace: ns, type: 'deployment', name: dst },
  clientId: client ? `${client}.${ns}.serviceaccount.identity.linkerd.cluster.local` : '',
  serverId: server ? `${server}.${ns}.serviceaccount.identity.linkerd.cluster.local` : '',
  noIdentityMsg: msg,
});
const EDGES: Edge[] = [
  edge('linkerd-identity', 'linkerd-prometheus', 'linkerd', 'linkerd-identity', 'linkerd-prometheus'),
  edge('web', 'voting', 'emojivoto', 'web', 'voting'),
  edge('vote-bot', 'web', 'emojivoto', 'default', 'web'),
  edge('web', 'emoji', 'emojivoto', 'web', 'emoji'),
];

describe('viz edges', () => {
  it('-o wide prints linkerd’s edges_wide_output golden', async () => {
    metrics.on('Edges', () => ({ response: { case: 'ok' as const, value: { edges: EDGES } } }));
    const r = await linkerd(['edges', 'deploy', '-A', '-o', 'wide']);
    expect(r.stdout).toBe(
      'SRC                DST                  SRC_NS      DST_NS      CLIENT_ID                  SERVER_ID                    SECURED\n' +
        'vote-bot           web                  emojivoto   emojivoto   default.emojivoto          web.emojivoto                √      \n' +
        'web                emoji                emojivoto   emojivoto   web.emojivoto              emoji.emojivoto              √      \n' +
        'web                voting               emojivoto   emojivoto   web.emojivoto              voting.emojivoto             √      \n' +
        'linkerd-identity   linkerd-prometheus   linkerd     linkerd     linkerd-identity.linkerd   linkerd-prometheus.linkerd   √      \n',
    );
    expect((metrics.calls[0]?.request as EdgesRequest).selector?.resource).toMatchObject({ namespace: '', type: 'deployment' });
  });

  it('table with a no-identity reason, and -o json', async () => {
    metrics.on('Edges', () => ({
      response: { case: 'ok' as const, value: { edges: [...EDGES.slice(1), edge('prometheus', 'web', 'emojivoto', '', '', 'not_provided_by_remote')] } },
    }));
    const r = await linkerd(['edges', 'po', '-n', 'emojivoto']);
    expectGoldenFile(path.join(GOLDEN, 'edges', 'table.txt'), r.stdout);
    expect((metrics.calls[0]?.request as EdgesRequest).selector?.resource).toMatchObject({ namespace: 'emojivoto', type: 'pod' });
    const json = await linkerd(['edges', 'po', '-n', 'emojivoto', '-o', 'json']);
    expectGoldenFile(path.join(GOLDEN, 'edges', 'table.json'), json.stdout);
  });

  it('errors in the real words', async () => {
    const named = await linkerd(['edges', 'deploy/web']);
    expect(named.stderr).toBe('Error: Error creating edges request: Edges cannot be returned for a specific resource name; remove web from query\n');
    const svc = await linkerd(['edges', 'svc']);
    expect(svc.stderr).toBe('Error: Error creating edges request: Resource type is not supported: service\n');
    metrics.on('Edges', () => ({ response: { case: 'ok' as const, value: { edges: [] } } }));
    const none = await linkerd(['edges', 'po']);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'No edges found.\n']);
    metrics.on('Edges', () => ({ response: { case: 'error' as const, value: { error: 'bad' } } }));
    expect((await linkerd(['edges', 'po'])).stderr).toBe('Edges API response error: bad');
  });
});

const route = (name: string, n: bigint): RouteRow => ({
  route: name,
  timeWindow: '1m',
  authority: 'foobar',
  stats: {
    successCount: n,
    failureCount: 0n,
    latencyMsP50: 123n,
    latencyMsP95: 123n,
    latencyMsP99: 123n,
    actualSuccessCount: n,
    actualFailureCount: 0n,
  },
});
const ROUTES = [route('/b', 60n), route('[DEFAULT]', 30n), route('/a', 90n), route('/c', 0n)];

describe('viz routes', () => {
  it('-o wide with --to prints linkerd’s routes_one_output_wide golden', async () => {
    metrics.on('TopRoutes', () => ({ response: { case: 'ok' as const, value: { routes: [{ resource: 'deploy/foobar', rows: ROUTES }] } } }));
    const r = await linkerd(['routes', 'deploy/foobar', '-n', 'default', '--to', 'svc/foobar', '-o', 'wide']);
    expect(r.stdout).toBe(
      'ROUTE       SERVICE   EFFECTIVE_SUCCESS   EFFECTIVE_RPS   ACTUAL_SUCCESS   ACTUAL_RPS   LATENCY_P50   LATENCY_P95   LATENCY_P99\n' +
        '/a           foobar             100.00%          1.5rps          100.00%       1.5rps         123ms         123ms         123ms\n' +
        '/b           foobar             100.00%          1.0rps          100.00%       1.0rps         123ms         123ms         123ms\n' +
        '/c           foobar                   -               -                -            -             -             -             -\n' +
        '[DEFAULT]    foobar             100.00%          0.5rps          100.00%       0.5rps         123ms         123ms         123ms\n\n',
    );
    expect(metrics.calls[0]?.request as TopRoutesRequest).toMatchObject({
      selector: { resource: { namespace: 'default', type: 'deployment', name: 'foobar' } },
      timeWindow: '1m',
      outbound: { case: 'toResource', value: { namespace: 'default', type: 'service', name: 'foobar' } },
    });
  });

  it('-o json prints linkerd’s routes_one_output_json golden', async () => {
    metrics.on('TopRoutes', () => ({ response: { case: 'ok' as const, value: { routes: [{ resource: 'deploy/foobar', rows: ROUTES }] } } }));
    const r = await linkerd(['routes', 'deploy/foobar', '-o', 'json']);
    const row = (name: string, success: number, rps: number) =>
      `    {\n      "route": "${name}",\n      "authority": "foobar",\n      "success": ${success},\n      "rps": ${rps},\n      "latency_ms_p50": 123,\n      "latency_ms_p95": 123,\n      "latency_ms_p99": 123\n    }`;
    expect(r.stdout).toBe(`{\n  "deploy/foobar": [\n${[row('/a', 1, 1.5), row('/b', 1, 1), row('/c', 0, 0), row('[DEFAULT]', 1, 0.5)].join(',\n')}\n  ]\n}\n`);
    expect((metrics.calls[0]?.request as TopRoutesRequest).outbound).toMatchObject({ case: 'none' });
  });

  it('several resources: a banner above each table; errors', async () => {
    metrics.on('TopRoutes', () => ({
      response: {
        case: 'ok' as const,
        value: {
          routes: [
            { resource: 'po/web-2', rows: [route('GET /', 12n)] },
            { resource: 'po/web-1', rows: ROUTES },
          ],
        },
      },
    }));
    expectGoldenFile(path.join(GOLDEN, 'routes', 'two-resources.txt'), (await linkerd(['routes', 'po', '-n', 'emojivoto', '-t', '5m'])).stdout);
    const wide = await linkerd(['routes', 'po', '-o', 'wide']);
    expect(wide.stderr).toBe('Error: wide output is only available when --to is specified\n');
    metrics.on('TopRoutes', () => ({ response: { case: 'error' as const, value: { error: 'No Service Profiles found for selected resources' } } }));
    const none = await linkerd(['routes', 'deploy/web']);
    expect([none.code, none.stderr]).toEqual([1, 'No Service Profiles found for selected resources\n']);
  });
});
