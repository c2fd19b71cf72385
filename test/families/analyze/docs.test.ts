import path from 'node:path';
import { describe, it } from 'vitest';
import { codesMarkdown } from '../../../src/families/analyze/codesDoc.js';
import { RULES } from '../../../src/families/analyze/rules/index.js';
import { REPO_ROOT } from '../../support/cli.js';
import { expectGoldenFile } from '../../support/golden.js';

describe('docs/analyze-codes.md', () => {
  it('is the rule data, rendered (regenerate with UPDATE_GOLDEN=1)', () => {
    expectGoldenFile(path.join(REPO_ROOT, 'docs/analyze-codes.md'), codesMarkdown(RULES));
  });
});
