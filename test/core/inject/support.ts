import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectGoldenFile } from '../../support/golden.js';
import { runInject, runUninject, type InjectRequest, type InjectResult, type UninjectResult } from '../../../src/core/inject/index.js';
import { injectText, uninjectText, type CommandText } from '../../../src/cli/output/inject.js';
import type { SetFlag } from '../../../src/core/values/flags.js';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const ANCHORS = 'fixtures/certs/valid-trust-anchors.pem';
export const M = (name: string) => `fixtures/manifests/${name}`;

const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));

/**
 * Compares with `golden/<name>`; `UPDATE_GOLDEN=1` rewrites it instead (read the diff before
 * committing it).
 */
export function expectGolden(name: string, actual: string): void {
  expectGoldenFile(path.join(GOLDEN_DIR, name), actual);
}

/** What the command prints. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The printed form of a result, as the command writes it. */
export async function printed(result: InjectResult | UninjectResult, text: CommandText): Promise<CommandResult> {
  try {
    return { stdout: text.printManifest ? await result.output.text() : '', stderr: text.stderr, exitCode: text.exitCode };
  } finally {
    result.output.dispose();
  }
}

export interface InjectOptions {
  manual?: boolean;
  flags?: Record<string, string | boolean | string[]>;
  values?: string;
  anchors?: boolean;
  cni?: boolean;
  verbose?: boolean;
  output?: 'auto' | 'yaml' | 'json';
  debugSidecar?: boolean;
  closeWaitTimeout?: string;
  stdin?: string;
}

/** inject through the core entry point, offline, run from the repository root. */
export async function inject(inputs: string[], o: InjectOptions = {}): Promise<CommandResult> {
  const flags: SetFlag[] = Object.entries(o.flags ?? {}).map(([name, value]) => ({ name, value }));
  const req: InjectRequest = {
    inputs: inputs.map((i) => (i === '-' || /^https?:/.test(i) || path.isAbsolute(i) ? i : path.join(ROOT, i))),
    manual: o.manual ?? false,
    output: o.output ?? 'auto',
    flags,
    debugSidecar: o.debugSidecar ?? false,
    closeWaitTimeout: o.closeWaitTimeout,
    base: {
      ignoreCluster: true,
      controlPlaneNamespace: 'linkerd',
      kube: { asGroup: [] },
      valuesFile: o.values && path.join(ROOT, o.values),
      trustAnchorsFile: o.anchors === false || o.values ? undefined : path.join(ROOT, ANCHORS),
      cniEnabled: o.cni,
    },
    readers: { stdin: async () => Buffer.from(o.stdin ?? '') },
  };
  const result = await runInject(req);
  return relative(await printed(result, injectText(result, { verbose: o.verbose ?? false })));
}

export async function uninject(inputs: string[], o: { output?: 'auto' | 'yaml' | 'json'; stdin?: string } = {}): Promise<CommandResult> {
  const result = await runUninject({
    inputs: inputs.map((i) => (i === '-' || path.isAbsolute(i) ? i : path.join(ROOT, i))),
    output: o.output ?? 'auto',
    readers: { stdin: async () => Buffer.from(o.stdin ?? '') },
  });
  return relative(await printed(result, uninjectText(result)));
}

/** Paths in messages relative to the repository, so goldens hold no machine path. */
function relative(r: CommandResult): CommandResult {
  const strip = (s: string) => s.split(ROOT).join('');
  return { ...r, stdout: strip(r.stdout), stderr: strip(r.stderr) };
}
