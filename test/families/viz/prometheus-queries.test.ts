import { describe, expect, it } from 'vitest';
import { quantileQuery, queryLabels, rateQuery } from '../../../src/families/viz/prometheus/queries.js';
import { statResource } from '../../../src/families/viz/statTraffic.js';

describe('the PromQL of viz stat-inbound / stat-outbound', () => {
  it('selects the target by its kind label and namespace (labels sorted, Go-quoted), grouped by namespace and kind', () => {
    const resource = statResource('deploy/web', 'emojivoto');
    const q = { metric: 'response_total', labels: { direction: 'inbound' }, window: '1m', resource, groupBy: ['srv_name', 'classification'] };
    expect(rateQuery(q)).toBe(
      'sum(increase(response_total{deployment="web", direction="inbound", namespace="emojivoto"}[1m])) by (srv_name, classification, namespace, deployment)',
    );
    expect(quantileQuery('0.95', { ...q, metric: 'response_latency_ms_bucket' })).toBe(
      'histogram_quantile(0.95, sum(irate(response_latency_ms_bucket{deployment="web", direction="inbound", namespace="emojivoto"}[1m])) by (le, srv_name, classification, namespace, deployment))',
    );
  });

  it('jobs are k8s_job; namespaces drop -n and group by namespace alone; policy kinds use their own labels', () => {
    expect(queryLabels(statResource('job/backup', 'ops'))).toEqual({ k8s_job: 'backup', namespace: 'ops' });
    const ns = statResource('ns/emojivoto', 'ignored');
    expect(ns).toEqual({ type: 'namespace', name: 'emojivoto', namespace: '' });
    expect(rateQuery({ metric: 'm', labels: {}, window: '5m', resource: ns, groupBy: [] })).toBe('sum(increase(m{namespace="emojivoto"}[5m])) by (namespace)');
    expect(queryLabels(statResource('srv/web-http', 'a'))).toEqual({ srv_kind: 'server', srv_name: 'web-http', namespace: 'a' });
    expect(queryLabels(statResource('svc/web', 'a'))).toEqual({ namespace: 'a' });
    // A hostile name stays one quoted label value.
    expect(rateQuery({ metric: 'm', labels: {}, window: '1m', resource: statResource('deploy/a"}or vector(1)', 'x'), groupBy: [] })).toContain(
      'm{deployment="a\\"}or vector(1)", namespace="x"}',
    );
  });
});
