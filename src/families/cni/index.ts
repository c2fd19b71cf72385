import type { FamilyDeclaration } from '../../cli/kit/family.js';

/*
 * The cni family: the Linkerd CNI plugin, its chart (linkerd2-cni) and `linkerd install-cni`.
 * A family of its own because the plugin is a chart and a release apart from the control plane
 * (the core family's charts are the control plane's); the checks of an installed plugin stay in
 * check's core category, as in linkerd, and read the plugin's names from src/core/mesh/names.ts.
 */

export const cni: FamilyDeclaration = {
  name: 'cni',
  commands: [{ name: 'install-cni', summary: 'Output Kubernetes configs to install Linkerd CNI', load: () => import('./command.js') }],
  charts: [{ name: 'linkerd2-cni', load: async () => (await import('./chart/chart.js')).cniChart }],
};
