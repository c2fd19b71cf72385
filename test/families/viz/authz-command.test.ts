import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';
import type { AuthzRequest, StatRow } from '../../../src/families/viz/metricsApi/proto.js';
import { clusterWithViz } from './cluster.js';
import { startMetricsApiServer, type MetricsApiServer } from './metricsApiServer.js';

const GOLDEN = path.join(import.meta.dirname, 'golden', 'authz');
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

const linkerd = (args: string[]): Promise<CliResult> => runCli(['viz', ...args, '--kubeconfig', api.kubeconfigPath]);

function row(route: string, srv: [string, string], authz: [string, string], success: bigint, failure: bigint, denied: bigint): StatRow {
  return {
    resource: { namespace: 'emojivoto', type: 'deployment', name: 'web' },
    timeWindow: '1m',
    status: '',
    meshedPodCount: 1n,
    runningPodCount: 1n,
    failedPodCount: 0n,
    stats: {
      successCount: success,
      failureCount: failure,
      latencyMsP50: 1n,
      latencyMsP95: 7n,
      latencyMsP99: 10n,
      actualSuccessCount: 0n,
      actualFailureCount: 0n,
    },
    srvStats: {
      allowedCount: success,
      deniedCount: denied,
      srv: { namespace: 'emojivoto', type: srv[0], name: srv[1] },
      route: { namespace: 'emojivoto', type: 'route', name: route },
      authz: { namespace: 'emojivoto', type: authz[0], name: authz[1] },
    },
  };
}

const ROWS = [
  row('default', ['server', 'web-http'], ['authorizationpolicy', 'web-public'], 180n, 20n, 0n),
  row('default', ['server', 'web-http'], ['', ''], 0n, 0n, 30n),
  row('probe', ['default', 'all-unauthenticated'], ['default', 'all-unauthenticated'], 12n, 0n, 0n),
  row('idle', ['server', 'web-admin'], ['serverauthorization', 'admin'], 0n, 0n, 0n),
  row('idle', ['server', 'web-admin'], ['default', 'all-authenticated'], 0n, 0n, 0n),
  row('idle', ['server', 'web-admin'], ['', ''], 0n, 0n, 0n),
];

describe('viz authz', () => {
  it('prints linkerd’s cli/table: sorted by server, route, authorization; idle default/unauthorized rows hidden', async () => {
    metrics.on('Authz', () => ({ response: { case: 'ok' as const, value: { statTable: { table: { case: 'podGroup' as const, value: { rows: ROWS } } } } } }));
    const r = await linkerd(['authz', 'deploy', 'web', '-n', 'emojivoto']);
    expectGoldenFile(path.join(GOLDEN, 'table.txt'), r.stdout);
    expect(metrics.calls.at(-1)?.request as AuthzRequest).toMatchObject({
      resource: { namespace: 'emojivoto', type: 'deployment', name: 'web' },
      timeWindow: '1m',
    });
    const json = await linkerd(['authz', 'deploy/web', '-n', 'emojivoto', '-o', 'json']);
    expectGoldenFile(path.join(GOLDEN, 'table.json'), json.stdout);
    expect(json.stdout.endsWith('\n')).toBe(false);
    expect((JSON.parse(json.stdout) as Array<Record<string, unknown>>)[3]).toMatchObject({ success: 0.9, rps: 3.3, unauthorized: 0 });
  });

  it('errors: short window, API error without newline', async () => {
    const short = await linkerd(['authz', 'deploy/web', '-t', '5s']);
    expect([short.code, short.stderr]).toEqual([1, 'Error: metrics time window needs to be at least 15s\n']);
    metrics.on('Authz', () => ({ response: { case: 'error' as const, value: { error: 'no such server' } } }));
    const failed = await linkerd(['authz', 'srv/x']);
    expect([failed.code, failed.stderr]).toEqual([1, 'Authz API error: no such server']);
  });
});
