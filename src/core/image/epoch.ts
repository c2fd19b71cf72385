import { UserError } from '../errors.js';
import type { PackageMeta } from './packageMeta.js';
import { formatRFC3339 } from '../pki/formatRFC3339.js';

/*
 * The image's timestamp must fit every place it is written: tar's 11-digit octal mtime field holds
 * up to 2^33−1, but tar-stream encodes it as a signed 32-bit number, so past 2^31−1 (2038-01-19)
 * a header silently says 2242 or wraps; the config's RFC 3339 date holds far more. The smaller wins.
 */
export const MAX_EPOCH = 2 ** 31 - 1;

function latest(): string {
  return `${formatRFC3339(new Date(MAX_EPOCH * 1000))} (${MAX_EPOCH})`;
}

/** SOURCE_DATE_EPOCH when set, else the newest package's build time; either refused past MAX_EPOCH. */
export function imageEpoch(sourceDateEpoch: number | undefined, packages: readonly PackageMeta[]): number {
  if (sourceDateEpoch !== undefined) {
    if (!Number.isSafeInteger(sourceDateEpoch) || sourceDateEpoch < 0 || sourceDateEpoch > MAX_EPOCH)
      throw new UserError(`SOURCE_DATE_EPOCH=${sourceDateEpoch} is past ${latest()}, the latest time the image's tar headers hold`);
    return sourceDateEpoch;
  }
  let newest: PackageMeta | undefined;
  for (const p of packages) if (!newest || p.buildTime > newest.buildTime) newest = p;
  if (newest && newest.buildTime > MAX_EPOCH)
    throw new UserError(
      `${newest.label}: build time ${newest.buildTime} is past ${latest()}, the latest time the image's tar headers hold; set SOURCE_DATE_EPOCH`,
    );
  return Math.max(0, newest?.buildTime ?? 0);
}
