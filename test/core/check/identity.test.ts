import { describe, expect, it } from 'vitest';
import { formatRFC3339, parseCertificates } from '../../../src/core/pki/index.js';
import { edit, healthyCluster, makePki } from './support/clusters.js';
import { jsonCheck, render } from './support/render.js';
import { checkAgainst, core, result, summary } from './support/run.js';

const HINTS = 'https://linkerd.io/2/checks/#';
const notAfter = (pem: string) => formatRFC3339(parseCertificates(pem, 'test')[0].notAfter);
const serialCn = (pem: string) => {
  const c = parseCertificates(pem, 'test')[0];
  return `${BigInt(`0x${c.serialNumber}`).toString(10)} root.linkerd.cluster.local`;
};

describe('identity certificates', () => {
  it('an expired trust anchor is fatal', async () => {
    const pki = await makePki({ anchor: { from: -400, to: -1 }, issuer: { from: -399, to: 300 } });
    const cluster = await healthyCluster({ pki });
    const { report } = await checkAgainst(cluster.objects);
    const r = result(report, 'L5D1803');
    expect(r).toMatchObject({
      status: 'error',
      stoppedRun: true,
      error: `Invalid anchors:\n\t* ${serialCn(pki.anchor.certPem)} not valid anymore. Expired on ${notAfter(pki.anchor.certPem)}`,
      hint: `${HINTS}l5d-identity-trustAnchors-are-time-valid`,
    });
    const out = render(report);
    expect(out.table).toContain(
      `× trust anchors are within their validity period\n    Invalid anchors:\n\t* ${serialCn(pki.anchor.certPem)} not valid anymore.`,
    );
    expect(out.exitCode).toBe(1);
  });

  describe('an issuer that expires within 60 days', () => {
    const setup = async () => {
      const pki = await makePki({ issuer: { from: -300, to: 20 } });
      return { pki, cluster: await healthyCluster({ pki }) };
    };

    it('is a warning, and the run still succeeds (the real CLI’s exit code)', async () => {
      const { pki, cluster } = await setup();
      const { report } = await checkAgainst(cluster.objects);
      const message = `issuer certificate will expire on ${notAfter(pki.issuer.certPem)}`;
      expect(result(report, 'L5D1807')).toMatchObject({ status: 'warning', error: message, hint: `${HINTS}l5d-identity-issuer-cert-not-expiring-soon` });
      const out = render(report);
      expect(out.table).toContain(
        `‼ issuer cert is valid for at least 60 days\n    ${message}\n    see ${HINTS}l5d-identity-issuer-cert-not-expiring-soon for hints\n`,
      );
      expect(out.short).toBe(
        `linkerd-identity\n----------------\n‼ issuer cert is valid for at least 60 days\n    ${message}\n    see ${HINTS}l5d-identity-issuer-cert-not-expiring-soon for hints\n\nStatus check results are √\n`,
      );
      expect(jsonCheck(out.json, 'issuer cert is valid for at least 60 days')).toEqual({
        description: 'issuer cert is valid for at least 60 days',
        hint: `${HINTS}l5d-identity-issuer-cert-not-expiring-soon`,
        error: message,
        result: 'warning',
        id: 'L5D1807',
        severity: 'warning',
        durationMs: expect.any(Number),
      });
      expect(out.junit).toContain(`<system-out>warning: ${message}\nsee ${HINTS}l5d-identity-issuer-cert-not-expiring-soon for hints</system-out>`);
      expect(out.exitCode).toBe(0);
    });

    it('fails the run with --fail-on warning', async () => {
      const { cluster } = await setup();
      const { report } = await checkAgainst(cluster.objects, { failOn: 'warning' });
      const out = render(report, { failOnWarning: true });
      expect(out.exitCode).toBe(1);
      expect(JSON.parse(out.json).success).toBe(false);
      expect(out.table.endsWith('Status check results are ×\n')).toBe(true);
      expect(out.junit).toMatch(/<failure type="warning" message="issuer certificate will expire on [^"]+">/);
    });

    it('is an error when it is inside --cert-min-validity', async () => {
      const { pki, cluster } = await setup();
      const { report } = await checkAgainst(cluster.objects, core({ certMinValidityMs: 30 * 86_400_000 }));
      const r = result(report, 'L5D1807');
      expect(r).toMatchObject({
        status: 'error',
        error: `issuer certificate will expire on ${notAfter(pki.issuer.certPem)} (less than the 30d required by --cert-min-validity)`,
      });
      expect(render(report).exitCode).toBe(1);
      expect(render(report).table).toContain('× issuer cert is valid for at least 60 days\n');
    });

    it('stays a warning when it is outside --cert-min-validity', async () => {
      const { cluster } = await setup();
      const { report } = await checkAgainst(cluster.objects, core({ certMinValidityMs: 7 * 86_400_000 }));
      expect(result(report, 'L5D1807').status).toBe('warning');
      expect(report.success).toBe(true);
    });
  });

  it('soon-expiring trust anchors are a warning listing each anchor', async () => {
    const pki = await makePki({ anchor: { from: -300, to: 10 }, issuer: { from: -300, to: 9 } });
    const cluster = await healthyCluster({ pki });
    const { report } = await checkAgainst(cluster.objects);
    expect(result(report, 'L5D1804')).toMatchObject({
      status: 'warning',
      error: `Anchors expiring soon:\n\t* ${serialCn(pki.anchor.certPem)} will expire on ${notAfter(pki.anchor.certPem)}`,
    });
  });

  it('--cert-min-validity longer than 60 days widens the expiry checks', async () => {
    const pki = await makePki({ issuer: { from: -300, to: 80 } });
    const cluster = await healthyCluster({ pki });
    const { report } = await checkAgainst(cluster.objects, core({ certMinValidityMs: 90 * 86_400_000 }));
    expect(result(report, 'L5D1807').status).toBe('error');
  });

  it('an issuer not signed by the trust anchor is an error', async () => {
    const pki = await makePki({ issuerFromOtherAnchor: true });
    const cluster = await healthyCluster({ pki });
    const { report } = await checkAgainst(cluster.objects);
    const r = result(report, 'L5D1808');
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/^x509: certificate signed by unknown authority/);
    expect(r.hint).toBe(`${HINTS}l5d-identity-issuer-cert-issued-by-trust-anchor`);
    // Not fatal: the webhook checks after it still ran.
    expect(result(report, 'L5D1901').status).toBe('success');
  });

  it('an issuer Secret without its key is fatal, naming the key', async () => {
    const cluster = await healthyCluster();
    const objects = edit(cluster.objects, 'Secret', 'linkerd-identity-issuer', (s) => {
      delete (s.data as Record<string, string>)['key.pem'];
      return s;
    });
    const { report } = await checkAgainst(objects);
    expect(summary(report).slice(-1)).toEqual([
      'L5D1801 error: key key.pem containing the issuer key needs to exist in secret linkerd-identity-issuer if --identity-external-issuer=false',
    ]);
  });

  it('reads cert-manager issuers (scheme kubernetes.io/tls) from tls.crt, tls.key and ca.crt', async () => {
    const pki = await makePki();
    const cluster = await healthyCluster({ pki, values: (v) => (v.identity.issuer.scheme = 'kubernetes.io/tls') });
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    // With an external issuer the install renders no issuer Secret: cert-manager writes it.
    expect(cluster.objects.some((o) => o.kind === 'Secret' && o.metadata.name === 'linkerd-identity-issuer')).toBe(false);
    const objects = [
      ...cluster.objects,
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/tls',
        metadata: { name: 'linkerd-identity-issuer', namespace: 'linkerd' },
        data: { 'tls.crt': b64(pki.issuer.certPem), 'tls.key': b64(pki.issuer.keyPem), 'ca.crt': b64(pki.anchor.certPem) },
      },
    ];
    const { report } = await checkAgainst(objects);
    expect(report.results.filter((r) => r.category === 'linkerd-identity').every((r) => r.status === 'success')).toBe(true);
  });
});

describe('webhook certificates', () => {
  it('an expired proxy-injector certificate is fatal', async () => {
    const pki = await makePki({ webhook: { from: -400, to: -2 } });
    const cluster = await healthyCluster({ pki });
    const { report } = await checkAgainst(cluster.objects);
    const r = result(report, 'L5D1901');
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/^anchors not within their validity period:\n\t\* \d+ linkerd-proxy-injector\.linkerd\.svc not valid anymore\. Expired on /);
    expect(r.stoppedRun).toBe(true);
  });

  it('a soon-expiring webhook certificate is a warning', async () => {
    const pki = await makePki({ webhook: { from: -300, to: 30 } });
    const cluster = await healthyCluster({ pki });
    const { report } = await checkAgainst(cluster.objects);
    expect(result(report, 'L5D1902')).toMatchObject({ status: 'warning', error: `certificate will expire on ${notAfter(pki.webhooks.proxyInjector.certPem)}` });
  });

  it('a serving certificate for another name does not verify', async () => {
    const pki = await makePki();
    const cluster = await healthyCluster({ pki });
    // The sp-validator Secret and caBundle get the proxy-injector's certificate.
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    let objects = edit(cluster.objects, 'Secret', 'linkerd-sp-validator-k8s-tls', (s) => ({
      ...s,
      data: { 'tls.crt': b64(pki.webhooks.proxyInjector.certPem), 'tls.key': b64(pki.webhooks.proxyInjector.keyPem) },
    }));
    objects = edit(objects, 'ValidatingWebhookConfiguration', 'linkerd-sp-validator-webhook-config', (v) => {
      (v.webhooks as Array<{ clientConfig: { caBundle: string } }>)[0].clientConfig.caBundle = b64(pki.webhooks.proxyInjector.certPem);
      return v;
    });
    const { report } = await checkAgainst(objects);
    expect(result(report, 'L5D1903').error).toBe(
      'cert is not issued by the trust anchor: x509: certificate is valid for linkerd-proxy-injector.linkerd.svc, not linkerd-sp-validator.linkerd.svc',
    );
  });

  it('a missing webhook Secret is named', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects.filter((o) => !(o.kind === 'Secret' && o.metadata.name === 'linkerd-proxy-injector-k8s-tls')));
    expect(result(report, 'L5D1901').error).toBe('secrets "linkerd-proxy-injector-tls" not found');
  });

  it('the policy validator is optional', async () => {
    const cluster = await healthyCluster();
    const objects = cluster.objects.filter((o) => !o.metadata.name.startsWith('linkerd-policy-validator'));
    const { report } = await checkAgainst(objects);
    const ids = report.results.map((r) => r.id);
    expect(ids).not.toContain('L5D1905');
    expect(ids).not.toContain('L5D1906');
    expect(report.success).toBe(true);
  });
});
