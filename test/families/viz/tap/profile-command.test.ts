import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer, type StoredObject, type TapCall } from '../../../support/apiserver.js';
import { runCli } from '../../../support/cli.js';
import { expectGoldenFile } from '../../../support/golden.js';
import { INBOUND, OUTBOUND, type TapEvent } from '../../../../src/families/viz/tap/proto.js';
import { pathToRegex } from '../../../../src/families/viz/tap/profile.js';
import { eventFrames, framesServer, vizNamespace } from '../../../support/tap-events.js';

const linkerdConfig: StoredObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'linkerd-config', namespace: 'linkerd' },
  data: { values: 'clusterDomain: example.org\n' },
};

const request = (direction: number, method: number | string, p: string): TapEvent => ({
  proxyDirection: direction,
  http: {
    kind: 'requestInit',
    id: { base: 1, stream: 1n },
    method: typeof method === 'number' ? { registered: method } : { unregistered: method },
    authority: 'web-svc',
    path: p,
    headers: [],
  },
});

describe('viz profile --tap (loopback API server)', () => {
  let server: ApiServer;
  const calls: TapCall[] = [];
  beforeAll(async () => {
    server = await startApiServer({ objects: [vizNamespace, linkerdConfig] });
  });
  afterAll(() => server.stop());

  it('prints a ServiceProfile of the inbound paths seen, sorted, one route per method and path', async () => {
    const events = [
      request(INBOUND, 0, '/api/list'),
      request(INBOUND, 1, '/api/vote?choice=:doughnut:'),
      request(INBOUND, 0, '/api/list'),
      request(INBOUND, 0, '/'),
      request(OUTBOUND, 0, '/outbound/ignored'),
      request(INBOUND, 'PURGE', '/cache/{id}'),
    ];
    server.setTap(framesServer(eventFrames(events), calls));
    const r = await runCli(['viz', 'profile', 'web-svc', '-n', 'emojivoto', '--tap', 'deploy/web', '--kubeconfig', server.kubeconfigPath]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expectGoldenFile(path.join(__dirname, 'golden', 'profile_tap.golden'), r.stdout);
    expect(calls.at(-1)!.resourcePath).toBe('namespaces/emojivoto/deployments/web/tap');
  });

  it('stops at --tap-route-limit routes, and at --tap-duration on a stream that stays open', async () => {
    const events = ['/a', '/b', '/c'].map((p) => request(INBOUND, 0, p));
    server.setTap(framesServer(eventFrames(events), calls, { end: false }));
    const limited = await runCli([
      'viz',
      'profile',
      'web-svc',
      '-n',
      'emojivoto',
      '--tap',
      'deploy/web',
      '--tap-route-limit',
      '2',
      '--kubeconfig',
      server.kubeconfigPath,
    ]);
    expect(limited.stdout).toContain('name: GET /b\n');
    expect(limited.stdout).not.toContain('GET /c');
    const started = Date.now();
    const timed = await runCli([
      'viz',
      'profile',
      'web-svc',
      '-n',
      'emojivoto',
      '--tap',
      'deploy/web',
      '--tap-duration',
      '300ms',
      '-o',
      'json',
      '--kubeconfig',
      server.kubeconfigPath,
    ]);
    expect([timed.code, timed.stderr]).toEqual([0, '']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(JSON.parse(timed.stdout).spec.routes.map((x: { name: string }) => x.name)).toEqual(['GET /a', 'GET /b', 'GET /c']);
  });

  it('refuses a missing --tap, a service that is not a DNS-1035 label and an unknown -o', async () => {
    const run = (args: string[]) => runCli(['viz', 'profile', ...args, '--kubeconfig', server.kubeconfigPath]);
    expect(await run(['web-svc'])).toMatchObject({ code: 1, stdout: '', stderr: 'Error: The --tap flag must be specified\n' });
    expect(await run(['Web_svc', '--tap', 'deploy/web'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Error: invalid service "Web_svc": [a DNS-1035 label'),
    });
    expect(await run(['web-svc', '--tap', 'deploy/web', '-o', 'table'])).toMatchObject({
      code: 1,
      stderr: 'Error: output format must be one of yaml or json\n',
    });
  });

  it("quotes a path as Go's regexp.QuoteMeta does and turns {param} segments into [^/]*", () => {
    expect(pathToRegex('/api/vote?choice=:x:')).toBe('/api/vote\\?choice=:x:');
    expect(pathToRegex('/books/{id}/v1.2')).toBe('/books/[^/]*/v1\\.2');
  });
});
