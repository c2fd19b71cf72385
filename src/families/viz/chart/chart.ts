import { type Chart, type ValueFlag, asBool } from '../../../core/values/chart.js';
import { mergeValues } from '../../../core/values/merge.js';
import type { VizContext, VizObject } from './render.js';
import { VizValuesSchema, defaults, haOverlay, type VizValues } from './values.js';

/*
 * linkerd-viz as a chart of the shared values engine: its schema and defaults, the `--ha` flag
 * (values-ha.yaml merged on the defaults, so `-f` and `--set` still win over it, as in
 * linkerd's viz install), and the templates, loaded only when a command renders them.
 */

export interface VizTemplates {
  /** Every object of `linkerd viz install`, in the real chart's order. */
  viz: (values: VizValues, ctx: VizContext) => VizObject[];
}

/** `install`: viz install's and viz prune's value flags. */
export type VizFlagSet = 'install';

const ha: ValueFlag<VizValues> = {
  name: 'ha',
  kind: 'bool',
  default: false,
  help: 'Install Viz Extension in High Availability mode.',
  apply(values, value) {
    if (asBool(this, value)) Object.assign(values, mergeValues(values, haOverlay()));
  },
};

export const vizChart: Chart<VizValues, VizFlagSet, undefined, VizTemplates> = {
  name: 'linkerd-viz',
  schema: VizValuesSchema,
  defaults: () => defaults(),
  flagSets: { install: [ha] },
  async templates() {
    const { renderViz } = await import('./render.js');
    return { viz: renderViz };
  },
};
