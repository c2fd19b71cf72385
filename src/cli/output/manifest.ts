import yaml from 'js-yaml';
import { UserError } from '../../core/errors.js';

export type ManifestFormat = 'yaml' | 'json';

/**
 * `-o yaml|json`; any other value is refused with `refusal` (default: our own words naming the
 * flag; commands that carry the real CLI's words, e.g. `unsupported format xml`, pass them).
 */
export function manifestFormat(value: string, refusal?: (value: string) => string): ManifestFormat {
  if (value === 'yaml' || value === 'json') return value;
  throw new UserError(refusal ? refusal(value) : `--output supports "yaml" or "json" (got "${value}")`);
}

/**
 * Objects we own are serialised once, here: `---`-separated YAML documents, or one JSON object
 * per line (what the real CLI prints for `-o json`, and what `kubectl apply -f -` accepts).
 */
export function renderManifest(objects: readonly object[], format: ManifestFormat): string {
  if (format === 'json') return objects.map((o) => JSON.stringify(o)).join('\n') + (objects.length ? '\n' : '');
  return objects.map((o) => '---\n' + yaml.dump(o, { noRefs: true, lineWidth: -1, sortKeys: false })).join('');
}
