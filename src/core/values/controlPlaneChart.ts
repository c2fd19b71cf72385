import type { RenderedObject } from '../../../templates/control-plane/index.js';
import type { ControlPlaneContext } from '../../../templates/control-plane/context.js';
import type { Chart, SetFlag } from './chart.js';
import { applyChartFlags, deprecationWarnings as chartDeprecationWarnings } from './chartFlags.js';
import { type ComposedValues, type ValueSources, composeChartValues } from './composeValues.js';
import { defaultValues } from './defaults.js';
import { CONTROL_PLANE_FLAG_SETS, type ControlPlaneFlagSet, type FlagContext } from './flags.js';
import { type Values, ValuesSchema } from './schema.js';

/*
 * linkerd-control-plane, the first chart: the schema and defaults of this release (the CRD chart's
 * values merged in, as linkerd's NewValues does), the install/upgrade/inject flag sets, and the
 * templates of `linkerd install`, loaded only when a command renders them.
 */

export interface ControlPlaneTemplates {
  /** Every object of `linkerd install`, in the real CLI's order. */
  controlPlane: (values: Values, ctx: ControlPlaneContext) => RenderedObject[];
}

export type { ControlPlaneFlagSet } from './flags.js';

export const controlPlaneChart: Chart<Values, ControlPlaneFlagSet, FlagContext, ControlPlaneTemplates> = {
  name: 'linkerd-control-plane',
  schema: ValuesSchema,
  defaults: () => defaultValues(),
  flagSets: CONTROL_PLANE_FLAG_SETS,
  async templates() {
    const { renderControlPlane } = await import('../../../templates/control-plane/index.js');
    return { controlPlane: renderControlPlane };
  },
};

/** Applies the control-plane flags the user set to a copy of `values`, in table order. */
export function applyFlags(values: Values, setFlags: readonly SetFlag[], ctx: FlagContext = {}): Values {
  return applyChartFlags(controlPlaneChart, values, setFlags, ctx);
}

/** The control-plane values of install/upgrade: base → set flags → `-f` → `--set*`, validated. */
export function composeValues(src: ValueSources<Values, FlagContext>): ComposedValues<Values> {
  return composeChartValues(controlPlaneChart, src);
}

/** pflag's warnings for the deprecated control-plane flags the user set. */
export function deprecationWarnings(setFlags: readonly SetFlag[]): string[] {
  return chartDeprecationWarnings(controlPlaneChart, setFlags);
}
