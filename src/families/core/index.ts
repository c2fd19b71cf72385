import type { CompletionContext, FamilyDeclaration } from '../../cli/kit/family.js';
import { CORE_CHARTS } from '../../core/values/charts.js';

/*
 * The core family: the control-plane commands of the real CLI's root. Names, summaries and
 * loaders only; a command's module is imported when it runs (or for `help <command>`).
 */

const sources = () => import('../../cli/completion/sources.js');

export const core: FamilyDeclaration = {
  name: 'core',
  commands: [
    { name: 'check', summary: 'Check the Linkerd installation for potential problems', load: () => import('../../cli/commands/check.js') },
    {
      name: 'completion',
      summary: 'Output shell completion code for the specified shell (bash, zsh or fish)',
      load: () => import('../../cli/commands/completion.js'),
    },
    {
      name: 'doc',
      summary: 'Generate YAML documentation for the Linkerd CLI & Proxy annotations',
      hidden: true,
      load: () => import('../../cli/commands/doc.js'),
    },
    {
      name: 'image',
      summary: 'Build the proxy runtime image: packages, local files and file capabilities, without Docker or root',
      load: () => import('../../cli/commands/image.js'),
    },
    {
      name: 'inject',
      summary: 'Add the Linkerd proxy to a Kubernetes config: files, directories, https:// URLs or - (stdin)',
      load: () => import('../../cli/commands/inject.js'),
    },
    {
      name: 'identity',
      summary: 'Display the certificate(s) of one or more selected pod(s); create, inspect and rotate identity certificates',
      load: () => import('../../cli/commands/identity.js'),
    },
    { name: 'install', summary: 'Output Kubernetes configs to install Linkerd', load: () => import('../../cli/commands/install.js') },
    { name: 'profile', summary: 'Output service profile config for Kubernetes', load: () => import('../../cli/commands/profile.js') },
    { name: 'prune', summary: 'Output extraneous Kubernetes resources in the linkerd control plane', load: () => import('../../cli/commands/prune.js') },
    {
      name: 'uninject',
      summary: 'Remove the Linkerd proxy from a Kubernetes config: files, directories, https:// URLs or - (stdin)',
      load: () => import('../../cli/commands/uninject.js'),
    },
    { name: 'uninstall', summary: 'Output Kubernetes resources to uninstall Linkerd control plane', load: () => import('../../cli/commands/uninstall.js') },
    {
      name: 'upgrade',
      summary: 'Output Kubernetes configs to upgrade an existing Linkerd control plane',
      load: () => import('../../cli/commands/upgrade.js'),
    },
    { name: 'version', summary: 'Print the client and server version information', load: () => import('../../cli/commands/version.js') },
  ],
  completions: {
    namespaces: async (ctx: CompletionContext) => (await sources()).namespaces(ctx),
    contexts: async (ctx: CompletionContext) => (await sources()).contexts(ctx),
    checkSelectors: async () => (await sources()).checkSelectors(),
  },
  charts: CORE_CHARTS,
};
