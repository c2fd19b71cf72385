/*
 * The stderr report of inject and uninject, byte for byte as linkerd writes it (spec §3.7, §3.8):
 * a leading blank line, the warnings (or, with --verbose, a √ line for each problem that is absent),
 * a blank line if anything was printed there, one line per document, and a trailing blank line.
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

export interface Glyphs {
  ok: string;
  warn: string;
}

export const PLAIN_GLYPHS: Glyphs = { ok: '√', warn: '‼' };

export function resourceName(r: Pick<DocReport, 'kind' | 'name'>): string {
  return `${r.kind}/${r.name}`;
}

function summaryLine(r: DocReport): string {
  if (r.kind === '') return 'document missing "kind" field, skipped';
  return `${r.kind} "${r.name}" ${r.outcome}`;
}

export interface InjectReportOptions {
  verbose: boolean;
  glyphs?: Glyphs;
  notes?: readonly ReportNote[];
}

export function injectReportText(reports: readonly DocReport[], opts: InjectReportOptions): string {
  const { ok, warn } = opts.glyphs ?? PLAIN_GLYPHS;
  const names = (pick: (r: DocReport) => boolean | undefined) => reports.filter(pick).map(resourceName);
  const hostNetwork = names((r) => r.hostNetwork);
  const sidecar = names((r) => r.sidecar);
  const disabled = names((r) => r.injectDisabled);
  const udp = names((r) => r.udp);
  const supported = reports.some((r) => r.outcome === 'injected' || r.outcome === 'annotated');
  const notes = opts.notes ?? [];

  const lines: string[] = [''];
  let warnings = opts.verbose;
  const check = (problems: string[], warning: () => string, fine: string) => {
    if (problems.length > 0) {
      lines.push(`${warn} ${warning()}`);
      warnings = true;
    } else if (opts.verbose) {
      lines.push(`${ok} ${fine}`);
    }
  };
  check(hostNetwork, () => `"hostNetwork: true" detected in ${hostNetwork.join(', ')}`, 'pods do not use host networking');
  check(sidecar, () => `known 3rd party sidecar detected in ${sidecar.join(', ')}`, 'pods do not have a 3rd party proxy or initContainer already injected');
  check(disabled, () => `"linkerd.io/inject: disabled" annotation set on ${disabled.join(', ')}`, 'pods are not annotated to disable injection');
  check(supported ? [] : ['none'], () => 'no supported objects found', 'at least one resource can be injected or annotated');
  check(udp, () => `${udp.join(', ')} ${udp.length > 1 ? 'use' : 'uses'} "protocol: UDP"`, 'pod specs do not include UDP ports');
  if (opts.verbose) {
    lines.push(`${ok} pods do not have automountServiceAccountToken set to "false" or service account token projection is enabled`);
  }
  for (const n of notes) {
    lines.push(`${warn} ${n.resource}: ${n.message}`);
    warnings = true;
  }
  if (warnings) lines.push('');
  for (const r of reports) lines.push(summaryLine(r));
  lines.push('');
  return lines.join('\n') + '\n';
}

export function uninjectReportText(reports: readonly DocReport[]): string {
  return ['', ...reports.map(summaryLine), ''].join('\n') + '\n';
}
