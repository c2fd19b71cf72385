/*
 * What inject and uninject found about each object, as data; src/cli/output/inject.ts prints it
 * as linkerd does.
 */

export type Outcome = 'injected' | 'annotated' | 'skipped' | 'uninjected';

export interface DocReport {
  /** Lower-cased kind; empty when the document has none. */
  kind: string;
  name: string;
  outcome: Outcome;
  hostNetwork?: boolean;
  sidecar?: boolean;
  udp?: boolean;
  injectDisabled?: boolean;
}

/** A warning of ours that linkerd does not print (flag/annotation conflicts, ignored annotation values). */
export interface ReportNote {
  resource: string;
  message: string;
}

export function resourceName(r: Pick<DocReport, 'kind' | 'name'>): string {
  return `${r.kind}/${r.name}`;
}
