import type { Chart } from '../../../core/values/chart.js';
import { INSTALL_VALUE_FLAGS } from './flags.js';
import { type MulticlusterValues, MulticlusterValuesSchema, defaults } from './values.js';

/** The chart's one template: every object of the linkerd-multicluster chart, in upstream's order. */
export interface MulticlusterTemplates {
  render: typeof import('./render.js').renderMulticluster;
}

/** The linkerd-multicluster chart in the chart engine's shape; its templates load on first use. */
export type MulticlusterChart = Chart<MulticlusterValues, 'install', undefined, MulticlusterTemplates>;

export const multiclusterChart: MulticlusterChart = {
  name: 'linkerd-multicluster',
  schema: MulticlusterValuesSchema,
  defaults: () => defaults(),
  flagSets: { install: INSTALL_VALUE_FLAGS },
  templates: async () => ({ render: (await import('./render.js')).renderMulticluster }),
};
