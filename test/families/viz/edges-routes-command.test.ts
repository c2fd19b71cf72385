import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';
import type { EdgesRequest, Edge, RouteRow, TopRoutesRequest } from '../../../src/families/viz/metricsApi/proto.js';
import { useMetricsCluster } from './metricsCluster.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const cluster = useMetricsCluster();
const { linkerd } = cluster;
beforeEach(() => {
  cluster.metrics.calls.length = 0;
});

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
    cluster.metrics.on('Edges', () => ({ response: { case: 'ok' as const, value: { edges: EDGES } } }));
    const r = await linkerd(['edges', 'deploy', '-A', '-o', 'wide']);
    expect(r.stdout).toBe(
      'SRC                DST                  SRC_NS      DST_NS      CLIENT_ID                  SERVER_ID                    SECURED\n' +
        'vote-bot           web                  emojivoto   emojivoto   default.emojivoto          web.emojivoto                √      \n' +
        'web                emoji                emojivoto   emojivoto   web.emojivoto              emoji.emojivoto              √      \n' +
        'web                voting               emojivoto   emojivoto   web.emojivoto              voting.emojivoto             √      \n' +
        'linkerd-identity   linkerd-prometheus   linkerd     linkerd     linkerd-identity.linkerd   linkerd-prometheus.linkerd   √      \n',
    );
    expect((cluster.metrics.calls[0]?.request as EdgesRequest).selector?.resource).toMatchObject({ namespace: '', type: 'deployment' });
  });

  it('table with a no-identity reason, and -o json', async () => {
    cluster.metrics.on('Edges', () => ({
      response: { case: 'ok' as const, value: { edges: [...EDGES.slice(1), edge('prometheus', 'web', 'emojivoto', '', '', 'not_provided_by_remote')] } },
    }));
    const r = await linkerd(['edges', 'po', '-n', 'emojivoto']);
    expectGoldenFile(path.join(GOLDEN, 'edges', 'table.txt'), r.stdout);
    expect((cluster.metrics.calls[0]?.request as EdgesRequest).selector?.resource).toMatchObject({ namespace: 'emojivoto', type: 'pod' });
    const json = await linkerd(['edges', 'po', '-n', 'emojivoto', '-o', 'json']);
    expectGoldenFile(path.join(GOLDEN, 'edges', 'table.json'), json.stdout);
  });

  it('SECURED √ is green on a terminal (FORCE_COLOR here), plain when CI or NO_COLOR refuse colour', async () => {
    cluster.metrics.on('Edges', () => ({
      response: { case: 'ok' as const, value: { edges: [EDGES[1]!, edge('prometheus', 'web', 'emojivoto', '', '', 'not_provided_by_remote')] } },
    }));
    const edges = (env: NodeJS.ProcessEnv) => runCli(['viz', 'edges', 'po', '-n', 'emojivoto', '--kubeconfig', cluster.api.kubeconfigPath], { env });
    const green = '\u001b[32m√\u001b[39m';
    const coloured = await edges({ CI: '', FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain(green);
    expect(coloured.stdout).toContain('not_provided_by_remote');
    expect(coloured.stdout.split('\u001b[32m')).toHaveLength(2);
    for (const env of [{}, { CI: '', FORCE_COLOR: '1', NO_COLOR: '1' }, { CI: 'true', FORCE_COLOR: '1' }]) {
      const plain = await edges(env);
      expect(plain.stdout).toContain('√');
      expect(plain.stdout).not.toContain('\u001b[');
    }
  });

  it('errors in the real words', async () => {
    const named = await linkerd(['edges', 'deploy/web']);
    expect(named.stderr).toBe('Error: Error creating edges request: Edges cannot be returned for a specific resource name; remove web from query\n');
    const svc = await linkerd(['edges', 'svc']);
    expect(svc.stderr).toBe('Error: Error creating edges request: Resource type is not supported: service\n');
    cluster.metrics.on('Edges', () => ({ response: { case: 'ok' as const, value: { edges: [] } } }));
    const none = await linkerd(['edges', 'po']);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'No edges found.\n']);
    cluster.metrics.on('Edges', () => ({ response: { case: 'error' as const, value: { error: 'bad' } } }));
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
    cluster.metrics.on('TopRoutes', () => ({ response: { case: 'ok' as const, value: { routes: [{ resource: 'deploy/foobar', rows: ROUTES }] } } }));
    const r = await linkerd(['routes', 'deploy/foobar', '-n', 'default', '--to', 'svc/foobar', '-o', 'wide']);
    expect(r.stdout).toBe(
      'ROUTE       SERVICE   EFFECTIVE_SUCCESS   EFFECTIVE_RPS   ACTUAL_SUCCESS   ACTUAL_RPS   LATENCY_P50   LATENCY_P95   LATENCY_P99\n' +
        '/a           foobar             100.00%          1.5rps          100.00%       1.5rps         123ms         123ms         123ms\n' +
        '/b           foobar             100.00%          1.0rps          100.00%       1.0rps         123ms         123ms         123ms\n' +
        '/c           foobar                   -               -                -            -             -             -             -\n' +
        '[DEFAULT]    foobar             100.00%          0.5rps          100.00%       0.5rps         123ms         123ms         123ms\n\n',
    );
    expect(cluster.metrics.calls[0]?.request as TopRoutesRequest).toMatchObject({
      selector: { resource: { namespace: 'default', type: 'deployment', name: 'foobar' } },
      timeWindow: '1m',
      outbound: { case: 'toResource', value: { namespace: 'default', type: 'service', name: 'foobar' } },
    });
  });

  it('-o json prints linkerd’s routes_one_output_json golden', async () => {
    cluster.metrics.on('TopRoutes', () => ({ response: { case: 'ok' as const, value: { routes: [{ resource: 'deploy/foobar', rows: ROUTES }] } } }));
    const r = await linkerd(['routes', 'deploy/foobar', '-o', 'json']);
    const row = (name: string, success: number, rps: number) =>
      `    {\n      "route": "${name}",\n      "authority": "foobar",\n      "success": ${success},\n      "rps": ${rps},\n      "latency_ms_p50": 123,\n      "latency_ms_p95": 123,\n      "latency_ms_p99": 123\n    }`;
    expect(r.stdout).toBe(`{\n  "deploy/foobar": [\n${[row('/a', 1, 1.5), row('/b', 1, 1), row('/c', 0, 0), row('[DEFAULT]', 1, 0.5)].join(',\n')}\n  ]\n}\n`);
    expect((cluster.metrics.calls[0]?.request as TopRoutesRequest).outbound).toMatchObject({ case: 'none' });
  });

  it('several resources: a banner above each table; errors', async () => {
    cluster.metrics.on('TopRoutes', () => ({
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
    cluster.metrics.on('TopRoutes', () => ({ response: { case: 'error' as const, value: { error: 'No Service Profiles found for selected resources' } } }));
    const none = await linkerd(['routes', 'deploy/web']);
    expect([none.code, none.stderr]).toEqual([1, 'No Service Profiles found for selected resources\n']);
  });
});
