import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderManifest } from '../../../src/cli/output/manifest.js';
import { composeChartValues } from '../../../src/core/values/chart.js';
import { VIZ_NAMESPACE, renderViz, vizChart, type VizContext, type VizObject, type VizValues } from '../../../src/families/viz/chart/index.js';

/** Shared helpers of the viz chart tests. */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = (name: string) => readFileSync(`${ROOT}fixtures/certs/${name}`, 'utf8');

/** The certificates viz would generate, pinned (fixtures/certs/viz-*), so renders are byte-stable. */
export function pinnedContext(): VizContext {
  return {
    namespace: VIZ_NAMESPACE,
    credentials: {
      tap: { certPem: fixture('viz-tap-crt.pem'), keyPem: fixture('viz-tap-key.pem') },
      tapInjector: { certPem: fixture('viz-tap-injector-crt.pem'), keyPem: fixture('viz-tap-injector-key.pem') },
    },
  };
}

/**
 * The chart engine's values for `viz install [--ha] -f …`: each overlay a values file named
 * `values` (so refusals read `values: <path>: …`), laid over the defaults and `--ha`.
 */
export function composeVizValues(overlays: readonly object[] = [], opts: { ha?: boolean } = {}): VizValues {
  return composeChartValues(vizChart, {
    base: vizChart.defaults(),
    flags: opts.ha ? [{ name: 'ha', value: true }] : [],
    valuesFiles: overlays.map((values) => ({ path: 'values', values: values as Record<string, unknown> })),
  }).values;
}

export function vizValues(overlays: object[] = [], ha = false): VizValues {
  return composeVizValues(overlays, { ha });
}

export function render(overlays: object[] = [], ha = false): VizObject[] {
  return renderViz(vizValues(overlays, ha), pinnedContext());
}

export function yamlOf(objects: readonly object[]): string {
  return renderManifest(objects, 'yaml');
}

export const ref = (o: VizObject) => `${o.kind}/${o.metadata.name}${o.metadata.namespace ? ` -n ${o.metadata.namespace}` : ''}`;

/** Both serving certificates managed outside, with the CA bundle given (as the upstream golden tests pin them). */
export const EXTERNAL_SECRETS = {
  tap: { externalSecret: true, caBundle: 'test-tap-ca-bundle' },
  tapInjector: { externalSecret: true, caBundle: 'test-tap-ca-bundle' },
};
