/*
 * Text from elsewhere (an API server's error message, an extension's check output) on a person's
 * terminal: escape sequences (clear the screen, set the window title, rewrite earlier lines) and
 * other control characters are removed, and lines and their number are capped. Newlines and tabs stay.
 * JSON and JUnit output escape for themselves and do not use this.
 */

/** Characters of one line shown at most; the rest is summarised. */
export const MAX_TERMINAL_LINE = 1000;
/** Lines of one message shown at most. */
export const MAX_TERMINAL_LINES = 100;

// ESC-introduced sequences: CSI (ESC [ … final byte), OSC/DCS/SOS/PM/APC strings (ended by BEL or
// ESC \), and two-character escapes; then the C1 forms of CSI (U+009B) and OSC (U+009D).
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][\s\S]*?(?:\u0007|\u001b\\|$)|\u001b[ -~]?|\u009b[0-?]*[ -/]*[@-~]|\u009d[\s\S]*?(?:\u0007|\u009c|$)/g;
// Other C0 controls but tab and newline, DEL, C1 controls, and bidirectional overrides.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function capLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… (${line.length - max} more characters)`;
}

/** `text` made safe to print on a terminal: each line at most `max` characters, at most `maxLines` lines. */
export function terminalText(text: string, max: number = MAX_TERMINAL_LINE, maxLines: number = MAX_TERMINAL_LINES): string {
  const lines = text.replace(ESCAPES, '').replace(CONTROLS, '').split('\n');
  const shown = lines.slice(0, maxLines).map((l) => capLine(l, max));
  if (lines.length > maxLines) shown.push(`… (${lines.length - maxLines} more lines)`);
  return shown.join('\n');
}

/**
 * A whole report of ours that carries the cluster's words (pod names, certificate subjects): made
 * safe line by line, every line kept.
 */
export function terminalReport(text: string): string {
  return terminalText(text, MAX_TERMINAL_LINE, Infinity);
}

/** A command's notes for stderr (cluster names and server words among them), one safe line each. */
export function notesText(notes: readonly string[]): string {
  return notes.map((line) => `${terminalReport(line)}\n`).join('');
}

/**
 * One word of someone else's (a context or namespace name offered on TAB) made inert: escape
 * sequences and every control character, tabs and newlines too, removed.
 */
export function terminalWord(text: string): string {
  return text
    .replace(ESCAPES, '')
    .replace(CONTROLS, '')
    .replace(/[\t\n]/g, '');
}
