import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { errnoText } from './errnoText.js';

/*
 * Writing a private key to a file the user named. The file is created by us, with mode 0600 from
 * its first byte (O_CREAT|O_EXCL|O_NOFOLLOW): never written through a symlink, never into a file
 * someone else created or owns, never a device. An existing path is refused unless `force`, and
 * then replaced by renaming a fresh file over it, so the old file (or what a symlink there points
 * to) is never written. Every refusal is one line naming `label` (the flag) and the path.
 */

export interface SecretFileOptions {
  /** Replace an existing file (atomically). */
  force?: boolean;
  /** How messages name the destination, e.g. `--identity-trust-anchor-key-out`. */
  label: string;
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Refuses, before any work is done, what writeSecretFile would refuse: `-`, a missing or
 * non-directory parent, an existing path without `force`, a directory with it.
 */
export function checkSecretFileTarget(file: string, o: SecretFileOptions): void {
  if (file === '-' || file === '') throw new UserError(`${o.label}: a private key is written only to a file, not to ${file === '' ? 'an empty path' : 'standard output'}`);
  const dir = path.dirname(file);
  let parent;
  try {
    parent = statSync(dir);
  } catch (e) {
    throw new UserError(`${o.label} ${file}: cannot use directory ${dir}: ${errnoText(e)}`);
  }
  if (!parent.isDirectory()) throw new UserError(`${o.label} ${file}: ${dir} is not a directory`);
  // lstat: a symlink (even a dangling one) is an existing path, and is never followed.
  const existing = lstatSync(file, { throwIfNoEntry: false });
  if (existing && !o.force) throw new UserError(`${o.label} ${file}: the file already exists; pass --force to replace it`);
  if (existing?.isDirectory()) throw new UserError(`${o.label} ${file}: is a directory`);
}

function writeNew(file: string, data: string): void {
  const fd = openSync(file, CREATE, 0o600);
  try {
    fchmodSync(fd, 0o600); // whatever the umask did
    const bytes = Buffer.from(data, 'utf8');
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(file);
    throw e;
  }
  closeSync(fd);
}

/** Writes `data` to a new file at `file` (mode 0600), as described above. */
export function writeSecretFile(file: string, data: string, o: SecretFileOptions): void {
  checkSecretFileTarget(file, o);
  if (!o.force) {
    try {
      writeNew(file, data);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UserError(`${o.label} ${file}: the file already exists; pass --force to replace it`);
      throw new UserError(`${o.label} ${file}: ${errnoText(e)}`);
    }
    return;
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeNew(temp, data);
    renameSync(temp, file);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // not created, or already renamed
    }
    throw new UserError(`${o.label} ${file}: ${errnoText(e)}`);
  }
}
