import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { CrdContext, CrdsValues } from '../../../templates/crds/index.js';
import type { Chart } from './chart.js';
import { defaultValues } from './defaults.js';
import { type Values, ValuesSchema } from './schema.js';

/*
 * linkerd-crds: its values (installGatewayAPI and the per-kind route switches) are part of the
 * control-plane schema, as linkerd's NewValues merges the two charts' values, so `install --crds`
 * validates `-f`/`--set` with the same schema. It has no value flags.
 */

export interface CrdsTemplates {
  /** The CRDs of `install --crds`, the Gateway API ones as the values switch them. */
  crds: (values: CrdsValues, ctx: Omit<CrdContext, 'installGatewayAPI'>) => CustomResourceDefinition[];
}

export const crdsChart: Chart<Values, never, undefined, CrdsTemplates> = {
  name: 'linkerd-crds',
  schema: ValuesSchema,
  defaults: () => defaultValues(),
  flagSets: {},
  // The CRD schemas are large; only `--crds` loads them.
  async templates() {
    const { renderCrdsChart } = await import('../../../templates/crds/index.js');
    return { crds: renderCrdsChart };
  },
};
