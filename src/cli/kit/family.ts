import type { CheckFamilyEntry } from '../../core/check/family.js';
import type { TrustPeerSource } from '../../core/identity/peers.js';
import type { ChartEntry } from '../../core/values/chart.js';
import type { CommandBody } from './command.js';

/*
 * What a command family (core, viz, multicluster, …) declares in its `index.ts`: names, summaries
 * and loaders only, so start-up and help import nothing heavy. src/families/registry.ts lists them.
 */

/** A top-level command: how help lists it, and how to load it when it runs. */
export interface CommandLoader {
  name: string;
  aliases?: readonly string[];
  /** The one-line summary help lists (cobra's Short). */
  summary: string;
  /** cobra's Hidden: runs, but help, completion and the reference leave it out (`doc`). */
  hidden?: boolean;
  load(): Promise<{ command: CommandBody }>;
  /**
   * A command of subcommands declared here, not in its module (`viz install`, `viz check`): help
   * lists them from these entries, and a run loads only the one it runs.
   */
  subcommands?: readonly CommandLoader[];
  /**
   * cobra's Deprecated: hidden from help and completion; before its flags are parsed (so also on
   * --help and flag or argument errors) `Command "<name>" is deprecated, <deprecated>` goes to stderr.
   */
  deprecated?: string;
  /**
   * `false`: the command (with all below it) has the real CLI's own `-L`, which
   * `$LINKERD_NAMESPACE` does not set (viz, multicluster); the root's `-L` reads it.
   */
  namespaceEnv?: false;
}

/** What a flag value completes from (`namespaces`, `contexts`, …), given the words typed so far. */
export interface CompletionContext {
  /** The kubeconfig selection typed so far (`--kubeconfig`, `--context`). */
  kubeconfig?: string;
  context?: string;
}
export type CompletionSource = (ctx: CompletionContext) => Promise<string[]>;

export interface FamilyDeclaration {
  name: string;
  commands: readonly CommandLoader[];
  /** Named completion sources the family's flags refer to (`completion: 'namespaces'`). */
  completions?: Readonly<Record<string, CompletionSource>>;
  /** The family's `linkerd check` categories, run in-process when its extension is installed. */
  checks?: CheckFamilyEntry;
  /** The family's charts (values schema, defaults, flag sets, templates), loaded on first use. */
  charts?: readonly ChartEntry[];
  /** Clusters whose trust must move with ours in an anchor rotation (multicluster's Links), loaded when a rotation step runs. */
  trustPeers?: { load(): Promise<TrustPeerSource> };
}

/**
 * Deprecated top-level copies of `parent`'s subcommands, as the real CLI keeps `linkerd stat` for
 * `linkerd viz stat`: one per entry of `uses` (name → cobra Use line) that `parent` declares, each
 * loading that subcommand only when it runs, with the deprecation `use instead '<path> <Use>'`
 * (cobra then prints a blank line after it, the text's own newline).
 */
export function deprecatedAliases(parent: CommandLoader, path: string, uses: Readonly<Record<string, string>>): CommandLoader[] {
  return Object.entries(uses).flatMap(([name, use]) => {
    const sub = parent.subcommands?.find((s) => s.name === name);
    return sub
      ? [
          {
            name,
            summary: sub.summary,
            load: () => sub.load(),
            deprecated: `use instead '${path} ${use}'\n`,
            namespaceEnv: parent.namespaceEnv ?? sub.namespaceEnv,
          },
        ]
      : [];
  });
}

/** Every family's top-level commands, in declaration order. */
export function commandLoaders(families: readonly FamilyDeclaration[]): CommandLoader[] {
  return families.flatMap((f) => f.commands);
}

/** The named completion sources of every family (a later family cannot replace an earlier one's). */
export function completionSources(families: readonly FamilyDeclaration[]): Record<string, CompletionSource> {
  const out: Record<string, CompletionSource> = {};
  for (const f of families) {
    for (const [name, source] of Object.entries(f.completions ?? {})) {
      if (name in out) throw new Error(`completion source ${name} of family ${f.name} is already declared`);
      out[name] = source;
    }
  }
  return out;
}
