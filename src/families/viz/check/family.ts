import type { CheckFamily } from '../../../core/check/family.js';
import { VIZ_DATA_PLANE_CHECKS } from './dataPlaneChecks.js';
import { VIZ_CHECKS } from './vizChecks.js';

/** The viz checks: `linkerd-viz` always, `linkerd-viz-data-plane` with `--proxy`; codes 50–59. */
export const VIZ_CHECK_FAMILY: CheckFamily = {
  name: 'viz',
  codes: { first: 50, last: 59 },
  categories: [
    { id: 'linkerd-viz', code: 50, modes: ['default', 'proxy'], checks: VIZ_CHECKS },
    { id: 'linkerd-viz-data-plane', code: 51, modes: ['proxy'], checks: VIZ_DATA_PLANE_CHECKS },
  ],
};
