import yaml from 'js-yaml';
import { UserError } from '../errors.js';
import { MAX_NESTING_DEPTH, checkPlainTree, collectionBudget, denseText } from './treeLimits.js';

/*
 * js-yaml's load, with the limits every YAML read shares (treeLimits.ts): nesting is stopped by the
 * parser itself, mappings and sequences are counted against the collection budget as the parser
 * closes them (so a text of `{}` under the byte limit stops early), aliases are measured by what
 * they expand to before anyone walks the result. Syntax errors stay js-yaml's YAMLException, so
 * callers keep their own `FILE:LINE:COL` wording.
 */

/** js-yaml 4.3 reads `maxDepth`; its published types predate the option. */
type LoadOptions = yaml.LoadOptions & { maxDepth?: number };

export interface LoadYamlOptions {
  /** performance.now() time after which parsing stops with a refusal. */
  deadline?: number;
}

/** Events between two looks at the clock. */
const CLOCK_EVERY = 4096;

/** The data of a YAML text; `source` prefixes a limit's refusal (`values.yaml: nested more than …`). */
export function loadYaml(text: string, source?: string, o: LoadYamlOptions = {}): unknown {
  const refuse = (reason: string) => new UserError(source === undefined ? reason : `${source}: ${reason}`);
  const budget = collectionBudget(text.length);
  let collections = 0;
  let events = 0;
  const options: LoadOptions = {
    filename: source,
    maxDepth: MAX_NESTING_DEPTH,
    listener(event, state) {
      if (o.deadline !== undefined && ++events % CLOCK_EVERY === 0 && performance.now() > o.deadline) {
        throw refuse('deadline passed while parsing');
      }
      if (event === 'close' && (state.kind === 'mapping' || state.kind === 'sequence') && ++collections > budget) throw refuse(denseText(budget));
    },
  };
  const data = yaml.load(text, options);
  const problem = checkPlainTree(data);
  if (problem) throw refuse(problem.reason);
  return data;
}
