import type { FamilyDeclaration } from '../../cli/kit/family.js';

/*
 * The analyze family: `linkerd analyze`, an offline analyzer of Linkerd policy against the
 * workloads it governs (beyond the real CLI, as `istioctl analyze` is for Istio), and `linkerd
 * authz`, whose `-f` answers from manifests read and resolved as analyze reads them (families do
 * not import each other, so it lives here). Names and loaders only: nothing heavy at start-up.
 */
export const analyze: FamilyDeclaration = {
  name: 'analyze',
  commands: [
    { name: 'analyze', summary: 'Check Linkerd policy against the workloads it governs, offline, before it is applied', load: () => import('./command.js') },
    { name: 'authz', summary: 'List authorizations for a resource', load: () => import('./authz/command.js') },
  ],
};
