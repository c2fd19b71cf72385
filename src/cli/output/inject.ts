import type { InjectResult, InputReport, UninjectResult } from '../../core/inject/run.js';
import { resourceName, type DocReport, type ReportNote } from '../../core/inject/report.js';
import type { SkippedEntry } from '../../core/manifest/sources.js';
import { INJECT_ANNOTATION, INJECT_DISABLED } from '../../core/mesh/names.js';

/*
 * The stderr report of inject and uninject, byte for byte as linkerd writes it (pkg/inject/report.go's generateReport):
 * a leading blank line, the warnings (or, with --verbose, a √ line for each problem that is absent),
 * a blank line if anything was printed there, one line per document, and a trailing blank line —
 * once for all inputs (inject) or once per input (uninject). Before it: deprecated flags, where the values came from, and the directory
 * entries that were not read.
 */

export interface Glyphs {
  ok: string;
  warn: string;
}

export const PLAIN_GLYPHS: Glyphs = { ok: '√', warn: '‼' };

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
  check(disabled, () => `"${INJECT_ANNOTATION}: ${INJECT_DISABLED}" annotation set on ${disabled.join(', ')}`, 'pods are not annotated to disable injection');
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

export interface PrintOptions {
  verbose: boolean;
  glyphs?: Glyphs;
}

/** What a command prints: the manifest (only when every input succeeded), the report, the exit code. */
export interface CommandText {
  /** False when nothing may be printed on stdout. */
  printManifest: boolean;
  stderr: string;
  exitCode: number;
}

function skippedLines(skipped: readonly SkippedEntry[], warn: string): string {
  return skipped.map((s) => `${warn} skipped ${s.path}: ${s.reason}\n`).join('');
}

const reportsOf = (inputs: readonly InputReport[], text: (r: InputReport) => string) => inputs.map(text).join('');

export function injectText(result: InjectResult, opts: PrintOptions): CommandText {
  const glyphs = opts.glyphs ?? PLAIN_GLYPHS;
  const lead =
    result.deprecations.map((l) => `${l}\n`).join('') + result.notes.map((n) => `${glyphs.warn} ${n}\n`).join('') + skippedLines(result.skipped, glyphs.warn);
  if (result.errors) return { printManifest: false, stderr: `${lead}Error transforming resources:\n${result.errors.join('\n')}\n`, exitCode: 1 };
  // One report for all inputs: linkerd uninjects every input into one stream, then injects that.
  const reports = injectReportText(
    result.inputs.flatMap((r) => r.reports),
    { verbose: opts.verbose, glyphs, notes: result.inputs.flatMap((r) => r.notes) },
  );
  return { printManifest: true, stderr: lead + reports, exitCode: 0 };
}

export function uninjectText(result: UninjectResult): CommandText {
  const stderr = skippedLines(result.skipped, PLAIN_GLYPHS.warn) + reportsOf(result.inputs, (r) => uninjectReportText(r.reports));
  return { printManifest: true, stderr, exitCode: 0 };
}

/** Writes a result: the manifest on stdout (when it may be printed), then the report on stderr. */
export async function printTransform(
  result: InjectResult | UninjectResult,
  text: CommandText,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  try {
    if (text.printManifest) await result.output.writeTo(out);
  } finally {
    result.output.dispose();
  }
  err.write(text.stderr);
  return text.exitCode;
}
