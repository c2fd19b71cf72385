import type { Chart } from '../../../core/values/chart.js';
import { CNI_FLAGS } from './flags.js';
import type { CniContext, CniObject } from './templates/render.js';
import { CniValuesSchema, chartDefaults, type CniValues } from './values.js';

/*
 * linkerd2-cni as a chart of the shared values engine: its schema and defaults (values.yaml),
 * install-cni's flags, and the templates, loaded only when a command renders them.
 */

export interface CniTemplates {
  /** Every object of `linkerd install-cni`, in the chart's order. */
  cni: (values: CniValues, ctx: CniContext) => CniObject[];
}

/** `install`: install-cni's value flags. */
export type CniFlagSet = 'install';

export const cniChart: Chart<CniValues, CniFlagSet, undefined, CniTemplates> = {
  name: 'linkerd2-cni',
  schema: CniValuesSchema,
  defaults: chartDefaults,
  flagSets: { install: CNI_FLAGS },
  async templates() {
    const { renderCni } = await import('./templates/render.js');
    return { cni: renderCni };
  },
};
