import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { errnoText } from './errnoText.js';

/*
 * Writing private keys (and the certificates beside them) to files the user named. A file is
 * created by us, with its mode (0600 by default) from its first byte: O_CREAT|O_EXCL|O_NOFOLLOW,
 * so nothing is ever written through a symlink, into a file someone else created or owns, or to a
 * device. An existing path is refused unless `force`; then a fresh file is renamed over it, so the
 * old file (or what a symlink there points to) is never written. Refusals are one line naming the
 * file (`open PATH: …`, or the flag and the path when `label` is given).
 */

export interface SecretFileOptions {
  /** Replace an existing file (atomically). */
  force?: boolean;
  /** How messages name the destination, e.g. `--identity-trust-anchor-key-out`; `open` by default. */
  label?: string;
  /** Mode of the new file; 0600 by default. */
  mode?: number;
  /** The flag that would allow replacing an existing file, named when one is refused. */
  forceFlag?: string;
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function where(file: string, o: SecretFileOptions): string {
  return `${o.label ?? 'open'} ${file}`;
}

function exists(file: string, o: SecretFileOptions): UserError {
  return new UserError(`${where(file, o)}: file exists (refusing to overwrite it${o.forceFlag ? `; pass ${o.forceFlag} to replace it` : ''})`);
}

/**
 * Refuses, before any work is done, what writeSecretFile would refuse: `-`, a missing or
 * non-directory parent, an existing path (a file, a device, a symlink even dangling) without
 * `force`, a directory with it.
 */
export function checkSecretFileTarget(file: string, o: SecretFileOptions = {}): void {
  if (file === '-' || file === '') {
    throw new UserError(`${o.label ?? 'open'}: a private key is written only to a file, not to ${file === '' ? 'an empty path' : 'standard output'}`);
  }
  const dir = path.dirname(file);
  let parent;
  try {
    parent = statSync(dir);
  } catch (e) {
    throw new UserError(`${where(file, o)}: cannot use directory ${dir}: ${errnoText(e)}`);
  }
  if (!parent.isDirectory()) throw new UserError(`${where(file, o)}: ${dir} is not a directory`);
  // lstat: a symlink (even a dangling one) is an existing path, and is never followed.
  const existing = lstatSync(file, { throwIfNoEntry: false });
  if (existing && !o.force) throw exists(file, o);
  if (existing?.isDirectory()) throw new UserError(`${where(file, o)}: is a directory`);
}

function writeNew(file: string, data: string, mode: number): void {
  const fd = openSync(file, CREATE, mode);
  try {
    fchmodSync(fd, mode); // whatever the umask did
    const bytes = Buffer.from(data, 'utf8');
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(file);
    throw e;
  }
  closeSync(fd);
}

/** Writes `data` to a new file at `file`, as described above. */
export function writeSecretFile(file: string, data: string, o: SecretFileOptions = {}): void {
  checkSecretFileTarget(file, o);
  const mode = o.mode ?? 0o600;
  if (!o.force) {
    try {
      writeNew(file, data, mode);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw exists(file, o);
      throw new UserError(`${where(file, o)}: ${errnoText(e)}`, { cause: e });
    }
    return;
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeNew(temp, data, mode);
    renameSync(temp, file);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // not created, or already renamed
    }
    throw new UserError(`${where(file, o)}: ${errnoText(e)}`, { cause: e });
  }
}

/** Writes several new files, all or none: any refusal removes the ones already written. */
export function writeSecretFiles(files: ReadonlyArray<{ path: string; content: string; mode?: number }>): void {
  for (const f of files) checkSecretFileTarget(f.path);
  const done: string[] = [];
  try {
    for (const f of files) {
      writeSecretFile(f.path, f.content, { mode: f.mode });
      done.push(f.path);
    }
  } catch (e) {
    for (const p of done) unlinkSync(p);
    throw e;
  }
}
