import { describe, expect, it } from 'vitest';
import { MAX_TERMINAL_LINE, MAX_TERMINAL_LINES, terminalReport, terminalText } from '../../../src/cli/output/sanitize.js';

const ESC = '\u001b';

describe('terminalText (issue 10 item 12)', () => {
  it('removes escape sequences: clear screen, cursor moves, colours, window titles (BEL or ST ended)', () => {
    expect(terminalText(`${ESC}[2J${ESC}[1;1H${ESC}[31mred${ESC}[0m`)).toBe('red');
    expect(terminalText(`a${ESC}]0;title\u0007b${ESC}]2;t2${ESC}\\c`)).toBe('abc');
    expect(terminalText(`x\u009b2Jy\u009d0;t\u0007z`)).toBe('xyz');
    expect(terminalText(`${ESC}Pdevice control${ESC}\\ok`)).toBe('ok');
  });

  it('removes other control characters and bidirectional overrides, keeping tabs and newlines', () => {
    expect(terminalText('a\rb\bc\u0000d\u007fe\u202ef\tg\nh')).toBe('abcdef\tg\nh');
  });

  it('caps each line and the number of lines, saying how much was left out', () => {
    const long = 'A'.repeat(200_000);
    expect(terminalText(long)).toBe(`${'A'.repeat(MAX_TERMINAL_LINE)}… (${200_000 - MAX_TERMINAL_LINE} more characters)`);
    const many = Array.from({ length: MAX_TERMINAL_LINES + 5 }, (_, i) => `l${i}`).join('\n');
    const out = terminalText(many).split('\n');
    expect(out).toHaveLength(MAX_TERMINAL_LINES + 1);
    expect(out.at(-1)).toBe('… (5 more lines)');
  });

  it('leaves ordinary text alone', () => {
    const text = 'Get "https://10.0.0.1:6443/version": dial tcp 10.0.0.1:6443: connect: connection refused — ünïcode √ ‼ ×';
    expect(terminalText(text)).toBe(text);
  });
});

describe('terminalReport', () => {
  it('makes every line of a long report safe and keeps them all', () => {
    const lines = Array.from({ length: MAX_TERMINAL_LINES * 3 }, (_, i) => `pod-${String(i)}${ESC}[2J`);
    const out = terminalReport(lines.join('\n'));
    expect(out.split('\n')).toHaveLength(MAX_TERMINAL_LINES * 3);
    expect(out).not.toContain(ESC);
    expect(terminalReport('A'.repeat(MAX_TERMINAL_LINE + 5))).toBe(`${'A'.repeat(MAX_TERMINAL_LINE)}… (5 more characters)`);
  });
});
