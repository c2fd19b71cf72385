import type { FamilyDeclaration } from '../../cli/kit/family.js';

/*
 * The analyze family: `linkerd analyze`, an offline analyzer of Linkerd policy against the
 * workloads it governs (beyond the real CLI, as `istioctl analyze` is for Istio). Names and
 * loaders only: nothing heavy loads at start-up.
 */
export const analyze: FamilyDeclaration = {
  name: 'analyze',
  commands: [
    { name: 'analyze', summary: 'Check Linkerd policy against the workloads it governs, offline, before it is applied', load: () => import('./command.js') },
  ],
};
