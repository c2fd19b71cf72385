import { UserError } from '../../../core/errors.js';
import { renderManifest } from '../../../cli/output/manifest.js';

/* What the viz commands share: `--wait`, and the manifest printer's formats and refusal. */

export { parseWait, WAIT_FLAG } from '../../../cli/flags/wait.js';

/** yaml (`---` documents) or json (one object a line); any other format is the real command's error. */
export function vizManifest(objects: readonly object[], format: string): string {
  if (format !== 'yaml' && format !== 'json') throw new UserError(`unsupported format ${format}`);
  return renderManifest(objects, format);
}

/** uninstall's and prune's `-o`, as the core commands check it. */
export function stubFormat(format: string): 'yaml' | 'json' {
  if (format !== 'yaml' && format !== 'json') throw new UserError(`unsupported format ${format}`);
  return format;
}
