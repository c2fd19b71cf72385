/*
 * The linkerd-viz chart as one entry for the shared Helm-values engine: its values schema, the
 * defaults `viz install` starts from, the `--ha` overlay and the typed templates.
 */

export { VizValuesSchema, defaults, haOverlay, validateVizValues } from './values.js';
export type { VizValues, VizValuesInput } from './values.js';
export { renderViz, vizValueProblems } from './render.js';
export type { VizObject, VizContext } from './render.js';
export { vizCredentials, vizDnsName } from './credentials.js';
export { VIZ_NAMESPACE } from './templates/context.js';

export { vizChart } from './chart.js';
export type { VizFlagSet, VizTemplates } from './chart.js';
