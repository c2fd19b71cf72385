import yaml from 'js-yaml';
import { UserError } from '../errors.js';
import { MAX_NESTING_DEPTH, checkPlainTree } from './treeLimits.js';

/*
 * js-yaml's load, with the limits every YAML read shares (treeLimits.ts): nesting is stopped by the
 * parser itself, aliases are measured by what they expand to before anyone walks the result.
 * Syntax errors stay js-yaml's YAMLException, so callers keep their own `FILE:LINE:COL` wording.
 */

/** js-yaml 4.3 reads `maxDepth`; its published types predate the option. */
type LoadOptions = yaml.LoadOptions & { maxDepth?: number };

/** The data of a YAML text; `source` prefixes a limit's refusal (`values.yaml: nested more than …`). */
export function loadYaml(text: string, source?: string): unknown {
  const options: LoadOptions = { filename: source, maxDepth: MAX_NESTING_DEPTH };
  const data = yaml.load(text, options);
  const problem = checkPlainTree(data);
  if (problem) throw new UserError(source === undefined ? problem.reason : `${source}: ${problem.reason}`);
  return data;
}
