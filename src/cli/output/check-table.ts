import type { CheckReport, CheckResult } from '../../core/check/index.js';
import { terminalText } from './sanitize.js';
import { plainPaint, type Paint, type Spinner } from './terminal.js';

/**
 * `-o table` and `-o short`, streamed as results arrive, in the real CLI's layout: a
 * `Linkerd core checks` banner, per category a header underlined with dashes, `√`/`‼`/`×`
 * lines with the error and hint indented by four spaces, then the extensions section and
 * `Status check results are √|×`.
 */
export interface StreamPrinter {
  waiting(description: string, message?: string): void;
  result(r: CheckResult): void;
  finish(report: CheckReport): void;
}

function banner(title: string): string {
  return `${title}\n${'='.repeat(title.length)}\n\n`;
}

/** `banner: false` for a family's own check command (`linkerd viz check`), which prints none. */
export function tablePrinter(o: { short: boolean; write: (s: string) => void; paint?: Paint; spinner?: Spinner; banner?: boolean }): StreamPrinter {
  const paint = o.paint ?? plainPaint;
  const glyph = (r: CheckResult) =>
    r.status === 'success' ? paint.bold(paint.green('√')) : r.status === 'warning' ? paint.bold(paint.yellow('‼')) : paint.bold(paint.red('×'));
  const status = (ok: boolean) => (ok ? paint.bold(paint.green('√')) : paint.bold(paint.red('×')));

  // One "section" per real RunChecks call: the core checks, then each extension.
  let section: string | undefined = 'core';
  let lastCategory = '';
  let sectionNotOk = false;
  let bannerPrinted = o.banner === false;
  let extensionsBannerPrinted = false;

  const write = (s: string) => {
    o.spinner?.stop();
    o.write(s);
  };

  if (!o.short && !bannerPrinted) {
    write(banner('Linkerd core checks'));
    bannerPrinted = true;
  }

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
      } else if (r.extension === undefined && !bannerPrinted) {
        write(banner('Linkerd core checks'));
        bannerPrinted = true;
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
  };
}
