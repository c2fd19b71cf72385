import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { anyNetwork } from './policy.js';

/** `kubelet`: the network the probes come from, referred to by the policies of the admin ports. */
export function adminPolicy(values: VizValues, ctx: VizContext) {
  return [anyNetwork(values, ctx, 'kubelet')];
}
