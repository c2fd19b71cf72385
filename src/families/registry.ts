import type { FamilyDeclaration } from '../cli/kit/family.js';
import { analyze } from './analyze/index.js';
import { cni } from './cni/index.js';
import { core } from './core/index.js';
import { diagnostics } from './diagnostics/index.js';
import { multicluster } from './multicluster/index.js';
import { viz } from './viz/index.js';

/** The command families of this CLI: one line each. */
export const FAMILIES: readonly FamilyDeclaration[] = [core, analyze, cni, diagnostics, multicluster, viz];
