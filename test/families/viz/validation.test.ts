import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { vizCredentials } from '../../../src/families/viz/chart/index.js';
import { composeVizValues, render } from './support.js';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('linkerd viz install: combinations the chart refuses', () => {
  it('refuses prometheus.enabled=false without prometheusUrl with the real words', () => {
    expect(refusal(() => render([{ prometheus: { enabled: false } }]))).toBe(
      'Please enable `linkerd-prometheus` or provide `prometheusUrl` for the viz extension to function properly',
    );
  });

  it('accepts prometheus.enabled=false with prometheusUrl, and points the metrics API and the namespace at it', () => {
    const objects = render([{ prometheus: { enabled: false }, prometheusUrl: 'http://prom.example:9090' }]);
    expect(objects[0].metadata.annotations).toEqual({ 'viz.linkerd.io/external-prometheus': 'http://prom.example:9090' });
    expect(JSON.stringify(objects)).toContain('"-prometheus-url=http://prom.example:9090"');
  });

  it('refuses grafana.url with grafana.externalUrl', () => {
    expect(refusal(() => render([{ grafana: { url: 'grafana.mon:3000', externalUrl: 'https://grafana.example' } }]))).toBe(
      'Cannot set both grafana.url (on-cluster Grafana) and grafana.externalUrl (off-cluster Grafana)',
    );
  });

  const tlsCases: [string, object, string][] = [
    ['externalSecret without a CA', { externalSecret: true }, 'if externalSecret is set, then caBundle, injectCaFrom, or injectCaFromSecret must be set'],
    ['a caBundle without externalSecret', { caBundle: 'CA' }, 'if caBundle, injectCaFrom, or injectCaFromSecret is set, then externalSecret must be set'],
    ['both injections', { externalSecret: true, injectCaFrom: 'a/b', injectCaFromSecret: 'a/c' }, 'injectCaFrom and injectCaFromSecret cannot both be set'],
    [
      'an injection and a caBundle',
      { externalSecret: true, injectCaFrom: 'a/b', caBundle: 'CA' },
      'injectCaFrom or injectCaFromSecret cannot be set if providing a caBundle',
    ],
    ['crtPEM without keyPEM', { crtPEM: 'CRT' }, 'crtPEM and keyPEM must be set together'],
  ];
  for (const key of ['tap', 'tapInjector'] as const) {
    for (const [what, tls, message] of tlsCases) {
      it(`refuses ${key} with ${what}`, async () => {
        expect(refusal(() => render([{ [key]: tls }]))).toBe(`${key}: ${message}`);
        // The certificates are not generated for values the render would refuse.
        await expect(vizCredentials(composeVizValues([{ [key]: tls }]), 'linkerd-viz', new Date())).rejects.toThrow(`${key}: ${message}`);
      });
    }
  }

  it('reports the tap certificate before Prometheus, as the chart meets tap-rbac first', () => {
    expect(refusal(() => render([{ tap: { externalSecret: true }, prometheus: { enabled: false } }]))).toMatch(/^tap: /);
  });
});

describe('viz values: the strict schema', () => {
  it('names an unknown key with its path', () => {
    expect(refusal(() => composeVizValues([{ tap: { replica: 3 } }]))).toBe('values: tap.replica: unknown key');
  });

  it('names a value of the wrong type', () => {
    expect(refusal(() => composeVizValues([{ dashboard: { replicas: 'two' } }]))).toBe('values: dashboard.replicas: expected number, got string');
  });

  it('refuses a failurePolicy other than Ignore or Fail', () => {
    expect(refusal(() => composeVizValues([{ tapInjector: { failurePolicy: 'Sometimes' } }]))).toMatch(
      /^values: tapInjector\.failurePolicy: expected one of: Ignore, Fail/,
    );
  });

  it('merges --ha under the user values', () => {
    expect(composeVizValues([{ tap: { replicas: 2 } }], { ha: true }).tap.replicas).toBe(2);
    expect(composeVizValues([], { ha: true }).tap.replicas).toBe(3);
  });
});
