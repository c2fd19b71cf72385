import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { UserError } from '../errors.js';
import type { ImageFormat } from './build.js';

/*
 * The paths a build writes (--output, --sbom) are checked before anything is built: never an
 * input (the config, a repository, a files source), never inside one, never holding one.
 */

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

export interface Input {
  path: string;
  what: string;
}

/** A path with its existing part's symlinks resolved, so a link cannot hide that it names an input. */
async function realPath(p: string): Promise<string> {
  const whole = await realpath(p).catch(() => undefined);
  if (whole) return whole;
  const dir = await realpath(dirname(p)).catch(() => dirname(p));
  return join(dir, basename(p));
}

/** Refuses a path written by the build (`--output`, `--sbom`) that is an input, inside one, or holds one. */
async function checkNotInput(flag: string, target: string, inputs: Input[], what: string): Promise<void> {
  const real = await realPath(target);
  for (const i of inputs) {
    const input = await realPath(i.path);
    if (isInside(real, input) || isInside(input, real)) throw new UserError(`${flag} ${target} overlaps ${i.what} ${i.path}; write ${what} somewhere else`);
  }
}

export async function checkOutput(out: string, format: ImageFormat, inputs: Input[]): Promise<void> {
  await checkNotInput('--output', out, inputs, 'the image');
  const st = await stat(out).catch(() => undefined);
  if (format === 'oci') {
    if (st && !st.isDirectory())
      throw new UserError(
        `--output ${out} exists and is not a directory (an OCI layout is a directory; use --format oci-archive or docker-archive for a file)`,
      );
    if (st) {
      const entries = await readdir(out);
      if (entries.length > 0 && !entries.includes('oci-layout'))
        throw new UserError(`--output ${out} is a non-empty directory that is not an OCI layout; refusing to replace it`);
    }
  } else if (st?.isDirectory()) {
    throw new UserError(`--output ${out} is a directory; --format ${format} writes a file`);
  }
  const parent = await stat(dirname(out)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UserError(`--output ${out}: directory ${dirname(out)} does not exist`);
}

/** The SBOM path gets --output's checks, and must not be the output or inside it. */
export async function checkSbom(sbom: string, out: string, inputs: Input[]): Promise<void> {
  await checkNotInput('--sbom', sbom, [...inputs, { path: out, what: 'the --output' }], 'the SBOM');
  const st = await stat(sbom).catch(() => undefined);
  if (st && !st.isFile()) throw new UserError(`--sbom ${sbom} exists and is not a regular file`);
  const parent = await stat(dirname(sbom)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UserError(`--sbom ${sbom}: directory ${dirname(sbom)} does not exist`);
}

/** A file operation of the SBOM's, its failure (EACCES, ENOSPC, …) a one-line error naming the flag. */
export async function sbomStep<T>(sbom: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UserError(`--sbom ${sbom}: ${err.code ? `${err.code} ` : ''}${err.message.split('\n')[0] ?? ''}`.trim());
  }
}
