import { composeChartInputs, type ChartInputs } from '../../core/values/chart.js';
import { CNI_NAME } from '../../core/mesh/names.js';
import { cliCreatedBy } from '../../core/version.js';
import { cniChart } from './chart/chart.js';
import { validateCniFlags } from './chart/flags.js';
import type { CniObject } from './chart/templates/render.js';
import { CNI_PLUGIN_VERSION, type CniValues } from './chart/values.js';

/*
 * `linkerd install-cni` as linkerd's install-cni-plugin.go does it: the flags checked (its
 * `validate`), the chart's values.yaml with what the CLI always sets (its image tag, no pull
 * policy, `linkerd.io/created-by`), then the flags the user set, then `-f`/`--set` over them (user
 * values win). No cluster access; the namespace is always linkerd-cni, whatever --cni-namespace says.
 */

/** values.yaml plus what install-cni sets whether or not a flag is given. */
export function cliBaseValues(): CniValues {
  const values = cniChart.defaults();
  values.image.version = CNI_PLUGIN_VERSION;
  values.image.pullPolicy = null;
  values.cliVersion = cliCreatedBy();
  return values;
}

export async function cniInstallValues(inputs: ChartInputs): Promise<CniValues> {
  validateCniFlags(inputs.flags ?? []);
  const { values } = await composeChartInputs(cniChart, inputs, { base: cliBaseValues() });
  return values;
}

/** Every object of `linkerd install-cni`, in the chart's order. */
export async function renderCniInstall(inputs: ChartInputs): Promise<CniObject[]> {
  const values = await cniInstallValues(inputs);
  const { cni } = await cniChart.templates();
  return cni(values, { namespace: CNI_NAME });
}
