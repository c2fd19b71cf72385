import type { CheckOptions } from './context.js';
import type { CoreCheckOptions } from './coreOptions.js';
import type { CheckDefinition, CheckMode } from './types.js';

/*
 * The check registry is open: every family (the core checks, and each extension this CLI
 * carries, as linkerd2 keeps viz/pkg/healthcheck beside viz/cmd) declares its categories as
 * data. Nothing outside a family lists its categories, codes or modes.
 */

/** One category: the header the real CLI prints above its checks, and the modes it runs in. */
export interface CheckCategory {
  /** The real CLI's category name (`linkerd-viz`); unique across every family. */
  id: string;
  /** Two digits inside the family's range: the category's checks are `L5D<code><nn>`. Never reused. */
  code: number;
  /** The modes of `linkerd check` that run it (`default`, `--pre`, `--proxy`, `--crds`). */
  modes: readonly CheckMode[];
  /** A further condition in some of those modes (linkerd-cni-plugin under `--pre` needs `--linkerd-cni-enabled`). */
  when?: Partial<Record<CheckMode, (options: CheckOptions) => boolean>>;
  /** In the order they run and are printed; each check's `category` is this category's id. */
  checks: readonly CheckDefinition[];
}

/** A family's checks: its categories in execution order, their codes inside the family's own range. */
export interface CheckFamily {
  /** `core`, `viz`: also the key of its options slot in CheckOptions.families. */
  name: string;
  /** The category codes this family owns, both ends included (core: 10–49). */
  codes: { first: number; last: number };
  categories: readonly CheckCategory[];
}

/**
 * How a family of this CLI joins `linkerd check`: the value of the `linkerd.io/extension` label
 * its namespace carries, and a loader, so its checks are imported only when it is installed.
 */
export interface CheckFamilyEntry {
  extension: string;
  load(): Promise<CheckFamily>;
}

/**
 * Each family's own options, under its name (a typed slot, not a shared bag). A family adds
 * its slot from its own folder by augmenting this interface:
 * `declare module '<path>/core/check/family.js' { interface CheckFamilyOptions { viz?: VizCheckOptions } }`.
 * A slot is optional: `linkerd check` fills only the core one, and runs other families with
 * the options every family sees (the flags the real CLI forwards to extensions).
 */
export interface CheckFamilyOptions {
  core?: CoreCheckOptions;
}

/** Per mode: whether extension checks follow the core ones (the real CLI skips them for --pre and --crds). */
export const MODES: Readonly<Record<CheckMode, { extensions: boolean }>> = {
  default: { extensions: true },
  pre: { extensions: false },
  proxy: { extensions: true },
  crds: { extensions: false },
};

/** In the order `--list` shows them. */
export const ALL_MODES = Object.keys(MODES) as CheckMode[];

/** Whether a category runs in this mode, with these options. */
export function categoryRuns(category: CheckCategory, mode: CheckMode, options: CheckOptions): boolean {
  if (!category.modes.includes(mode)) return false;
  return category.when?.[mode]?.(options) ?? true;
}

/** The checks of a family that this mode runs, in execution order. */
export function familyChecks(family: CheckFamily, mode: CheckMode, options: CheckOptions): CheckDefinition[] {
  return family.categories.filter((c) => categoryRuns(c, mode, options)).flatMap((c) => c.checks);
}

const CHECK_ID = /^L5D(\d{2})(\d{2})$/;

/**
 * The families of one CLI, checked as they are registered: names, code ranges, category ids,
 * codes and check ids must not collide, and every id must sit in its family's range. A
 * collision is a bug of this CLI, so it throws a plain Error (reported as a bug).
 */
export class CheckRegistry {
  private readonly byName = new Map<string, CheckFamily>();
  private readonly categories = new Map<string, { family: CheckFamily; category: CheckCategory }>();
  private readonly codes = new Map<number, string>();
  private readonly ids = new Map<string, CheckDefinition>();

  constructor(families: readonly CheckFamily[] = []) {
    for (const f of families) this.register(f);
  }

  register(family: CheckFamily): void {
    const refuse = (why: string) => new Error(`check family "${family.name}" cannot be registered: ${why}`);
    if (this.byName.has(family.name)) throw refuse('a family of that name is registered already');
    const { first, last } = family.codes;
    if (!Number.isInteger(first) || !Number.isInteger(last) || first < 10 || last > 99 || first > last) {
      throw refuse(`its code range ${first}–${last} is not two-digit codes`);
    }
    for (const other of this.byName.values()) {
      if (first <= other.codes.last && other.codes.first <= last) {
        throw refuse(`its code range ${first}–${last} overlaps "${other.name}" (${other.codes.first}–${other.codes.last})`);
      }
    }
    const categories = new Set<string>();
    const codes = new Map<number, string>();
    const ids = new Set<string>();
    for (const c of family.categories) {
      const owner = this.categories.get(c.id)?.family.name;
      if (owner !== undefined || categories.has(c.id)) throw refuse(`category "${c.id}" is declared by "${owner ?? family.name}" already`);
      if (!Number.isInteger(c.code) || c.code < first || c.code > last) throw refuse(`category "${c.id}" has code ${c.code}, outside ${first}–${last}`);
      const codeOwner = this.codes.get(c.code) ?? codes.get(c.code);
      if (codeOwner !== undefined) throw refuse(`code ${c.code} of "${c.id}" is taken by "${codeOwner}"`);
      categories.add(c.id);
      codes.set(c.code, c.id);
      for (const check of c.checks) {
        const m = CHECK_ID.exec(check.id);
        if (check.category !== c.id) throw refuse(`check ${check.id} names category "${check.category}" but is listed in "${c.id}"`);
        if (!m || Number(m[1]) !== c.code) throw refuse(`check id "${check.id}" is not L5D${c.code}<nn>`);
        if (this.ids.has(check.id) || ids.has(check.id)) throw refuse(`check id ${check.id} is taken`);
        ids.add(check.id);
      }
    }
    this.byName.set(family.name, family);
    for (const c of family.categories) {
      this.categories.set(c.id, { family, category: c });
      this.codes.set(c.code, c.id);
      for (const check of c.checks) this.ids.set(check.id, check);
    }
  }

  get families(): CheckFamily[] {
    return [...this.byName.values()];
  }

  /** Every check of every family, families in registration order. */
  get checks(): CheckDefinition[] {
    return this.families.flatMap((f) => f.categories.flatMap((c) => c.checks));
  }

  hasCheck(id: string): boolean {
    return this.ids.has(id);
  }

  hasCategory(id: string): boolean {
    return this.categories.has(id);
  }

  /** The modes a check's category declares (for `--list`). */
  modesOf(check: CheckDefinition): CheckMode[] {
    const declared = this.categories.get(check.category)?.category.modes ?? [];
    return ALL_MODES.filter((m) => declared.includes(m));
  }
}

/** Load every entry and register it after the given families; duplicate extension labels are refused too. */
export async function loadCheckRegistry(base: readonly CheckFamily[], entries: readonly CheckFamilyEntry[]): Promise<CheckRegistry> {
  refuseDuplicateExtensions(entries);
  const registry = new CheckRegistry(base);
  for (const family of await Promise.all(entries.map((e) => e.load()))) registry.register(family);
  return registry;
}

export function refuseDuplicateExtensions(entries: readonly CheckFamilyEntry[]): void {
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.extension)) throw new Error(`two check families are registered for the extension "${e.extension}"`);
    seen.add(e.extension);
  }
}
