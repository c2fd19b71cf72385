import { formatBytes } from '../input/limits.js';
import { PackageError } from './packageError.js';

/*
 * One budget for everything a build unpacks, over all its packages and archs: each package has its
 * own limits, but many packages under them (or one that compresses 1,000 to 1) could still fill
 * the disk or take minutes. Counted while the bytes are staged, so a bomb stops at the limit.
 */

export interface StagingLimits {
  /** Bytes of regular files unpacked from packages, in all. */
  bytes: number;
  /** Package entries (files, directories, links), in all. */
  entries: number;
}

export const STAGING_LIMITS: StagingLimits = { bytes: 1024 ** 3, entries: 50_000 };

export class StagingBudget {
  private bytes = 0;
  private entries = 0;

  constructor(readonly limits: StagingLimits = STAGING_LIMITS) {}

  /** Counts one entry of `pkg`; throws past the build's limit. */
  entry(pkg: string, name: string): void {
    if (++this.entries > this.limits.entries)
      throw new PackageError(pkg, name, `the build's packages hold more than ${this.limits.entries} entries, the limit for one image build`);
  }

  /** Counts `n` bytes staged for `pkg`; throws past the build's limit. */
  stage(n: number, pkg: string, name: string): void {
    this.bytes += n;
    if (this.bytes > this.limits.bytes)
      throw new PackageError(pkg, name, `the build's packages unpack to more than ${formatBytes(this.limits.bytes)}, the limit for one image build`);
  }
}
