import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** A fresh temporary directory, removed by the returned function. */
export function scratch(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `l5d-image-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `skopeo inspect` of a transport:reference, parsed. */
export async function skopeoInspect(ref: string, raw = false, extra: string[] = []): Promise<Record<string, unknown>> {
  const { stdout } = await run('skopeo', ['inspect', ...extra, ...(raw ? ['--raw'] : []), ref], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

export interface TreeEntry {
  type: string;
  mode: string;
  uid: number;
  gid: number;
  size?: number;
  link?: string;
}

/** A directory tree as `stat` sees it (type, octal mode, owner, size, link target). */
export async function treeOf(root: string): Promise<Map<string, TreeEntry>> {
  const { stdout } = await run('find', [root, '-mindepth', '1', '-printf', '%P\\t%y\\t%m\\t%U\\t%G\\t%s\\t%l\\n'], { maxBuffer: 256 << 20 });
  const out = new Map<string, TreeEntry>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [path = '', type = '', mode = '', uid = '0', gid = '0', size = '0', link = ''] = line.split('\t');
    out.set(path, { type, mode, uid: Number(uid), gid: Number(gid), ...(type === 'f' ? { size: Number(size) } : {}), ...(type === 'l' ? { link } : {}) });
  }
  return out;
}

/** The security.capability xattr of a file as hex, or '' when it has none. */
export async function capabilityHex(file: string): Promise<string> {
  const r = await run('getfattr', ['--absolute-names', '-e', 'hex', '-n', 'security.capability', file]).catch(() => ({ stdout: '' }));
  return /security\.capability=0x([0-9a-f]+)/.exec(r.stdout)?.[1] ?? '';
}
