/** What the rules look at: whether the stream is a terminal. */
export type TerminalStream = Pick<NodeJS.WriteStream, 'isTTY'>;

/**
 * Terminal rules, in one place: spinners only when the stream is a TTY, the terminal is not
 * `TERM=dumb`, and neither CI nor NO_COLOR is set. Colour follows the same rules, except that
 * FORCE_COLOR decides where it is set (chalk's rule: `0`/`false` never, `1`–`3`, `true` or empty
 * always, even in a pipe or on a dumb terminal); NO_COLOR and CI win over it. chalk and ora are
 * loaded only when they will be used.
 */
export function isInteractive(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!stream.isTTY) return false;
  if (colourRefused(env)) return false;
  if (env.TERM === 'dumb') return false;
  return true;
}

/** NO_COLOR (any non-empty value) or CI (unless false/0): no colour, whatever else says. */
function colourRefused(env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return true;
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/** What FORCE_COLOR says, as chalk (supports-color) reads it; undefined when unset or unreadable. */
function forcedColour(env: NodeJS.ProcessEnv): boolean | undefined {
  const v = env.FORCE_COLOR;
  if (v === undefined) return undefined;
  if (v === '0' || v === 'false') return false;
  if (v === '' || v === 'true' || /^[1-9]\d*$/.test(v)) return true;
  return undefined;
}

/** Colour: see isInteractive; FORCE_COLOR may force it on (a pipe) or off, NO_COLOR and CI still win. */
export function colorEnabled(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (colourRefused(env)) return false;
  return forcedColour(env) ?? isInteractive(stream, env);
}

export interface Paint {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  bold(s: string): string;
}

const plain: Paint = { green: (s) => s, yellow: (s) => s, red: (s) => s, bold: (s) => s };

/** A painter for the given stream: chalk when interactive, identity functions otherwise. */
export async function painterFor(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): Promise<Paint> {
  if (!colorEnabled(stream, env)) return plain;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return { green: (s) => c.green(s), yellow: (s) => c.yellow(s), red: (s) => c.red(s), bold: (s) => c.bold(s) };
}

export const plainPaint = plain;

export interface Spinner {
  text(s: string): void;
  /** Show the spinner again (after `stop`) with this text. */
  start(s: string): void;
  stop(): void;
}

const noSpinner: Spinner = { text: () => {}, start: () => {}, stop: () => {} };

/** An ora spinner on the stream when interactive, a no-op otherwise. */
export async function spinnerFor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): Promise<Spinner> {
  // A terminal that reports no width (a pty nobody sized, as in some CI runners) sends ora's
  // line arithmetic to Infinity: it would clear lines forever.
  if (!isInteractive(stream, env) || !(stream.columns > 0)) return noSpinner;
  const { default: ora } = await import('ora');
  const s = ora({ stream, isEnabled: true }).start();
  return {
    text: (t) => {
      s.text = t;
    },
    start: (t) => {
      s.start(t);
    },
    stop: () => s.stop(),
  };
}
