import { firstLine } from '../errors.js';

const GO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EEXIST: 'file exists',
};

/** A file-system error in Go's words (`no such file or directory`), as the real CLI prints them. */
export function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return (code !== undefined ? GO_TEXT[code] : undefined) ?? firstLine(e);
}
