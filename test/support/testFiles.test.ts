import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newAnchorFiles, tempDir } from '../core/identity/support.js';
import { writeTestFile } from './testFiles.js';

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('files written by tests', () => {
  it('private keys are 0600, other files 0644', async () => {
    const t = tempDir();
    try {
      const { crt, key, anchor } = await newAnchorFiles(t, 'root');
      expect([modeOf(crt), modeOf(key)]).toEqual(['644', '600']);
      expect(modeOf(writeTestFile(t.file('issuer.key'), anchor.keyPem))).toBe('600');
      expect(modeOf(writeTestFile(t.file('notes.txt'), 'no secret here'))).toBe('644');
    } finally {
      t.cleanup();
    }
  });
});
