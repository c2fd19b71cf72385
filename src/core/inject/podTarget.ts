import type { PodSpec } from 'kubernetes-types/core/v1.js';
import type { SidecarParts } from '../../../templates/proxy/index.js';

/**
 * A workload's pod as inject reads and edits it: through a DocEditor (the Document path) or from
 * the CST (cstPod.ts, the fast path). Reads happen where inject needs them, in the same order on
 * both paths, so reports, notes and errors cannot differ.
 */
export interface PodTarget {
  /** The pod spec as plain data. */
  spec(): PodSpec;
  /** The pod template's annotations as strings. */
  annotations(): Record<string, string>;
  /** The workload's `metadata.namespace`, when set. */
  namespace(): string | undefined;
  /** Sets pod template annotations (in key order; the metadata and map are created when missing). */
  setAnnotations(add: ReadonlyMap<string, string>): void;
  /** Sets pod template labels, the same way. */
  setLabels(add: ReadonlyMap<string, string>): void;
  /** Adds the proxy's containers and volumes to the pod spec. */
  addSidecar(parts: SidecarParts): void;
}
