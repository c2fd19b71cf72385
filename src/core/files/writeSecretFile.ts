import { closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';
import { UserError } from '../errors.js';

const ERRNO_TEXT: Record<string, string> = {
  EEXIST: 'file exists (refusing to overwrite it)',
  ELOOP: 'is a symbolic link (refusing to follow it)',
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

/**
 * Creates `path` with `content`, never touching an existing file: O_CREAT|O_EXCL|O_NOFOLLOW, so a
 * file or symlink already there is refused, and the mode (0600 by default) is set by open(2)
 * itself, so a private key is never readable by others, not even for an instant.
 */
export function writeSecretFile(path: string, content: string, mode = 0o600): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UserError(`open ${path}: ${ERRNO_TEXT[code] ?? (e as Error).message}`, { cause: e });
  }
  try {
    const bytes = Buffer.from(content, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (e) {
    closeSync(fd);
    unlinkSync(path);
    throw new UserError(`write ${path}: ${(e as Error).message}`, { cause: e });
  }
  closeSync(fd);
}

/** Writes several new files, all or none: any refusal removes the ones already written. */
export function writeSecretFiles(files: ReadonlyArray<{ path: string; content: string; mode?: number }>): void {
  const done: string[] = [];
  try {
    for (const f of files) {
      writeSecretFile(f.path, f.content, f.mode);
      done.push(f.path);
    }
  } catch (e) {
    for (const p of done) unlinkSync(p);
    throw e;
  }
}
