import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PEM_FILE_TIME_LIMIT_MS, readPemFile, readPemInput } from '../../../src/core/files/readPemFile.js';

/* The one reader of certificate, key and bundle files: 1 MiB, a time limit, strict UTF-8, the file named. */

let dir: string;
const p = (name: string) => path.join(dir, name);
const fifo = (name: string) => {
  execFileSync('mkfifo', [p(name)]);
  return p(name);
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-pem-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readPemFile', () => {
  it('reads a file as text', () => {
    fs.writeFileSync(p('ca.crt'), '-----BEGIN CERTIFICATE-----\n');
    expect(readPemFile(p('ca.crt'))).toBe('-----BEGIN CERTIFICATE-----\n');
  });

  it('refuses a file past 1 MiB, naming it', () => {
    fs.writeFileSync(p('big.pem'), Buffer.alloc(1024 * 1024 + 1, 0x41));
    expect(() => readPemFile(p('big.pem'))).toThrow(`${p('big.pem')}: larger than the 1 MiB limit for certificate and key files`);
  });

  it('refuses bytes that are not UTF-8, naming the file', () => {
    fs.writeFileSync(p('key.pem'), Buffer.from([0x2d, 0xff, 0xfe]));
    expect(() => readPemFile(p('key.pem'))).toThrow(`${p('key.pem')}: not UTF-8 text`);
  });

  it('names a missing file in Go’s words', () => {
    expect(() => readPemFile(p('nope.pem'))).toThrow(`open ${p('nope.pem')}: no such file or directory`);
  });

  it('reads a FIFO nobody writes to as empty, instead of blocking in open(2)', () => {
    expect(readPemFile(fifo('empty'))).toBe('');
  });

  it('refuses a FIFO whose writer never finishes once the time limit passes', () => {
    const f = fifo('held');
    // Held open for reading and writing: the reader sees a writer that sends nothing.
    const held = fs.openSync(f, 'r+');
    try {
      expect(() => readPemFile(f, 200)).toThrow(`read ${f}: i/o timeout (no end of input within 200 ms)`);
    } finally {
      fs.closeSync(held);
    }
    expect(PEM_FILE_TIME_LIMIT_MS).toBe(5_000);
  });
});

describe('readPemInput', () => {
  it('reads standard input for -, bounded like a file', async () => {
    expect(await readPemInput('-', Readable.from([Buffer.from('pem')]))).toBe('pem');
    await expect(readPemInput('-', Readable.from([Buffer.alloc(1024 * 1024 + 1)]))).rejects.toThrow(
      '<stdin>: larger than the 1 MiB limit for certificate and key files',
    );
  });
});
