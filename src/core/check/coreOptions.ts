import type { KubeObject } from '../kube/resources.js';
import { CNI_NAME } from '../mesh/names.js';
import type { CheckOptions } from './context.js';

/** The core family's options slot: what only the core checks read. */
export interface CoreCheckOptions {
  /** `--cni-namespace` (default `linkerd-cni`). */
  cniNamespace?: string;
  /** `--pre --linkerd-cni-enabled`. */
  cniEnabled?: boolean;
  /** Certificates must stay valid this long, else the expiry check is an error (`--cert-min-validity`). */
  certMinValidityMs?: number;
  /** The objects `linkerd install` would render with default values (for `--pre`). */
  installObjects?: () => Promise<KubeObject[]>;
}

/** The core slot of a run's options, defaults filled in. */
export function coreOptions(options: CheckOptions): CoreCheckOptions & { cniNamespace: string; cniEnabled: boolean } {
  const slot = options.families?.core ?? {};
  return { ...slot, cniNamespace: slot.cniNamespace ?? CNI_NAME, cniEnabled: slot.cniEnabled ?? false };
}
