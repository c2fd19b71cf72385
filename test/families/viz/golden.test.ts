import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { renderManifest } from '../../../src/cli/output/manifest.js';
import { kubernetesModelFailures } from '../../support/kubernetes-models.js';
import { expectGoldenFile } from '../../support/golden.js';
import { EXTERNAL_SECRETS, render, yamlOf } from './support.js';

const golden = (name: string) => fileURLToPath(new URL(`golden/${name}.yaml`, import.meta.url));

const proxyResources = { proxy: { resources: { cpu: { request: '500m', limit: '100m' }, memory: { request: '20Mi', limit: '250Mi' } } } };

/** The variants of the upstream install tests, with this release's keys (GID, grafana.url) and pinned certificates. */
const VARIANTS: [string, object[], boolean][] = [
  ['default', [], false],
  ['external-secrets', [EXTERNAL_SECRETS], false],
  ['prometheus-disabled', [{ prometheus: { enabled: false }, prometheusUrl: 'external-prom.com' }], false],
  ['prometheus-loglevel-from-args', [{ prometheus: { args: { 'log.level': 'debug' } } }], false],
  ['ha', [], true],
  ['proxy-resources', [{ prometheus: proxyResources, tap: proxyResources, dashboard: proxyResources }], false],
  [
    'overrides',
    [
      {
        defaultLogLevel: 'debug',
        defaultUID: 1234,
        defaultGID: 4321,
        defaultRegistry: 'gcr.io/linkerd',
        tap: { logLevel: 'info', UID: 5678, GID: 8765, image: { registry: 'cr.l5d.io/linkerd', tag: 'stable-9.2' } },
        grafana: { url: 'grafana.grafana:3000' },
      },
    ],
    false,
  ],
];

describe('linkerd viz install: golden renders', () => {
  for (const [name, overlays, ha] of VARIANTS) {
    it(`renders the ${name} variant as reviewed`, () => {
      expectGoldenFile(golden(name), yamlOf(render(overlays, ha)));
    });
  }

  it('prints -o json as one JSON object per line, the same objects as the YAML', () => {
    const objects = render();
    const lines = renderManifest(objects, 'json').trimEnd().split('\n');
    expect(lines).toHaveLength(52);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(yaml.loadAll(yamlOf(objects)));
  });

  it('validates every built-in object (and the APIService) against the Kubernetes OpenAPI schemas', () => {
    const builtIn = (o: { apiVersion: string }) => !/linkerd\.io\//.test(o.apiVersion);
    for (const [, overlays, ha] of VARIANTS) {
      const objects = render(overlays, ha).filter(builtIn);
      expect(objects.length).toBeGreaterThan(30);
      expect(kubernetesModelFailures(objects)).toEqual([]);
    }
    expect(
      kubernetesModelFailures(render([{ enablePSP: true, prometheus: { persistence: { accessMode: 'ReadWriteOnce', size: '8Gi' } } }]).filter(builtIn)),
    ).toEqual([]);
  });
});
