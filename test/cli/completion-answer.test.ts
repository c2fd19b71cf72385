import { describe, expect, it } from 'vitest';
import { answerText, candidateLine } from '../../src/cli/completion/answer.js';

describe('what linkerd __complete prints', () => {
  it('one candidate per line, with escape sequences and control characters removed', () => {
    expect(answerText(['prod', 'a\u001b]0;title\u0007b\u001b[2Jc', 'x\ry\u0000z\u009b31m', 'new\nline', '\u202eevil'])).toBe('prod\nabc\nxyz\nnewline\nevil\n');
  });

  it('keeps one tab between a candidate and its description, and sanitises both', () => {
    expect(candidateLine('ns\u001b[31m\tthe \u001b]8;;http://x\u0007shop\u001b]8;;\u0007 namespace\twith a tab')).toBe('ns\tthe shop namespacewith a tab');
    expect(candidateLine('ns\t\u001b[0m')).toBe('ns');
  });

  it('drops a candidate with nothing left of its name, and leaves $(…) and backticks as text', () => {
    expect(answerText(['\u001b[2J', '\tonly a description', 'prod-$(touch x)', 'prod-`id`'])).toBe('prod-$(touch x)\nprod-`id`\n');
  });
});
