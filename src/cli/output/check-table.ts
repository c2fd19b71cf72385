import type { CheckReport, CheckResult } from '../../core/check/index.js';
import { terminalText } from './sanitize.js';
import { plainPaint, type Paint, type Spinner } from './terminal.js';

/**
 * `-o table` and `-o short`, streamed as results arrive, in the real CLI's layout: per
 * category a header underlined with dashes (no `Linkerd core checks` banner: the real CLI
 * dropped it), `√`/`‼`/`×` lines with the error and hint indented by four spaces, then the
 * extensions section and `Status check results are √|×`.
 */
export interface StreamPrinter {
  waiting(description: string, message?: string): void;
  result(r: CheckResult): void;
  finish(report: CheckReport): void;
  /** The run stopped early (extensions not discoverable): close the section, print no status line. */
  stop(): void;
}

function banner(title: string): string {
  return `${title}\n${'='.repeat(title.length)}\n\n`;
}

export function tablePrinter(o: { short: boolean; write: (s: string) => void; paint?: Paint; spinner?: Spinner }): StreamPrinter {
  const paint = o.paint ?? plainPaint;
  const glyph = (r: CheckResult) =>
    r.status === 'success' ? paint.bold(paint.green('√')) : r.status === 'warning' ? paint.bold(paint.yellow('‼')) : paint.bold(paint.red('×'));
  const status = (ok: boolean) => (ok ? paint.bold(paint.green('√')) : paint.bold(paint.red('×')));

  // One "section" per real RunChecks call: the core checks, then each extension.
  let section: string | undefined = 'core';
  let lastCategory = '';
  let sectionNotOk = false;
  let extensionsBannerPrinted = false;

  const write = (s: string) => {
    o.spinner?.stop();
    o.write(s);
  };

  const closeSection = () => {
    if (section === undefined) return;
    // The real runChecksTable ends every section with a blank line; short output only when the
    // section failed or warned (`output != ShortOutput || !success || warning`).
    if (!o.short || sectionNotOk) write('\n');
    section = undefined;
  };

  return {
    waiting(description, message) {
      o.spinner?.start(terminalText(message ? `${description}: ${message}` : description));
    },
    result(r) {
      if (r.status === 'skipped') return;
      const key = r.extension ?? 'core';
      if (key !== section) {
        closeSection();
        section = key;
        lastCategory = '';
        sectionNotOk = false;
      }
      if (r.status !== 'success') sectionNotOk = true;
      if (o.short && r.status === 'success') return;
      if (r.extension !== undefined && !extensionsBannerPrinted) {
        write(banner('Linkerd extensions checks'));
        extensionsBannerPrinted = true;
      }
      let out = '';
      // Categories, descriptions, errors and hints may come from the cluster or an extension.
      if (r.category !== lastCategory) {
        const category = terminalText(r.category);
        if (lastCategory !== '') out += '\n';
        out += `${category}\n${'-'.repeat(category.length)}\n`;
        lastCategory = r.category;
      }
      out += `${glyph(r)} ${terminalText(r.description)}\n`;
      if (r.status !== 'success') {
        out += `    ${terminalText(r.error ?? '')}\n`;
        if (r.hint) out += `    see ${terminalText(r.hint)} for hints\n`;
      }
      write(out);
    },
    finish(report) {
      closeSection();
      write(`Status check results are ${status(report.success)}\n`);
    },
    stop() {
      closeSection();
    },
  };
}
