import { UserError } from '../errors.js';
import { CORE_REGISTRY } from './registry.js';

/** `--skip` / `--only`: check ids (`L5D1804`) and category names, comma-separated or repeated. */
export interface Selection {
  skip: string[];
  only: string[];
}

const CHECK_ID = /^L5D\d{4}$/i;
const NAME = /^[a-z0-9][a-z0-9-]*(#\d+)?$/;

/**
 * Normalise and validate the tokens: ids must be known (core ones, unless `knownId` also
 * knows the registered families'); names may be core or extension categories.
 */
export function parseSelection(skip: string[], only: string[], knownId: (id: string) => boolean = (id) => CORE_REGISTRY.hasCheck(id)): Selection {
  const norm = (flag: string, values: string[]) =>
    values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '')
      .map((v) => {
        if (CHECK_ID.test(v)) {
          const id = v.toUpperCase();
          if (!knownId(id)) throw new UserError(`unknown check id "${v}" in --${flag} (run linkerd check --list)`);
          return id;
        }
        if (!NAME.test(v)) throw new UserError(`invalid value "${v}" for --${flag}: expected a check id (see --list) or a category name`);
        return v;
      });
  return { skip: norm('skip', skip), only: norm('only', only) };
}

export interface Selectable {
  id: string;
  category: string;
}

/** Whether a check runs under the selection, and which tokens matched something (to warn about the rest). */
export class Selector {
  private readonly used = new Set<string>();

  constructor(readonly selection: Selection) {}

  private matches(token: string, c: Selectable): boolean {
    const hit = token === c.id || token === c.category;
    if (hit) this.used.add(token);
    return hit;
  }

  selected(c: Selectable): boolean {
    const { skip, only } = this.selection;
    // Evaluate every token so that `unmatched` is accurate.
    const skipped = skip.map((t) => this.matches(t, c)).some(Boolean);
    const included = only.length === 0 || only.map((t) => this.matches(t, c)).some(Boolean);
    return included && !skipped;
  }

  /** True when `--only` names nothing but core checks and categories: extensions need not run. */
  get excludesExtensions(): boolean {
    const { only } = this.selection;
    return only.length > 0 && only.every((t) => CORE_REGISTRY.hasCheck(t) || CORE_REGISTRY.hasCategory(t));
  }

  /** Tokens that selected nothing in this run. */
  unmatched(): string[] {
    return [...this.selection.skip, ...this.selection.only].filter((t) => !this.used.has(t));
  }
}
