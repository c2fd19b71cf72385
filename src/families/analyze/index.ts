/*
 * The analyze family: `linkerd analyze`, an offline analyzer of Linkerd policy against the
 * workloads it governs (beyond the real CLI, as `istioctl analyze` is for Istio).
 *
 * Until the kit's FamilyDeclaration (src/cli/kit/family.ts) is merged, this is its smallest local
 * stand-in: names, summaries and lazy loaders only, so nothing heavy loads at start-up.
 */
import type { Command } from 'commander';

export interface CommandDeclaration {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly summary: string;
  load(): Promise<{ register: (program: Command) => Command }>;
}

export interface FamilyDeclaration {
  readonly name: string;
  readonly commands: readonly CommandDeclaration[];
}

export const analyzeFamily: FamilyDeclaration = {
  name: 'analyze',
  commands: [{ name: 'analyze', summary: 'Check Linkerd policy against the workloads it governs, offline', load: () => import('./command.js') }],
};
