import { describe, expect, it } from 'vitest';
import { colorEnabled, isInteractive, painterFor, type TerminalStream } from '../../../src/cli/output/terminal.js';

const tty: TerminalStream = { isTTY: true };
const pipe: TerminalStream = { isTTY: false };

describe('terminal colour rules', () => {
  it('colours a terminal when nothing says otherwise', async () => {
    expect(colorEnabled(tty, { TERM: 'xterm-256color' })).toBe(true);
    expect((await painterFor(tty, { TERM: 'xterm-256color' })).green('ok')).toBe('\u001b[32mok\u001b[39m');
  });

  it.each([
    ['NO_COLOR=1', { NO_COLOR: '1' }],
    ['FORCE_COLOR=0', { FORCE_COLOR: '0' }],
    ['FORCE_COLOR=false', { FORCE_COLOR: 'false' }],
    ['TERM=dumb', { TERM: 'dumb' }],
    ['CI=true', { CI: 'true' }],
  ])('no colour with %s', async (_, env: NodeJS.ProcessEnv) => {
    expect(colorEnabled(tty, env)).toBe(false);
    expect((await painterFor(tty, env)).green('ok')).toBe('ok');
  });

  it("FORCE_COLOR forces colour in a pipe and on a dumb terminal (chalk's rule); NO_COLOR and CI still win", async () => {
    for (const v of ['1', '2', '3', 'true', '']) expect(colorEnabled(pipe, { FORCE_COLOR: v }), v).toBe(true);
    expect((await painterFor(pipe, { FORCE_COLOR: '1' })).green('ok')).toBe('\u001b[32mok\u001b[39m');
    expect(colorEnabled(tty, { FORCE_COLOR: '1', TERM: 'dumb' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1', CI: 'true' })).toBe(false);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: 'sometimes' })).toBe(false);
    // Spinners stay a terminal's only.
    expect(isInteractive(pipe, { FORCE_COLOR: '1' })).toBe(false);
  });

  it('no spinner on a dumb terminal', () => {
    expect(isInteractive(tty, { TERM: 'dumb' })).toBe(false);
    expect(isInteractive(tty, { TERM: 'xterm' })).toBe(true);
  });
});
