import type { FamilyDeclaration } from '../../cli/kit/family.js';

/*
 * The multicluster family: `linkerd multicluster` (alias `mc`), its `linkerd-multicluster` check
 * category and its chart. Names, summaries and loaders only; the modules load when used.
 */

export const multicluster: FamilyDeclaration = {
  name: 'multicluster',
  commands: [
    {
      name: 'multicluster',
      aliases: ['mc'],
      namespaceEnv: false,
      summary: 'Manages the multicluster setup for Linkerd',
      load: () => import('./command.js'),
    },
  ],
  checks: { extension: 'multicluster', load: async () => (await import('./check/family.js')).multiclusterCheckFamily },
  trustPeers: { load: async () => (await import('./peers.js')).linkPeers },
  charts: [{ name: 'linkerd-multicluster', load: async () => (await import('./chart/chart.js')).multiclusterChart }],
};
