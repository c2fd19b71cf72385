import type { FamilyDeclaration } from '../../cli/kit/family.js';

/*
 * The diagnostics family: `linkerd diagnostics` (alias `dg`), which reaches control-plane and
 * proxy processes directly through port-forwards. Names and loaders only.
 */
export const diagnostics: FamilyDeclaration = {
  name: 'diagnostics',
  commands: [{ name: 'diagnostics', aliases: ['dg'], summary: 'Commands used to diagnose Linkerd components', load: () => import('./command.js') }],
};
