import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { CheckFamilyEntry } from './family.js';
import type { CheckResult, ResultStatus } from './types.js';

/*
 * Extension checks (the real check_extensions.go): `linkerd-<name>` executables are run as
 * `<exe> check <forwarded flags> --output=json`, and their results are merged into this
 * run's single output. Extensions come from namespaces labelled `linkerd.io/extension=<name>`
 * and from executables on PATH that declare `"checks": "always"` in `_extension-metadata`.
 */

export interface ExtensionOptions {
  /** `$PATH`, searched for `linkerd-*` executables. */
  path: string;
  /** Flags forwarded to each extension's `check` (already `--name=value`). */
  forwardFlags: string[];
  /** Deadline of one extension run. */
  timeoutMs: number;
  hintBaseUrl: string;
  env?: NodeJS.ProcessEnv;
}

interface ExecResult {
  stdout: string;
  stderr: string;
  error?: Error;
}

function run(file: string, args: string[], timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: env ?? process.env, windowsHide: true }, (error, stdout, stderr) =>
      resolve({ stdout, stderr, error: error ?? undefined }),
    );
  });
}

function isExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `linkerd-*` executables on PATH, first per name wins (as exec.LookPath would pick). */
export function pathExtensions(searchPath: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of searchPath.split(path.delimiter).filter((d) => d !== '')) {
    let entries: string[];
    try {
      entries = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of entries.sort()) {
      if (!name.startsWith('linkerd-') || found.has(name)) continue;
      const file = path.join(dir, name);
      if (isExecutable(file)) found.set(name, file);
    }
  }
  return found;
}

/** Executables on PATH whose `_extension-metadata` says their checks always run. */
async function alwaysRunExtensions(executables: Map<string, string>, o: ExtensionOptions): Promise<string[]> {
  const answers = await Promise.all(
    [...executables].map(async ([name, file]) => {
      const r = await run(file, ['_extension-metadata'], Math.min(o.timeoutMs, 5_000), o.env);
      try {
        const meta = JSON.parse(r.stdout) as { name?: unknown; checks?: unknown };
        return meta.name === name && meta.checks === 'always' ? name : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return answers.filter((n): n is string => n !== undefined);
}

/** An extension's `check -o json` output; fields of another type than documented read as absent. */
const text = z.string().optional().catch(undefined);
const ExtensionJson = z.object({
  categories: z.array(
    z.object({
      categoryName: text,
      checks: z
        .array(z.object({ description: text, hint: text, error: text, result: text, id: text, durationMs: z.number().optional().catch(undefined) }))
        .optional()
        .catch(undefined),
    }),
  ),
});

/** The results in an extension's `check -o json` output; throws when it is not that. */
export function parseExtensionOutput(stdout: string, extension: string): CheckResult[] {
  const parsed = ExtensionJson.safeParse(JSON.parse(stdout));
  if (!parsed.success) throw new Error('no "categories" in the output');
  const doc = parsed.data;
  const results: CheckResult[] = [];
  for (const cat of doc.categories) {
    const category = cat.categoryName ?? extension;
    (cat.checks ?? []).forEach((c, i) => {
      const status: ResultStatus = c.result === 'warning' ? 'warning' : c.result === 'error' ? 'error' : 'success';
      results.push({
        id: typeof c.id === 'string' && c.id !== '' ? c.id : `${category}#${i + 1}`,
        category,
        description: c.description ?? '',
        status,
        severity: status === 'warning' ? 'warning' : 'error',
        ...(c.hint ? { hint: c.hint } : {}),
        ...(c.error ? { error: c.error } : {}),
        durationMs: c.durationMs ?? 0,
        retries: 0,
        extension,
      });
    });
  }
  return results;
}

/**
 * The labelled extensions to run in-process: a family of this CLI is registered for the label
 * and no `linkerd-<name>` is on PATH (the real CLI prefers such an executable to its built-in
 * checks). Sorted by name: the real CLI runs its built-ins before the executables.
 */
export function inProcessExtensions(labelled: string[], entries: readonly CheckFamilyEntry[], executables: Map<string, string>): CheckFamilyEntry[] {
  const wanted = new Set(labelled.filter((e) => !executables.has(`linkerd-${e}`)));
  return entries.filter((e) => wanted.has(e.extension)).sort((a, b) => (a.extension < b.extension ? -1 : a.extension > b.extension ? 1 : 0));
}

/**
 * Run every extension that applies and return their results in order: first those named by
 * namespace labels (in namespace order), then the PATH ones that always run.
 */
export async function runExtensions(labelled: string[], o: ExtensionOptions, executables = pathExtensions(o.path)): Promise<CheckResult[]> {
  const always = await alwaysRunExtensions(executables, o);
  const names = [...new Set([...labelled.map((e) => `linkerd-${e}`), ...always.sort()])];
  const hint = `${o.hintBaseUrl}extensions`;
  const perExtension = await Promise.all(
    names.map(async (exe): Promise<CheckResult[]> => {
      const file = executables.get(exe);
      if (!file) {
        return [
          {
            id: `${exe}#1`,
            category: exe,
            description: `Linkerd extension command ${exe} exists`,
            status: 'warning',
            severity: 'warning',
            hint,
            error: `exec: "${exe}": executable file not found in $PATH`,
            durationMs: 0,
            retries: 0,
            extension: exe,
          },
        ];
      }
      const args = ['check', ...o.forwardFlags, '--output=json'];
      const began = Date.now();
      const r = await run(file, args, o.timeoutMs, o.env);
      try {
        return parseExtensionOutput(r.stdout, exe);
      } catch (e) {
        const command = `${file} ${args.join(' ')}`;
        const message =
          r.stderr.trim() !== ''
            ? r.stderr.trim()
            : `invalid extension check output from "${command}" (JSON object expected):\n${r.stdout}\n[${(e as Error).message}]`;
        return [
          {
            id: `${exe}#1`,
            category: exe,
            description: `Running: ${command}`,
            status: 'error',
            severity: 'error',
            hint,
            error: message,
            durationMs: Date.now() - began,
            retries: 0,
            extension: exe,
          },
        ];
      }
    }),
  );
  return perExtension.flat();
}
