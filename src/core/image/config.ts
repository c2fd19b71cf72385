import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import * as z from 'zod';
import { isNode, parseDocument, visit, type Document } from 'yaml';
import { UserError } from '../errors.js';
import { linePosition } from '../manifest/positions.js';
import { ARCH_NAMES, archOf } from './archs.js';
import { parseCapabilities } from './capabilities.js';

/*
 * The image config: apko's schema (the keys of its docs/apko_file.md) plus two keys apko lacks,
 * `files` (local files into the image) and `capabilities` (file capabilities as the
 * security.capability xattr). Unknown keys are refused, each error names its key path and line.
 */

const MAX_CONFIG_BYTES = 1 << 20;

const mode = z.number().int().min(0).max(0o7777);
const id = z.number().int().min(0).max(0xffffffff);
const absPath = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/'), 'must be an absolute path in the image');
const capText = z.string().min(1);

const user = z.strictObject({
  username: z.string().regex(/^[a-z_][a-z0-9_.-]*$/i, 'not a valid user name'),
  uid: id,
  gid: id.optional(),
  shell: z.string().optional(),
  homedir: z.string().optional(),
});
const group = z.strictObject({ groupname: z.string().min(1), gid: id, members: z.array(z.string()).optional() });

const pathEntry = z.strictObject({
  path: absPath,
  type: z.enum(['directory', 'empty-file', 'hardlink', 'symlink', 'permissions']),
  uid: id.optional(),
  gid: id.optional(),
  permissions: mode.optional(),
  source: z.string().optional(),
  recursive: z.boolean().optional(),
});

const fileEntry = z.strictObject({
  /** Where the file goes in the image. */
  path: absPath,
  /** The local file, relative to the config file (or the working directory for the embedded default). */
  source: z.string().min(1),
  mode: mode.optional(),
  uid: id.optional(),
  gid: id.optional(),
  capabilities: capText.optional(),
});

export const imageConfigSchema = z.strictObject({
  contents: z
    .strictObject({
      repositories: z.array(z.string()).optional(),
      build_repositories: z.array(z.string()).optional(),
      runtime_repositories: z.array(z.string()).optional(),
      keyring: z.array(z.string()).optional(),
      packages: z.array(z.string().min(1)).optional(),
      baseimage: z.unknown().optional(),
    })
    .optional(),
  entrypoint: z
    .strictObject({
      command: z.string().optional(),
      type: z.string().optional(),
      'shell-fragment': z.string().optional(),
      services: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  cmd: z.string().optional(),
  'stop-signal': z.string().optional(),
  'work-dir': z.string().optional(),
  accounts: z
    .strictObject({
      users: z.array(user).optional(),
      groups: z.array(group).optional(),
      'run-as': z.union([z.string(), z.number().int()]).optional(),
    })
    .optional(),
  archs: z.array(z.string().refine((a) => archOf(a) !== undefined, { error: `unknown architecture (one of ${ARCH_NAMES.join(', ')})` })).optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  'vcs-url': z.string().optional(),
  volumes: z.array(absPath).optional(),
  paths: z.array(pathEntry).optional(),
  include: z.string().optional(),
  layering: z.strictObject({ strategy: z.string().optional(), budget: z.number().int().optional() }).optional(),
  files: z.array(fileEntry).optional(),
  capabilities: z.array(z.strictObject({ path: absPath, capabilities: capText })).optional(),
});

export type ImageConfig = z.infer<typeof imageConfigSchema>;
export type FileEntry = z.infer<typeof fileEntry>;
export type PathEntry = z.infer<typeof pathEntry>;

export interface LoadedConfig {
  config: ImageConfig;
  /** Where relative `files` sources and repository directories are resolved. */
  baseDir: string;
  /** The config's name in messages: its path, or "the embedded default". */
  source: string;
}

function keyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(top level)';
}

function lineOf(doc: Document, text: string, path: readonly PropertyKey[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(
      path.slice(0, n).map((p) => (typeof p === 'symbol' ? String(p) : p)),
      true,
    );
    if (isNode(node) && node.range) return linePosition(text, node.range[0]).line;
  }
  return undefined;
}

/** Parses and validates config text; every error names the source, the line and the key path. */
export function parseImageConfig(text: string, source: string): ImageConfig {
  const doc = parseDocument(text, { keepSourceTokens: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e?.linePos?.[0]?.line;
    throw new UserError(`${source}${line ? `:${line}` : ''}: invalid YAML: ${(e?.message ?? 'parse error').split('\n')[0]}`);
  }
  // `permissions: 0755` means octal to apko's YAML reader; YAML 1.2 would read decimal 755.
  visit(doc, {
    Scalar(_k, node) {
      const raw = node.srcToken && 'source' in node.srcToken ? node.srcToken.source : undefined;
      if (typeof node.value === 'number' && raw && /^0[0-7]+$/.test(raw)) node.value = parseInt(raw, 8);
    },
  });
  const data: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  const result = imageConfigSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path ?? [];
    const line = lineOf(doc, text, path);
    let msg = issue?.message ?? 'invalid';
    if (issue?.code === 'unrecognized_keys') msg = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    const at = issue?.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? [...path, issue.keys[0]] : path;
    throw new UserError(`${source}${line ? `:${lineOf(doc, text, at) ?? line}` : ''}: ${keyPath(at)}: ${msg}`);
  }
  checkSemantics(result.data, source);
  return result.data;
}

/** What zod cannot see alone: supported features, names that must refer to something. */
function checkSemantics(c: ImageConfig, source: string): void {
  const fail = (path: string, msg: string): never => {
    throw new UserError(`${source}: ${path}: ${msg}`);
  };
  if (c.include !== undefined) fail('include', 'is deprecated in apko and not supported; merge the base config into this file');
  if (c.contents?.baseimage !== undefined) fail('contents.baseimage', 'is not supported (images are built from packages and files only)');
  if (c.entrypoint?.type !== undefined && c.entrypoint.type !== 'service-bundle') fail('entrypoint.type', `unknown type "${c.entrypoint.type}"`);
  if (c.entrypoint?.type === 'service-bundle') fail('entrypoint.type', 'service-bundle (s6) is not supported; set entrypoint.command');
  c.files?.forEach((f, i) => {
    if (f.capabilities !== undefined) parseCapabilities(f.capabilities, `${source}: files[${i}].capabilities`);
  });
  c.capabilities?.forEach((f, i) => parseCapabilities(f.capabilities, `${source}: capabilities[${i}].capabilities`));
  c.paths?.forEach((p, i) => {
    if ((p.type === 'symlink' || p.type === 'hardlink') && !p.source) fail(`paths[${i}].source`, `a ${p.type} needs a source`);
  });
  const users = c.accounts?.users ?? [];
  const runAs = c.accounts?.['run-as'];
  if (typeof runAs === 'string' && !/^\d+$/.test(runAs) && !users.some((u) => u.username === runAs)) {
    fail('accounts.run-as', `"${runAs}" is not one of accounts.users`);
  }
  const seen = new Set<string>();
  for (const [i, f] of (c.files ?? []).entries()) {
    if (seen.has(f.path)) fail(`files[${i}].path`, `${f.path} is listed twice`);
    seen.add(f.path);
  }
}

/** Reads a config file (bounded) or the embedded default. */
export async function loadImageConfig(file: string | undefined, cwd: string): Promise<LoadedConfig> {
  if (file === undefined) {
    const { defaultImageConfig } = await import('../../../templates/image/proxy-runtime.js');
    return { config: parseImageConfig(defaultImageConfig, 'the embedded default config'), baseDir: cwd, source: 'the embedded default config' };
  }
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  const st = await stat(path).catch(() => undefined);
  if (!st?.isFile()) throw new UserError(`${file}: no such config file`);
  if (st.size > MAX_CONFIG_BYTES) throw new UserError(`${file}: config larger than ${MAX_CONFIG_BYTES} bytes`);
  const text = await readFile(path, 'utf8');
  return { config: parseImageConfig(text, file), baseDir: dirname(path), source: file };
}
