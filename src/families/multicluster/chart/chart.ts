import { INSTALL_VALUE_FLAGS, type InstallValueFlag } from './flags.js';
import { type MulticlusterValues, MulticlusterValuesSchema, defaults } from './values.js';

/*
 * The linkerd-multicluster chart as the family declares it, in the shape of the chart engine's
 * `Chart<V>` (name, schema, defaults, flag sets, templates loaded on first use). The engine is
 * another helper's and not merged yet, so this type is a local stand-in with the same fields.
 */

export interface MulticlusterChart {
  readonly name: 'linkerd-multicluster';
  readonly schema: typeof MulticlusterValuesSchema;
  defaults(): MulticlusterValues;
  readonly flagSets: { readonly install: readonly InstallValueFlag[] };
  templates(): Promise<{ render: typeof import('./render.js').renderMulticluster }>;
}

export const multiclusterChart: MulticlusterChart = {
  name: 'linkerd-multicluster',
  schema: MulticlusterValuesSchema,
  defaults: () => defaults(),
  flagSets: { install: INSTALL_VALUE_FLAGS },
  templates: async () => ({ render: (await import('./render.js')).renderMulticluster }),
};
