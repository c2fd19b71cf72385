import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { virtualTime } from '../../support/virtualTime.js';
import { runCheck } from '../../../src/core/check/index.js';
import { startApiServer, writeKubeconfig, type ApiServer } from '../../support/apiserver.js';
import { healthyCluster } from './support/clusters.js';
import { render } from './support/render.js';
import { checkAgainst, closedPort, request, result, summary, versionServer } from './support/run.js';

const HINTS = 'https://linkerd.io/2/checks/#';

describe('when the Kubernetes API cannot be used', () => {
  const servers: ApiServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
  });
  const serve = async () => {
    const s = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
    servers.push(s);
    return s;
  };

  it('an unreachable server fails "can query the Kubernetes API", in kubernetes-api, fatally', async () => {
    const s = await serve();
    const port = await closedPort();
    const kubeconfig = writeKubeconfig(path.join(s.dir, 'unreachable'), [
      { name: 'gone', server: `https://127.0.0.1:${port}`, caPem: s.caPem, token: s.token },
    ]);
    const report = await runCheck(request(kubeconfig));
    const error = `Get "https://127.0.0.1:${port}/version?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    expect(summary(report)).toEqual(['L5D1001 success', `L5D1002 error: ${error}`]);
    const out = render(report);
    expect(out.table).toBe(
      `kubernetes-api\n--------------\n√ can initialize the client\n× can query the Kubernetes API\n    ${error}\n    see ${HINTS}k8s-api for hints\n\nStatus check results are ×\n`,
    );
    expect(JSON.parse(out.json)).toEqual({
      success: false,
      categories: [
        {
          categoryName: 'kubernetes-api',
          checks: [
            { description: 'can initialize the client', result: 'success', id: 'L5D1001', severity: 'fatal', durationMs: expect.any(Number) },
            {
              description: 'can query the Kubernetes API',
              hint: `${HINTS}k8s-api`,
              error,
              result: 'error',
              id: 'L5D1002',
              severity: 'fatal',
              durationMs: expect.any(Number),
            },
          ],
        },
      ],
    });
    expect(out.junit).toContain('tests="50" failures="1" errors="0" skipped="48"');
    expect(out.exitCode).toBe(1);
  });

  it('a bad kubeconfig fails "can initialize the client"', async () => {
    const report = await runCheck(request('/nonexistent/kubeconfig'));
    expect(summary(report)).toEqual(['L5D1001 error: stat /nonexistent/kubeconfig: no such file or directory']);
  });

  it('a server whose certificate the kubeconfig does not trust is a TLS error', async () => {
    const a = await serve();
    const b = await serve();
    const kubeconfig = writeKubeconfig(path.join(a.dir, 'wrong-ca'), [{ name: 'x', server: a.url, caPem: b.caPem, token: a.token }]);
    const report = await runCheck(request(kubeconfig));
    expect(result(report, 'L5D1002').error).toBe(
      `Get "${a.url}/version?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('rejected credentials (401) say so', async () => {
    const s = await serve();
    const kubeconfig = writeKubeconfig(path.join(s.dir, 'bad-token'), [{ name: 'ci', server: s.url, caPem: s.caPem, token: 'wrong' }]);
    const report = await runCheck(request(kubeconfig));
    expect(result(report, 'L5D1002').error).toBe('Unauthorized: the API server rejected the credentials of kubeconfig context "ci"');
  });

  it('a hung server fails within --timeout, not at --wait', async () => {
    const s = await serve();
    s.setFault('/version', 'hang');
    const time = virtualTime();
    const report = await runCheck(request(s.kubeconfigPath, { timeoutMs: 400, waitMs: 60_000, clock: time.clock, sleep: time.sleep }));
    expect(time.elapsed()).toBeLessThan(60_000);
    expect(result(report, 'L5D1002').error).toBe(
      `Get "${s.url}/version?timeout=400ms": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
  });

  it('a server error (500) on a read lands in the check that needed it', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects, {}, {});
    expect(report.success).toBe(true);
    const s = await startApiServer({ objects: cluster.objects });
    servers.push(s);
    s.setFault('GET /apis/apps/v1/namespaces/linkerd/replicasets', { status: 500, message: 'etcdserver: request timed out' });
    const failed = await runCheck(request(s.kubeconfigPath));
    expect(summary(failed).slice(-1)).toEqual(['L5D1503 error: etcdserver: request timed out']);
  });

  it('forbidden reads (403) name the missing permission', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects, {}, { denials: [{ verb: 'list', resource: 'secrets', namespace: 'linkerd' }] });
    expect(summary(report).slice(-1)).toEqual([
      'L5D1801 error: secrets is forbidden: User "kubernetes-admin" cannot list resource "secrets" in API group "" in the namespace "linkerd"',
    ]);
  });

  it('never prints a stack trace', async () => {
    const report = await runCheck(request('/nonexistent/kubeconfig'));
    for (const r of report.results) expect(r.error ?? '').not.toMatch(/\n\s+at /);
  });
});

describe('the latest-version check', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
  });

  it('warns that the latest version could not be determined when versioncheck is unreachable, and skips comparisons', async () => {
    const cluster = await healthyCluster();
    const port = await closedPort();
    const { report } = await checkAgainst(cluster.objects, {
      expectedVersion: undefined,
      versionCheck: { url: `http://127.0.0.1:${port}/version.json`, timeoutMs: 1_000 },
    });
    expect(result(report, 'L5D2101')).toMatchObject({
      status: 'warning',
      error: expect.stringMatching(
        new RegExp(
          `^the latest version could not be determined: Get "http://127\\.0\\.0\\.1:${port}/version\\.json\\?version=[^&]+&uuid=[0-9a-f-]+&source=cli": ` +
            `dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused; version comparisons are skipped \\(use --expected-version to compare against a known release\\)$`,
        ),
      ),
      hint: `${HINTS}l5d-version-latest`,
    });
    const ids = report.results.map((r) => r.id);
    for (const skipped of ['L5D2102', 'L5D2202', 'L5D2302']) expect(ids).not.toContain(skipped);
    expect(result(report, 'L5D2203').status).toBe('success');
    expect(report.success).toBe(true);
  });

  it('gives up on a silent versioncheck after its short timeout', async () => {
    const srv = await versionServer('hang');
    stops.push(() => srv.stop());
    const cluster = await healthyCluster();
    // The server never answers: only the client's deadline can end this, as the message says.
    const { report } = await checkAgainst(cluster.objects, { expectedVersion: undefined, versionCheck: { url: srv.url, timeoutMs: 300 } });
    expect(result(report, 'L5D2101').error).toMatch(
      /^the latest version could not be determined: Get "http:\/\/127\.0\.0\.1:\d+\/version\.json\?[^"]+": context deadline exceeded \(Client\.Timeout exceeded while awaiting headers\);/,
    );
  });

  it('compares with what versioncheck answers, sending the install id', async () => {
    const srv = await versionServer({ edge: 'edge-26.10.2', stable: 'stable-2.14.10' });
    stops.push(() => srv.stop());
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects, { expectedVersion: undefined, versionCheck: { url: srv.url, timeoutMs: 2_000 } });
    expect(result(report, 'L5D2102')).toMatchObject({ status: 'warning', error: 'is running version 26.9.1 but the latest edge version is 26.10.2' });
    expect(result(report, 'L5D2202').error).toBe('is running version 26.9.1 but the latest edge version is 26.10.2');
    expect(srv.requests).toHaveLength(1);
    expect(srv.requests[0]).toMatch(/^\/version\.json\?version=edge-26\.9\.1&uuid=[0-9a-f-]{36}&source=cli$/);
  });
});
