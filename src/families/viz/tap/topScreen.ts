import fs from 'node:fs';
import tty from 'node:tty';
import { UserError } from '../../../core/errors.js';
import { onInterrupt } from '../../../core/onInterrupt.js';
import { TapStreamError } from './client.js';
import type { TapEvent } from './proto.js';
import { SCROLL_STEP, type TopTable } from './topTable.js';

/*
 * `viz top`'s live view. Like termbox (which the real command uses) it draws on the controlling
 * terminal, /dev/tty, whatever stdout is: the alternate screen, no cursor, raw keys. The table is
 * redrawn every 100 ms; q or Ctrl-C quits, a/d or the arrow keys scroll. Leaving (a key, an
 * error, SIGTERM/SIGHUP) always restores the terminal.
 */

const REDRAW_MS = 100;
const ENTER = '\x1b[?1049h\x1b[?25l';
const LEAVE = '\x1b[?25h\x1b[?1049l';

export interface Terminal {
  input: tty.ReadStream;
  output: tty.WriteStream;
  close(): void;
}

/** The controlling terminal, as termbox opens it; without one, the error Go's os.Open gives. */
export function openTerminal(): Terminal {
  let fd: number;
  try {
    fd = fs.openSync('/dev/tty', 'r+');
  } catch (e) {
    const reason = /^[A-Z]+: (.*), open/.exec((e as Error).message)?.[1] ?? (e as Error).message;
    throw new UserError(`open /dev/tty: ${reason}`);
  }
  const input = new tty.ReadStream(fd);
  const output = new tty.WriteStream(fd);
  return {
    input,
    output,
    close: () => {
      input.destroy();
      output.destroy();
    },
  };
}

/** Show `table` fed by `events` until the user quits; resolves with the line to print after, if any. */
export async function runTopScreen(term: Terminal, table: TopTable, events: AsyncGenerator<TapEvent>, closeStream: () => void): Promise<string | undefined> {
  const { input, output } = term;
  let scroll = 0;
  let status = '';
  let after: string | undefined;
  let restored = false;
  const state = { quitRequested: false };
  const restore = () => {
    if (restored) return;
    restored = true;
    input.setRawMode(false);
    output.write(LEAVE);
  };
  const releaseInterrupt = onInterrupt(restore);

  const draw = () => {
    const rows = output.rows || 24;
    const cols = output.columns || 80;
    const { lines, headerRow } = table.screen(scroll, status);
    const text = lines
      .slice(0, rows)
      .map((l, i) => {
        const cut = l.slice(0, cols);
        return i === headerRow ? `\x1b[1m${cut}\x1b[0m` : cut;
      })
      .join('\r\n');
    output.write(`\x1b[H\x1b[2J${text}`);
  };

  output.write(ENTER);
  input.setRawMode(true);
  input.setEncoding('utf8');
  let quit!: () => void;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  input.on('data', (key: string) => {
    if (key === 'q' || key === '\x03') {
      state.quitRequested = true;
      quit();
    } else if (key === 'a' || key === '\x1b[D') {
      if (scroll < 0) scroll += SCROLL_STEP;
    } else if (key === 'd' || key === '\x1b[C') {
      if (scroll > (output.columns || 80) - table.width()) scroll -= SCROLL_STEP;
    }
  });
  const timer = setInterval(draw, REDRAW_MS);

  const pump = (async () => {
    try {
      for await (const e of events) table.add(e);
      if (!state.quitRequested) status = after = 'Tap stream terminated';
    } catch (e) {
      if (state.quitRequested) return;
      if (!(e instanceof TapStreamError)) throw e;
      status = after = e.message;
    }
  })();
  try {
    await Promise.race([quitting, pump.then(() => quitting)]);
  } finally {
    clearInterval(timer);
    closeStream();
    await pump.catch(() => undefined);
    restore();
    releaseInterrupt();
  }
  return after;
}
