import { deprecatedAliases, type CommandLoader, type FamilyDeclaration } from '../../cli/kit/family.js';
import type { CommandBody } from '../../cli/kit/command.js';
import type { FlagSpec } from '../../cli/kit/flags.js';

/*
 * The viz family: the linkerd-viz extension's commands, checks and chart. Names, summaries and
 * loaders only; `linkerd viz --help` lists the subcommands from here without loading them.
 */

/**
 * The real `viz`'s persistent `--viz-namespace`: every viz subcommand takes it (the data commands
 * and check read it; the others, dashboard included, accept it and ignore it).
 */
const VIZ_NAMESPACE_FLAG: FlagSpec = {
  name: 'viz-namespace',
  type: 'string',
  help: "Name of the linkerd-viz namespace. If not set, it's automatically detected",
  completion: 'namespaces',
  persistent: true,
};

/** `linkerd viz` alone prints its help, as cobra does for a command without Run. */
const vizRoot: CommandBody = {
  long: 'viz manages the linkerd-viz extension of Linkerd service mesh.',
  flags: [VIZ_NAMESPACE_FLAG],
  run: ({ command }) => {
    command.outputHelp();
    return Promise.resolve();
  },
};

const vizCommand: CommandLoader = {
  name: 'viz',
  summary: 'viz manages the linkerd-viz extension of Linkerd service mesh',
  load: () => Promise.resolve({ command: vizRoot }),
  // The real viz declares its own -L: $LINKERD_NAMESPACE does not set it.
  namespaceEnv: false,
  subcommands: [
    { name: 'allow-scrapes', summary: 'Output Kubernetes resources to authorize Prometheus scrapes', load: () => import('./commands/allow-scrapes.js') },
    { name: 'authz', summary: 'Display stats for server authorizations for a resource', load: () => import('./commands/authz.js') },
    { name: 'check', summary: 'Check the Linkerd Viz extension for potential problems', load: () => import('./commands/check.js') },
    { name: 'dashboard', summary: 'Open the Linkerd dashboard in a web browser', load: () => import('./commands/dashboard.js') },
    { name: 'edges', summary: 'Display connections between resources, and Linkerd proxy identities', load: () => import('./commands/edges.js') },
    { name: 'install', summary: 'Output Kubernetes resources to install linkerd-viz extension', load: () => import('./commands/install.js') },
    { name: 'list', summary: 'Lists which pods can be tapped', load: () => import('./commands/list.js') },
    { name: 'profile', summary: 'Output service profile config for Kubernetes based off tap data', load: () => import('./commands/profile.js') },
    { name: 'prune', summary: 'Output extraneous Kubernetes resources in the linkerd-viz extension', load: () => import('./commands/prune.js') },
    { name: 'routes', summary: 'Display route stats', load: () => import('./commands/routes.js') },
    { name: 'stat', summary: 'Display traffic stats about one or many resources', load: () => import('./commands/stat.js') },
    { name: 'stat-inbound', summary: 'Display inbound traffic stats about a resource', load: () => import('./commands/stat-inbound.js') },
    { name: 'stat-outbound', summary: 'Display outbound traffic stats about a resource', load: () => import('./commands/stat-outbound.js') },
    { name: 'tap', summary: 'Listen to a traffic stream', load: () => import('./commands/tap.js') },
    { name: 'top', summary: 'Display sorted information about live traffic', load: () => import('./commands/top.js') },
    { name: 'uninstall', summary: 'Output Kubernetes resources to uninstall the linkerd-viz extension', load: () => import('./commands/uninstall.js') },
  ],
};

/**
 * The real CLI's deprecated top-level copies (`linkerd stat`, …), by cobra Use line; each appears
 * once its viz subcommand is declared above.
 */
export const DEPRECATED_ROOT_USES: Readonly<Record<string, string>> = {
  dashboard: 'dashboard [flags]',
  edges: 'edges [flags] (RESOURCETYPE)',
  routes: 'routes [flags] (RESOURCES)',
  stat: 'stat [flags] (RESOURCES)',
  tap: 'tap [flags] (RESOURCE)',
  top: 'top [flags] (RESOURCE)',
};

export const viz: FamilyDeclaration = {
  name: 'viz',
  commands: [vizCommand, ...deprecatedAliases(vizCommand, 'linkerd viz', DEPRECATED_ROOT_USES)],
  checks: { extension: 'viz', load: async () => (await import('./check/family.js')).VIZ_CHECK_FAMILY },
  charts: [{ name: 'linkerd-viz', load: async () => (await import('./chart/chart.js')).vizChart }],
};
