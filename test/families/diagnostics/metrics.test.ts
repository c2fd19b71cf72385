import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obfuscateMetrics } from '../../../src/families/diagnostics/obfuscate.js';
import { connectKube } from '../../../src/core/kube/kubeClient.js';
import { getThroughPortForward } from '../../../src/core/kube/portForwardHttp.js';
import { kubeGlobals, startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';

const pod = (name: string, namespace: string, containers: Array<{ name: string; port: string; number: number }>, phase = 'Running', owner?: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    labels: { app: name.split('-')[0] },
    ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: owner }] } : {}),
  },
  spec: { containers: containers.map((c) => ({ name: c.name, image: 'x', ports: [{ name: c.port, containerPort: c.number }] })) },
  status: { phase },
});

const SAMPLE = [
  '# HELP inbound_http_authz_allow_total The total number of inbound HTTP requests that were authorized',
  '# TYPE inbound_http_authz_allow_total counter',
  'inbound_http_authz_allow_total{target_addr="0.0.0.0:4191",target_ip="0.0.0.0",target_port="4191",srv_kind="default",srv_name="all-unauthenticated",client_id="default.default.serviceaccount.identity.linkerd.cluster.local"} 3',
  'inbound_http_authz_allow_total{target_addr="10.42.0.63:8080",target_ip="10.42.0.63",target_port="8080",srv_name="web"} 12',
  '',
].join('\n');

describe('diagnostics proxy-metrics --obfuscate', () => {
  it('replaces peer-naming label values by the first 4 bytes of their SHA-256, as the real command', () => {
    const out = obfuscateMetrics(SAMPLE);
    expect(out).toContain('target_addr="f21fd977"');
    expect(out).toContain('target_addr="d5b2560e"');
    expect(out).toContain('client_id="b1da0aee"');
    // Other labels, names, integer values, HELP and TYPE come out as they went in.
    expect(out).toContain('target_ip="10.42.0.63",target_port="8080",srv_name="web"} 12');
    expect(out.split('\n').slice(0, 2)).toEqual(SAMPLE.split('\n').slice(0, 2));
  });

  it("re-serialises the scrape as Go's text writer does (values, types, histograms, comments)", () => {
    const input = [
      '# HELP inbound_http_authz_allow_total The total number of inbound HTTP requests that were authorized',
      '# TYPE inbound_http_authz_allow_total counter',
      'inbound_http_authz_allow_total{target_addr="10.42.0.63:8080",srv_name="web",client_id="web.app.serviceaccount.identity.linkerd.cluster.local"} 12',
      '# HELP process_start_time_seconds Time that the process started (in seconds since the UNIX epoch)',
      '# TYPE process_start_time_seconds gauge',
      'process_start_time_seconds 1733440000',
      "# HELP response_latency_ms Elapsed times between a request's headers being received and its response stream completing",
      '# TYPE response_latency_ms histogram',
      'response_latency_ms_bucket{direction="inbound",authority="web.app.svc.cluster.local:8080",le="1"} 5',
      'response_latency_ms_bucket{le="2.0",direction="inbound",authority="web.app.svc.cluster.local:8080"} 7',
      'response_latency_ms_sum{direction="inbound",authority="web.app.svc.cluster.local:8080"} 1.0',
      'response_latency_ms_count{direction="inbound",authority="web.app.svc.cluster.local:8080"} 9',
      'tcp_open_connections{direction="outbound",dst_namespace="app",dst_service="db",note="say \\"hi\\""} 2 1733440000123',
      '# TYPE idle_family gauge',
      '# UNIT process_cpu_seconds_total seconds',
      '# TYPE process_cpu_seconds_total counter',
      'process_cpu_seconds_total 0.00001',
      'proxy_build_info{version="1.2.3"} 1.0',
      '# EOF',
      '',
    ].join('\n');
    // Written by hand from expfmt's rules: HELP only where given, TYPE always (untyped when
    // undeclared), families without samples and other comments dropped, histogram buckets with `le`
    // last and a +Inf bucket from _count, floats as strconv 'g' shortest.
    expect(obfuscateMetrics(input)).toBe(
      [
        '# HELP inbound_http_authz_allow_total The total number of inbound HTTP requests that were authorized',
        '# TYPE inbound_http_authz_allow_total counter',
        'inbound_http_authz_allow_total{target_addr="d5b2560e",srv_name="web",client_id="1f49234b"} 12',
        '# HELP process_start_time_seconds Time that the process started (in seconds since the UNIX epoch)',
        '# TYPE process_start_time_seconds gauge',
        'process_start_time_seconds 1.73344e+09',
        "# HELP response_latency_ms Elapsed times between a request's headers being received and its response stream completing",
        '# TYPE response_latency_ms histogram',
        'response_latency_ms_bucket{direction="inbound",authority="c0b7dc96",le="1"} 5',
        'response_latency_ms_bucket{direction="inbound",authority="c0b7dc96",le="2"} 7',
        'response_latency_ms_bucket{direction="inbound",authority="c0b7dc96",le="+Inf"} 9',
        'response_latency_ms_sum{direction="inbound",authority="c0b7dc96"} 1',
        'response_latency_ms_count{direction="inbound",authority="c0b7dc96"} 9',
        '# TYPE tcp_open_connections untyped',
        'tcp_open_connections{direction="outbound",dst_namespace="a172cedc",dst_service="7bdc25d1",note="say \\"hi\\""} 2 1733440000123',
        '# TYPE process_cpu_seconds_total counter',
        'process_cpu_seconds_total 1e-05',
        '# TYPE proxy_build_info untyped',
        'proxy_build_info{version="1.2.3"} 1',
        '',
      ].join('\n'),
    );
  });

  it('keeps one histogram series when its lines name their labels in another order', () => {
    const input = [
      '# TYPE h histogram',
      'h_bucket{a="1",b="2",le="1"} 1',
      'h_bucket{b="2",a="1",le="+Inf"} 2',
      'h_sum{b="2",a="1"} 3',
      'h_count{a="1",b="2"} 2',
      '',
    ].join('\n');
    expect(obfuscateMetrics(input)).toBe(
      ['# TYPE h histogram', 'h_bucket{a="1",b="2",le="1"} 1', 'h_bucket{a="1",b="2",le="+Inf"} 2', 'h_sum{a="1",b="2"} 3', 'h_count{a="1",b="2"} 2', ''].join(
        '\n',
      ),
    );
  });

  it("formats floats as Go's strconv g with shortest precision", async () => {
    const { goFloat } = await import('../../../src/families/diagnostics/obfuscate.js');
    expect([1733440000, 1, 0, -0, 123456, 1234567, 0.0001, 0.00001, 1.5e300, -2.5e-7, 0.1].map(goFloat)).toEqual([
      '1.73344e+09',
      '1',
      '0',
      '0',
      '123456',
      '1.234567e+06',
      '0.0001',
      '1e-05',
      '1.5e+300',
      '-2.5e-07',
      '0.1',
    ]);
  });

  it('refuses a malformed label set with the line it is on', () => {
    expect(() => obfuscateMetrics('# TYPE x counter\nx{authority="a} 1\n')).toThrow(/line 2: unterminated value of label "authority"/);
  });
});

describe('linkerd diagnostics (loopback API server and admin servers)', () => {
  let api: ApiServer;
  let admin: http.Server;
  let silent: http.Server;
  let hangPolicy = false;
  const served: string[] = [];
  beforeAll(async () => {
    admin = http.createServer((req, res) => {
      served.push(req.url ?? '');
      res.end(req.url === '/metrics' ? SAMPLE : 'nope');
    });
    await new Promise<void>((r) => admin.listen(0, '127.0.0.1', r));
    const adminPort = (admin.address() as AddressInfo).port;
    // Accepts requests and never answers them.
    silent = http.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentPort = (silent.address() as AddressInfo).port;
    api = await startApiServer({
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'linkerd' } },
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'web', namespace: 'app', uid: 'sts-uid' },
          spec: { selector: { matchLabels: { app: 'web' } } },
        },
        pod('web-0', 'app', [{ name: 'linkerd-proxy', port: 'linkerd-admin', number: 4191 }], 'Running', 'sts-uid'),
        pod('web-1', 'app', [{ name: 'linkerd-proxy', port: 'linkerd-admin', number: 4191 }], 'Pending', 'sts-uid'),
        pod('linkerd-destination-1', 'linkerd', [
          { name: 'destination', port: 'dest-admin', number: 9996 },
          { name: 'policy', port: 'policy-admin', number: 9990 },
        ]),
      ],
      portForward: (_ns, _pod, port) => ({ host: '127.0.0.1', port: hangPolicy && port === 9990 ? silentPort : adminPort }),
    });
  });
  afterAll(async () => {
    await api.stop();
    await new Promise((r) => admin.close(r));
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
  });

  it('proxy-metrics prints each pod of a workload, a pod not running as an error', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'diagnostics', 'proxy-metrics', '-n', 'app', 'sts/web']);
    expect(r.stdout).toBe(`#\n# POD web-0 (1 of 2)\n#\n${SAMPLE}#\n# POD web-1 (2 of 2)\n#\n# ERROR: pod not running: web-1\n`);
    expect(served).toContain('/metrics');
    expect(r.code).toBe(0);
  });

  it('proxy-metrics --obfuscate hashes the peer labels of what it fetched', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'dg', 'proxy-metrics', '--obfuscate', '-n', 'app', 'po/web-0']);
    expect(r.stdout).toBe(`#\n# POD web-0 (1 of 1)\n#\n${obfuscateMetrics(SAMPLE)}`);
    expect(r.stdout).not.toContain('10.42.0.63:8080');
  });

  it('controller-metrics prints every admin container of the control plane, sorted', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'diagnostics', 'cp-metrics']);
    expect(r.stdout).toBe(
      `#\n# POD linkerd-destination-1 (1 of 2)\n# CONTAINER destination \n#\n${SAMPLE}#\n# POD linkerd-destination-1 (2 of 2)\n# CONTAINER policy \n#\n${SAMPLE}`,
    );
  });

  it("controller-metrics ends a fetch that never answers at --wait, as that container's error", async () => {
    hangPolicy = true;
    try {
      const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'diagnostics', 'controller-metrics', '-w', '300ms']);
      expect(r.stdout).toContain(`# CONTAINER destination \n#\n${SAMPLE}`);
      expect(r.stdout).toContain('# POD linkerd-destination-1 (2 of 2)\n# ERROR GET /metrics: no answer in 300 ms\n');
      expect(r.code).toBe(0);
    } finally {
      hangPolicy = false;
    }
  });

  it('refuses a metrics body over the size bound while it streams', async () => {
    const kube = await connectKube(kubeGlobals(api));
    try {
      await expect(getThroughPortForward(kube, 'app', 'web-0', 4191, '/metrics', { timeoutMs: 5_000, maxBytes: 100 })).rejects.toThrow(
        'the body of GET /metrics is larger than 100 bytes',
      );
      await expect(getThroughPortForward(kube, 'app', 'web-0', 4191, '/metrics', { timeoutMs: 5_000, maxBytes: 10_000 })).resolves.toBe(SAMPLE);
    } finally {
      kube.close();
    }
  });

  it('refuses resource words as the real command does', async () => {
    const r = await runCli(['--kubeconfig', api.kubeconfigPath, 'diagnostics', 'proxy-metrics', 'deploy']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('no resource name provided');
    const svc = await runCli(['--kubeconfig', api.kubeconfigPath, 'diagnostics', 'proxy-metrics', 'svc/web']);
    expect(svc.stderr).toContain('unsupported resource type: web');
  });
});
