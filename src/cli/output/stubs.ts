import yaml from 'js-yaml';
import type { ManifestFormat } from './manifest.js';

/**
 * `uninstall` and `prune` output, as linkerd's RenderResource writes it: each object's YAML
 * followed by `---`, or one JSON object per line.
 */
export function renderStubs(objects: readonly object[], format: ManifestFormat): string {
  if (format === 'json') return objects.map((o) => `${JSON.stringify(o)}\n`).join('');
  return objects.map((o) => `${yaml.dump(o, { noRefs: true, lineWidth: -1, sortKeys: false })}---\n`).join('');
}
