import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINKERD_CRD_EXPECTATIONS } from '../../../templates/crds/index.js';
import { runCheck, type CheckReport, type Severity } from '../../../src/core/check/index.js';
import { createTrustAnchor, formatRFC3339, parseCertificates } from '../../../src/core/pki/index.js';
import { writeKubeconfig } from '../../support/apiserver.js';
import type { StoredObject } from '../../support/apiserver-store.js';
import { DAY, edit, healthyCluster, makePki, without } from './support/clusters.js';
import { jsonCheck, render } from './support/render.js';
import { checkAgainst, closedPort, request } from './support/run.js';

/*
 * Every failure scenario, rendered in every output format from ONE run of the checks: the
 * failing check's id and status, its table and short lines, its JSON object, its JUnit test
 * case, and the exit code must all tell the same story.
 */

const HINTS = 'https://linkerd.io/2/checks/#';

/** What one non-success result must look like. */
interface Failure {
  id: string;
  status: 'error' | 'warning';
  description: string;
  severity: Severity;
  anchor: string;
  /** The exact error, or a pattern when it carries run-dependent text. */
  error: string | RegExp;
  /** The fatal failure that ended the run. */
  stopped?: boolean;
  /** Retried until --wait ran out (`some`), or failed at once on a terminal pod state (`none`). */
  retries?: 'none' | 'some';
}

interface Scenario {
  name: string;
  /** Build the cluster, run the checks once; returns the report and every expected non-success result, in report order. */
  run(): Promise<{ report: CheckReport; failures: Failure[] }>;
}

const notAfter = (pem: string) => formatRFC3339(parseCertificates(pem, 'test')[0].notAfter);
const serialCn = (pem: string, cn: string) => `${BigInt(`0x${parseCertificates(pem, 'test')[0].serialNumber}`).toString(10)} ${cn}`;

/** The name of the (single) linkerd-destination pod of a healthy cluster. */
const destinationPod = (objects: StoredObject[]) => objects.find((o) => o.kind === 'Pod' && o.metadata.name.startsWith('linkerd-destination-'))!.metadata.name;

/** Replace the destination pod's status: the control-plane pod scenarios. */
async function withDestinationPod(change: (status: Record<string, unknown>) => Record<string, unknown>) {
  const cluster = await healthyCluster();
  const pod = destinationPod(cluster.objects);
  const objects = edit(cluster.objects, 'Pod', pod, (p) => ({ ...p, status: change(p.status as Record<string, unknown>) }));
  return { pod, objects };
}

const missingCrd = LINKERD_CRD_EXPECTATIONS[0].name;

const scenarios: Scenario[] = [
  {
    name: 'healthy install',
    async run() {
      const cluster = await healthyCluster();
      return { report: (await checkAgainst(cluster.objects)).report, failures: [] };
    },
  },
  {
    name: 'missing Linkerd CRD',
    async run() {
      const cluster = await healthyCluster();
      const { report } = await checkAgainst(without(cluster.objects, 'CustomResourceDefinition', missingCrd));
      return {
        report,
        failures: [
          {
            id: 'L5D1605',
            status: 'error',
            description: 'control plane CustomResourceDefinitions exist',
            severity: 'fatal',
            anchor: 'l5d-existence-crd',
            error: `missing ${missingCrd}`,
            stopped: true,
          },
        ],
      };
    },
  },
  {
    name: 'missing Gateway API CRDs',
    async run() {
      const cluster = await healthyCluster({ withoutGatewayApi: true });
      const { report } = await checkAgainst(cluster.objects);
      return {
        report,
        failures: [
          {
            id: 'L5D1201',
            status: 'error',
            description: 'Gateway API CRDs are installed',
            severity: 'fatal',
            anchor: 'gateway-api-crd',
            error:
              /^The Gateway API CRDs must be installed prior to installing Linkerd\. Run:\n {4}kubectl apply --server-side -f https:\/\/github\.com\/kubernetes-sigs\/gateway-api\/releases\/download\/v[\d.]+\/standard-install\.yaml/,
            stopped: true,
          },
        ],
      };
    },
  },
  {
    name: 'expired trust anchor',
    async run() {
      const pki = await makePki({ anchor: { from: -400, to: -1 }, issuer: { from: -399, to: 300 } });
      const { report } = await checkAgainst((await healthyCluster({ pki })).objects);
      return {
        report,
        failures: [
          {
            id: 'L5D1803',
            status: 'error',
            description: 'trust anchors are within their validity period',
            severity: 'fatal',
            anchor: 'l5d-identity-trustAnchors-are-time-valid',
            error: `Invalid anchors:\n\t* ${serialCn(pki.anchor.certPem, 'root.linkerd.cluster.local')} not valid anymore. Expired on ${notAfter(pki.anchor.certPem)}`,
            stopped: true,
          },
        ],
      };
    },
  },
  {
    name: 'issuer expiring within 60 days (warning)',
    async run() {
      const pki = await makePki({ issuer: { from: -300, to: 20 } });
      const { report } = await checkAgainst((await healthyCluster({ pki })).objects);
      return {
        report,
        failures: [
          {
            id: 'L5D1807',
            status: 'warning',
            description: 'issuer cert is valid for at least 60 days',
            severity: 'warning',
            anchor: 'l5d-identity-issuer-cert-not-expiring-soon',
            error: `issuer certificate will expire on ${notAfter(pki.issuer.certPem)}`,
          },
        ],
      };
    },
  },
  {
    name: 'issuer not signed by the trust anchor',
    async run() {
      const pki = await makePki({ issuerFromOtherAnchor: true });
      const { report } = await checkAgainst((await healthyCluster({ pki })).objects);
      return {
        report,
        failures: [
          {
            id: 'L5D1808',
            status: 'error',
            description: 'issuer cert is issued by the trust anchor',
            severity: 'error',
            anchor: 'l5d-identity-issuer-cert-issued-by-trust-anchor',
            error: /^x509: certificate signed by unknown authority/,
          },
        ],
      };
    },
  },
  {
    name: 'expired proxy-injector webhook certificate',
    async run() {
      const pki = await makePki({ webhook: { from: -400, to: -2 } });
      const { report } = await checkAgainst((await healthyCluster({ pki })).objects);
      return {
        report,
        failures: [
          {
            id: 'L5D1901',
            status: 'error',
            description: 'proxy-injector webhook has valid cert',
            severity: 'fatal',
            anchor: 'l5d-proxy-injector-webhook-cert-valid',
            error: `anchors not within their validity period:\n\t* ${serialCn(pki.webhooks.proxyInjector.certPem, 'linkerd-proxy-injector.linkerd.svc')} not valid anymore. Expired on ${notAfter(pki.webhooks.proxyInjector.certPem)}`,
            stopped: true,
          },
        ],
      };
    },
  },
  {
    name: 'control-plane pod not ready (short --wait)',
    async run() {
      const { pod, objects } = await withDestinationPod((status) => {
        (status.containerStatuses as Array<{ ready: boolean }>)[0].ready = false;
        return status;
      });
      const { report } = await checkAgainst(objects, { waitMs: 400, retryIntervalMs: 50 });
      return {
        report,
        failures: [
          {
            id: 'L5D1505',
            status: 'error',
            description: 'control plane pods are ready',
            severity: 'fatal',
            anchor: 'l5d-api-control-ready',
            error: `pod/${pod} container destination is not ready`,
            stopped: true,
            retries: 'some',
          },
        ],
      };
    },
  },
  {
    name: 'unschedulable control-plane pod',
    async run() {
      const why = '0/1 nodes are available: 1 Insufficient memory.';
      const { pod, objects } = await withDestinationPod(() => ({
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: why }],
      }));
      // A terminal state: no waiting, however long --wait is.
      const { report } = await checkAgainst(objects, { waitMs: 10_000 });
      return {
        report,
        failures: [
          {
            id: 'L5D1504',
            status: 'warning',
            description: 'no unschedulable pods',
            severity: 'warning',
            anchor: 'l5d-existence-unschedulable-pods',
            error: `${pod}: ${why}`,
            retries: 'none',
          },
          {
            id: 'L5D1505',
            status: 'error',
            description: 'control plane pods are ready',
            severity: 'fatal',
            anchor: 'l5d-api-control-ready',
            error: `No running pods for "linkerd-destination": pod/${pod} is unschedulable: ${why}`,
            stopped: true,
            retries: 'none',
          },
        ],
      };
    },
  },
  {
    name: 'crash-looping control-plane pod',
    async run() {
      const { pod, objects } = await withDestinationPod((status) => {
        (status.containerStatuses as Array<Record<string, unknown>>)[0] = {
          name: 'destination',
          ready: false,
          restartCount: 12,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
        };
        return status;
      });
      const { report } = await checkAgainst(objects, { waitMs: 10_000 });
      return {
        report,
        failures: [
          {
            id: 'L5D1505',
            status: 'error',
            description: 'control plane pods are ready',
            severity: 'fatal',
            anchor: 'l5d-api-control-ready',
            error: `pod/${pod} container destination is not ready: pod/${pod} container destination is crash-looping (CrashLoopBackOff, 12 restarts): back-off 5m0s`,
            stopped: true,
            retries: 'none',
          },
        ],
      };
    },
  },
  {
    name: 'proxy with a stale trust bundle (--proxy)',
    async run() {
      const cluster = await healthyCluster({ scenarios: ['emojivoto.yaml'] });
      const old = await createTrustAnchor({
        commonName: 'root.linkerd.cluster.local',
        notBefore: new Date(Date.now() - DAY),
        notAfter: new Date(Date.now() + DAY),
      });
      const objects = edit(
        cluster.objects,
        'Pod',
        'web-5f86686c4d-58p7k',
        (p) => {
          const proxy = (p.spec as { initContainers: Array<{ name: string; env?: Array<{ name: string; value: string }> }> }).initContainers.find(
            (c) => c.name === 'linkerd-proxy',
          )!;
          proxy.env!.find((e) => e.name === 'LINKERD2_PROXY_IDENTITY_TRUST_ANCHORS')!.value = old.certPem;
          return p;
        },
        'emojivoto',
      );
      const { report } = await checkAgainst(objects, { mode: 'proxy' });
      return {
        report,
        failures: [
          {
            id: 'L5D2001',
            status: 'warning',
            description: 'data plane proxies certificate match CA',
            severity: 'warning',
            anchor: 'l5d-identity-data-plane-proxies-certs-match-ca',
            error: 'Some pods do not have the current trust bundle and must be restarted:\n\t* emojivoto/web-5f86686c4d-58p7k',
          },
        ],
      };
    },
  },
  {
    name: 'Kubernetes older than the minimum',
    async run() {
      const cluster = await healthyCluster();
      const { report } = await checkAgainst(cluster.objects, {}, { version: 'v1.29.4' });
      return {
        report,
        failures: [
          {
            id: 'L5D1101',
            status: 'error',
            description: 'is running the minimum Kubernetes API version',
            severity: 'error',
            anchor: 'k8s-version',
            error: 'Kubernetes is on version [1.29.4], but version [1.31.0] or more recent is required',
          },
        ],
      };
    },
  },
  {
    name: 'forbidden RBAC (403 on a read)',
    async run() {
      const cluster = await healthyCluster();
      const { report } = await checkAgainst(cluster.objects, {}, { denials: [{ verb: 'list', resource: 'secrets', namespace: 'linkerd' }] });
      return {
        report,
        failures: [
          {
            id: 'L5D1801',
            status: 'error',
            description: 'certificate config is valid',
            severity: 'fatal',
            anchor: 'l5d-identity-cert-config-valid',
            error: 'secrets is forbidden: User "kubernetes-admin" cannot list resource "secrets" in API group "" in the namespace "linkerd"',
            stopped: true,
          },
        ],
      };
    },
  },
  {
    name: 'unreachable API (closed port)',
    async run() {
      const port = await closedPort();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-every-format-'));
      try {
        const kubeconfig = writeKubeconfig(path.join(dir, 'kubeconfig'), [{ name: 'gone', server: `https://127.0.0.1:${port}`, token: 'x' }]);
        const report = await runCheck(request(kubeconfig));
        return {
          report,
          failures: [
            {
              id: 'L5D1002',
              status: 'error',
              description: 'can query the Kubernetes API',
              severity: 'fatal',
              anchor: 'k8s-api',
              error: `Get "https://127.0.0.1:${port}/version?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
              stopped: true,
            },
          ],
        };
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Every element is closed, in order, and every <testcase> in particular; returns the test cases. */
function junitCases(xml: string): Map<string, string> {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = xml.slice(xml.indexOf('?>') + 2);
  const stack: string[] = [];
  let roots = 0;
  for (const m of body.matchAll(/<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<>]*")*)\s*(\/?)>/g)) {
    const [, closing, tag, , selfClosing] = m;
    if (closing) {
      expect(stack.pop(), `</${tag}> closes the innermost open element`).toBe(tag);
    } else {
      if (stack.length === 0) roots++;
      if (!selfClosing) stack.push(tag);
    }
  }
  expect(stack, 'unclosed elements').toEqual([]);
  expect(roots).toBe(1);
  // No stray markup outside well-formed tags.
  expect(body.replace(/<\/?[A-Za-z][\w-]*(?:\s+[\w-]+="[^"<>]*")*\s*\/?>/g, '')).not.toMatch(/[<>]/);

  const opened = body.match(/<testcase\b/g) ?? [];
  const cases = [...body.matchAll(/<testcase\b[^>]*\bname="(L5D\d+) [^"]*"[^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g)];
  expect(cases.length).toBe(opened.length);
  return new Map(cases.map((c) => [c[1], c[0]]));
}

describe('each failure scenario, in every output format', () => {
  it.each(scenarios)('$name', async (scenario) => {
    const { report, failures } = await scenario.run();
    const errors = failures.filter((f) => f.status === 'error');
    const success = errors.length === 0;

    // (1) Exactly these checks failed or warned, with these statuses; fatal ones ended the run.
    expect(report.results.filter((r) => r.status !== 'success').map((r) => `${r.id} ${r.status}`)).toEqual(failures.map((f) => `${f.id} ${f.status}`));
    for (const f of failures) {
      const r = report.results.find((x) => x.id === f.id)!;
      expect(r).toMatchObject({ description: f.description, severity: f.severity, hint: `${HINTS}${f.anchor}` });
      expect(r.error).toEqual(typeof f.error === 'string' ? f.error : expect.stringMatching(f.error));
      if (f.retries === 'none') expect(r.retries).toBe(0);
      if (f.retries === 'some') expect(r.retries).toBeGreaterThan(0);
      if (f.stopped) {
        expect(r.stoppedRun).toBe(true);
        expect(report.results[report.results.length - 1].id).toBe(f.id);
        expect(report.notRun.length).toBeGreaterThan(0);
      } else {
        expect(r.stoppedRun).toBeFalsy();
      }
    }
    if (!failures.some((f) => f.stopped)) expect(report.notRun).toEqual([]);
    expect(report.success).toBe(success);

    const out = render(report);
    const status = `Status check results are ${success ? '√' : '×'}\n`;

    // (2) table and (3) short: the glyph line, the indented error, the hint; short shows no √ line.
    expect(out.table).not.toContain('Linkerd core checks');
    expect(out.table.endsWith(status)).toBe(true);
    expect(out.short.endsWith(status)).toBe(true);
    expect(out.short).not.toMatch(/^√/m);
    for (const f of failures) {
      const r = report.results.find((x) => x.id === f.id)!;
      const block = `${f.status === 'error' ? '×' : '‼'} ${f.description}\n    ${r.error}\n    see ${HINTS}${f.anchor} for hints\n`;
      expect(out.table).toContain(block);
      expect(out.short).toContain(block);
    }
    const glyphs = (text: string) => text.split('\n').filter((l) => /^[√‼×] /.test(l));
    expect(glyphs(out.table).filter((l) => !l.startsWith('√ '))).toEqual(failures.map((f) => `${f.status === 'error' ? '×' : '‼'} ${f.description}`));
    expect(glyphs(out.short)).toEqual(failures.map((f) => `${f.status === 'error' ? '×' : '‼'} ${f.description}`));
    if (failures.length === 0) expect(out.short).toBe('Status check results are √\n');

    // (4) json: one document, the failing check in full, `success` matching.
    const doc = JSON.parse(out.json) as { success: boolean; categories: Array<{ categoryName: string; checks: Array<Record<string, unknown>> }> };
    expect(Array.isArray(doc)).toBe(false);
    expect(doc.success).toBe(success);
    const checks = doc.categories.flatMap((c) => c.checks);
    expect(checks.length).toBe(report.results.length);
    for (const c of checks) expect(c.durationMs).toEqual(expect.any(Number));
    expect(checks.filter((c) => c.result !== 'success').map((c) => `${String(c.id)} ${String(c.result)}`)).toEqual(failures.map((f) => `${f.id} ${f.status}`));
    for (const f of failures) {
      const r = report.results.find((x) => x.id === f.id)!;
      expect(jsonCheck(out.json, f.description)).toEqual({
        description: f.description,
        hint: `${HINTS}${f.anchor}`,
        error: r.error,
        result: f.status,
        id: f.id,
        severity: f.severity,
        durationMs: expect.any(Number),
      });
    }

    // (5) junit: well formed, one closed <testcase> per check, <failure> exactly for errors.
    const cases = junitCases(out.junit);
    expect(cases.size).toBe(report.results.length + report.notRun.length);
    expect(out.junit).toContain(`<testsuites name="linkerd check" tests="${cases.size}" failures="${errors.length}" errors="0" `);
    expect((out.junit.match(/<failure /g) ?? []).length).toBe(errors.length);
    for (const f of failures) {
      const r = report.results.find((x) => x.id === f.id)!;
      const tc = cases.get(f.id)!;
      expect(tc, `<testcase> for ${f.id}`).toBeDefined();
      expect(tc).toContain(`name="${f.id} ${xmlEscape(f.description)}"`);
      const detail = xmlEscape(`${r.error}\nsee ${HINTS}${f.anchor} for hints`);
      if (f.status === 'error') {
        expect(tc).toContain(`<failure type="${f.severity}" message="${xmlEscape(r.error!.split('\n')[0])}">${detail}</failure></testcase>`);
      } else {
        expect(tc).not.toContain('<failure');
        expect(tc).toContain(`<system-out>warning: ${detail}</system-out></testcase>`);
      }
    }
    for (const n of report.notRun) expect(cases.get(n.id)).toContain('<skipped message="not run: an earlier fatal check failed"/>');

    // (6) the exit code: errors fail the run, warnings alone do not.
    expect(out.exitCode).toBe(success ? 0 : 1);
  });
});
