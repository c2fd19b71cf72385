import { UserError } from '../errors.js';

/** A package (and, when known, the entry inside it) that cannot be used, named in the message. */
export class PackageError extends UserError {
  constructor(pkg: string, entry: string | undefined, reason: string) {
    super(`${pkg}${entry === undefined ? '' : `: ${entry}`}: ${reason}`);
    this.name = 'PackageError';
  }
}
