import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSecretFile } from '../../../src/core/files/writeSecretFile.js';

/* Issue 10 item 6: a private key goes only into a new file of ours, mode 0600 from the start. */

let dir: string;
const label = '--identity-trust-anchor-key-out';
const forceFlag = '--force';
const p = (name: string) => path.join(dir, name);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-secret-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('writeSecretFile', () => {
  it('creates a new file with mode 0600, whatever the umask', () => {
    const old = process.umask(0o000);
    try {
      writeSecretFile(p('key.pem'), 'KEY', { label, forceFlag });
    } finally {
      process.umask(old);
    }
    expect(fs.readFileSync(p('key.pem'), 'utf8')).toBe('KEY');
    expect(fs.statSync(p('key.pem')).mode & 0o777).toBe(0o600);
  });

  it('refuses an existing file without force, and leaves it alone', () => {
    fs.writeFileSync(p('key.pem'), 'OLD', { mode: 0o644 });
    expect(() => writeSecretFile(p('key.pem'), 'KEY', { label, forceFlag })).toThrow(
      `${label} ${p('key.pem')}: file exists (refusing to overwrite it; pass --force to replace it)`,
    );
    expect(fs.readFileSync(p('key.pem'), 'utf8')).toBe('OLD');
    expect(fs.statSync(p('key.pem')).mode & 0o777).toBe(0o644);
  });

  it('refuses a symlink (even a dangling one) without force, writing nothing through it', () => {
    fs.writeFileSync(p('victim'), 'VICTIM');
    fs.symlinkSync(p('victim'), p('link'));
    fs.symlinkSync(p('nowhere'), p('dangling'));
    expect(() => writeSecretFile(p('link'), 'KEY', { label, forceFlag })).toThrow(/file exists \(refusing to overwrite it/);
    expect(() => writeSecretFile(p('dangling'), 'KEY', { label, forceFlag })).toThrow(/file exists \(refusing to overwrite it/);
    expect(fs.readFileSync(p('victim'), 'utf8')).toBe('VICTIM');
    expect(fs.existsSync(p('nowhere'))).toBe(false);
  });

  it('with force, replaces the path by renaming a new file over it: a symlink is replaced, its target untouched', () => {
    fs.writeFileSync(p('victim'), 'VICTIM', { mode: 0o644 });
    fs.symlinkSync(p('victim'), p('link'));
    writeSecretFile(p('link'), 'KEY', { label, forceFlag, force: true });
    expect(fs.lstatSync(p('link')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(p('link'), 'utf8')).toBe('KEY');
    expect(fs.statSync(p('link')).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(p('victim'), 'utf8')).toBe('VICTIM');
    expect(fs.statSync(p('victim')).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(dir).sort()).toEqual(['link', 'victim']);
  });

  it('with force, a new inode replaces an existing file (a reader holding the old one keeps the old bytes)', () => {
    fs.writeFileSync(p('key.pem'), 'OLD', { mode: 0o644 });
    const before = fs.statSync(p('key.pem')).ino;
    writeSecretFile(p('key.pem'), 'KEY', { label, forceFlag, force: true });
    expect(fs.statSync(p('key.pem')).ino).not.toBe(before);
    expect(fs.statSync(p('key.pem')).mode & 0o777).toBe(0o600);
  });

  it('never writes to a device', () => {
    expect(() => writeSecretFile('/dev/null', 'KEY', { label, forceFlag })).toThrow(
      `${label} /dev/null: file exists (refusing to overwrite it; pass --force to replace it)`,
    );
  });

  it('refuses -, a directory, and a missing or non-directory parent, in one line each', () => {
    fs.writeFileSync(p('file'), '');
    fs.mkdirSync(p('sub'));
    expect(() => writeSecretFile('-', 'KEY', { label, forceFlag })).toThrow(`${label}: a private key is written only to a file, not to standard output`);
    expect(() => writeSecretFile(p('sub'), 'KEY', { label, forceFlag, force: true })).toThrow(`${label} ${p('sub')}: is a directory`);
    expect(() => writeSecretFile(p('missing/key'), 'KEY', { label, forceFlag })).toThrow(
      `${label} ${p('missing/key')}: cannot use directory ${p('missing')}: no such file or directory`,
    );
    expect(() => writeSecretFile(p('file/key'), 'KEY', { label, forceFlag })).toThrow(`${label} ${p('file/key')}: ${p('file')} is not a directory`);
  });
});
