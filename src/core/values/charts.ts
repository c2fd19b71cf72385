import type { ChartEntry } from './chart.js';

/*
 * The core family's charts, for its declaration: names now, the charts (schema, defaults, flag
 * tables) on first use.
 */
export const CORE_CHARTS: readonly ChartEntry[] = [
  { name: 'linkerd-control-plane', load: async () => (await import('./controlPlaneChart.js')).controlPlaneChart },
  { name: 'linkerd-crds', load: async () => (await import('./crdsChart.js')).crdsChart },
];
