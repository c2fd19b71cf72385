import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotBlobArg } from '../../core/snapshotBlobArg.js';

/*
 * `--verbose` stack traces that point at the TypeScript sources. The build writes source maps
 * beside the bundle and the snapshot entry; they are read here, only when a trace is printed,
 * so no run pays for them otherwise (node's --enable-source-maps would parse them at start-up,
 * and cannot see code that came from the start-up snapshot).
 */

type SourceMapInstance = InstanceType<typeof import('node:module').SourceMap>;

/** The snapshot a run started from moved with the package: its entry sits beside the blob (start.blob, start.cjs). */
function snapshotEntry(file: string): string | undefined {
  const blob = snapshotBlobArg();
  return blob === undefined ? undefined : path.join(path.dirname(path.resolve(blob)), path.basename(file));
}

function localFile(file: string): string | undefined {
  const p = file.startsWith('file://') ? fileURLToPath(file) : file;
  if (existsSync(p)) return p;
  // A trace from the snapshot names the entry where it was built; use the one it was loaded from.
  if (path.basename(path.dirname(p)) === 'snapshot' && p.endsWith('.cjs')) return snapshotEntry(p);
  return undefined;
}

/** The package root: the directory holding dist/. */
function packageRoot(file: string): string {
  const parts = file.split(path.sep);
  const i = parts.lastIndexOf('dist');
  return i > 0 ? parts.slice(0, i).join(path.sep) : path.dirname(file);
}

/** `stack` with every frame in the bundle or the snapshot entry mapped to its TypeScript source. */
export function sourceMappedStack(stack: string): string {
  // Fetched, not imported: code started from the V8 snapshot cannot import() (see src/cli/snapshot/run.ts).
  const { SourceMap } = process.getBuiltinModule('node:module');
  const maps = new Map<string, { map: SourceMapInstance; dir: string; root: string } | undefined>();
  const load = (file: string) => {
    if (!maps.has(file)) {
      const local = localFile(file);
      const mapFile = local === undefined ? undefined : `${local}.map`;
      let entry: { map: SourceMapInstance; dir: string; root: string } | undefined;
      if (local !== undefined && mapFile !== undefined && existsSync(mapFile)) {
        try {
          entry = {
            map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]),
            dir: path.dirname(mapFile),
            root: packageRoot(local),
          };
        } catch {
          entry = undefined;
        }
      }
      maps.set(file, entry);
    }
    return maps.get(file);
  };
  return stack.replace(/((?:file:\/\/)?[^\s()]+\.(?:m?js|cjs)):(\d+):(\d+)/g, (whole, file: string, line: string, column: string) => {
    const found = load(file);
    if (!found) return whole;
    const hit = found.map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (hit.originalSource === undefined || hit.originalLine === undefined || hit.originalColumn === undefined) return whole;
    const source = hit.originalSource.startsWith('file://') ? fileURLToPath(hit.originalSource) : path.resolve(found.dir, hit.originalSource);
    return `${path.relative(found.root, source)}:${hit.originalLine + 1}:${hit.originalColumn + 1}`;
  });
}
