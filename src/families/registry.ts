import type { FamilyDeclaration } from '../cli/kit/family.js';
import { core } from './core/index.js';
import { multicluster } from './multicluster/index.js';

/** The command families of this CLI: one line each. */
export const FAMILIES: readonly FamilyDeclaration[] = [core, multicluster];
