import { describe, expect, it } from 'vitest';
import { virtualTime } from '../../support/virtualTime.js';
import { createTrustAnchor } from '../../../src/core/pki/index.js';
import { edit, healthyCluster } from './support/clusters.js';
import { jsonCheck, render } from './support/render.js';
import { checkAgainst, result } from './support/run.js';

const HINTS = 'https://linkerd.io/2/checks/#';

describe('linkerd check --proxy', () => {
  it('passes on a healthy mesh, ignoring finished Job pods', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
    const { report } = await checkAgainst(cluster.objects, { mode: 'proxy' });
    const out = render(report);
    expect(out.exitCode).toBe(0);
    expect(out.table).toContain(
      [
        'linkerd-data-plane',
        '------------------',
        '√ data plane namespace exists',
        '√ data plane proxies are ready',
        '√ data plane is up-to-date',
        '√ data plane and cli versions match',
        '√ data plane pod labels are configured correctly',
        '√ data plane service labels are configured correctly',
        '√ data plane service annotations are configured correctly',
        '√ opaque ports are properly annotated',
        '',
        'Status check results are √',
      ].join('\n'),
    );
    expect(out.table).toContain('linkerd-identity-data-plane\n---------------------------\n√ data plane proxies certificate match CA\n');
  });

  it('-n checks one namespace and fails fatally when it does not exist', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
    const ok = await checkAgainst(cluster.objects, { mode: 'proxy', dataPlaneNamespace: 'emojivoto' });
    expect(ok.report.success).toBe(true);
    const { report } = await checkAgainst(cluster.objects, { mode: 'proxy', dataPlaneNamespace: 'nope' });
    expect(result(report, 'L5D2401')).toMatchObject({ status: 'error', error: 'The "nope" namespace does not exist', stoppedRun: true });
  });

  it('reports a namespace without meshed pods', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects, { mode: 'proxy', dataPlaneNamespace: 'default' });
    expect(result(report, 'L5D2402').error).toBe('no "linkerd-proxy" containers found in the "default" namespace');
  });

  for (const [file, pod, status, detail] of [
    [
      'crashloop.yaml',
      'vote-bot-7d8f9c6b5-qw2er',
      'CrashLoopBackOff',
      'container vote-bot is crash-looping (CrashLoopBackOff, 7 restarts): back-off 5m0s restarting failed container=vote-bot pod=vote-bot-7d8f9c6b5-qw2er_emojivoto',
    ],
    [
      'unschedulable.yaml',
      'web-5f86686c4d-zz9xq',
      'Pending',
      'is unschedulable: 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ],
    [
      'image-pull.yaml',
      'emoji-696d9d8f95-k8s7d',
      'ImagePullBackOff',
      'container emoji-svc cannot pull its image (ImagePullBackOff): Back-off pulling image "docker.l5d.io/buoyantio/emojivoto-emoji-svc:v999"',
    ],
  ] as const) {
    it(`fails at once on a terminal pod state (${status}), without waiting for --wait`, async () => {
      const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml', file] });
      const time = virtualTime();
      const { report } = await checkAgainst(cluster.objects, { mode: 'proxy', waitMs: 300_000, clock: time.clock, sleep: time.sleep });
      expect(time.elapsed()).toBeLessThan(300_000);
      const error = `pod "${pod}" status is ${status}: ${detail}`;
      expect(result(report, 'L5D2402')).toMatchObject({ status: 'error', error, retries: 0, stoppedRun: true, hint: `${HINTS}l5d-data-plane-ready` });
      const out = render(report);
      expect(out.table).toContain(
        `linkerd-data-plane\n------------------\n√ data plane namespace exists\n× data plane proxies are ready\n    ${error}\n    see ${HINTS}l5d-data-plane-ready for hints\n\nStatus check results are ×\n`,
      );
      expect(out.short).toContain(`linkerd-data-plane\n------------------\n× data plane proxies are ready\n    ${error}\n`);
      expect(jsonCheck(out.json, 'data plane proxies are ready')).toMatchObject({ error, result: 'error', id: 'L5D2402', severity: 'fatal' });
      expect(out.junit).toContain(`<failure type="fatal" message="${error.replace(/"/g, '&quot;')}">`);
      expect(out.exitCode).toBe(1);
    });
  }

  it('retries a proxy that is still starting until --wait runs out', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml', 'starting.yaml'] });
    const time = virtualTime();
    const { report } = await checkAgainst(cluster.objects, { mode: 'proxy', waitMs: 600, retryIntervalMs: 50, clock: time.clock, sleep: time.sleep });
    expect(time.elapsed()).toBeGreaterThanOrEqual(600);
    const r = result(report, 'L5D2402');
    expect(r.error).toBe('container "linkerd-proxy" in pod "web-5f86686c4d-new01" is not ready');
    expect(r.retries).toBeGreaterThan(1);
  });

  it('lists pods that carry an old trust bundle', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
    const old = await createTrustAnchor({
      commonName: 'root.linkerd.cluster.local',
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 86_400_000),
    });
    const objects = edit(
      cluster.objects,
      'Pod',
      'web-5f86686c4d-58p7k',
      (p) => {
        const proxy = (p.spec as { initContainers: Array<{ name: string; env?: Array<{ name: string; value: string }> }> }).initContainers.find(
          (c) => c.name === 'linkerd-proxy',
        )!;
        proxy.env![0].value = old.certPem;
        return p;
      },
      'emojivoto',
    );
    const all = await checkAgainst(objects, { mode: 'proxy' });
    const error = 'Some pods do not have the current trust bundle and must be restarted:\n\t* emojivoto/web-5f86686c4d-58p7k';
    expect(result(all.report, 'L5D2001')).toMatchObject({ status: 'warning', error, hint: `${HINTS}l5d-identity-data-plane-proxies-certs-match-ca` });
    expect(render(all.report).table).toContain(
      `‼ data plane proxies certificate match CA\n    Some pods do not have the current trust bundle and must be restarted:\n\t* emojivoto/web-5f86686c4d-58p7k\n`,
    );
    const one = await checkAgainst(objects, { mode: 'proxy', dataPlaneNamespace: 'emojivoto' });
    expect(result(one.report, 'L5D2001').error).toBe('Some pods do not have the current trust bundle and must be restarted:\n\t* web-5f86686c4d-58p7k');
  });

  it('warns about outdated proxies and versions that differ from the CLI', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'], version: 'edge-26.8.5' });
    const { report } = await checkAgainst(cluster.objects, { mode: 'proxy' });
    expect(result(report, 'L5D2403')).toMatchObject({
      status: 'warning',
      // Every meshed pod, control plane included, in the API server's order (namespace, name).
      error: expect.stringMatching(
        /^some proxies are not running the current version:\n\t\* emoji-696d9d8f95-5vn9w \(edge-26\.8\.5\)\n\t\* voting-ff4c54b8d-xzqmp \(edge-26\.8\.5\)\n\t\* web-5f86686c4d-58p7k \(edge-26\.8\.5\)\n\t\* linkerd-destination-\S+ \(edge-26\.8\.5\)\n/,
      ),
    });
    expect(result(report, 'L5D2404').error).toBe('emoji-696d9d8f95-5vn9w running edge-26.8.5 but cli running edge-26.9.1');
    expect(result(report, 'L5D2303').error).toMatch(/^linkerd-destination-\S+ running edge-26.8.5 but cli running edge-26.9.1$/);
    expect(report.success).toBe(true);
  });

  it('warns about configuration put in the wrong place', async () => {
    const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml', 'misconfigured.yaml'] });
    const { report } = await checkAgainst(cluster.objects, { mode: 'proxy' });
    expect(result(report, 'L5D2405').error).toBe(
      'Some labels on data plane pods should be annotations:\n\t* emojivoto/books-6d9f8b7c5d-abcde\n\t\tconfig.linkerd.io/skip-outbound-ports',
    );
    expect(result(report, 'L5D2406').error).toBe('Some labels on data plane services should be annotations:\n\t* emojivoto/books\n\t\tlinkerd.io/inject');
    expect(result(report, 'L5D2407').error).toBe(
      'Some annotations on data plane services should be labels:\n\t* emojivoto/books\n\t\tmirror.linkerd.io/exported',
    );
    expect(result(report, 'L5D2408').error).toBe(
      '\t* service books targets the opaque port 3306 through 3306; add 3306 to its config.linkerd.io/opaque-ports annotation',
    );
    expect(report.success).toBe(true);
  });
});
