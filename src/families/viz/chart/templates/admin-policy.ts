import type { VizValues } from '../values.js';
import type { VizContext } from './context.js';
import { anyNetwork } from './policy.js';

/** `kubelet`: the network the probes come from; the `proxy-probes` AuthorizationPolicy of `viz allow-scrapes` refers to it. */
export function adminPolicy(values: VizValues, ctx: VizContext) {
  return [anyNetwork(values, ctx, 'kubelet')];
}
