import type { CommandBody } from '../../cli/kit/command.js';
import { install } from './commands/install.js';
import { allowCommand } from './commands/allow.js';
import { checkCommand } from './commands/check.js';
import { gatewaysCommand } from './commands/gateways.js';
import { linkCommand } from './commands/link.js';
import { linkGenCommand } from './commands/linkGen.js';
import { uninstallCommand } from './commands/uninstall.js';
import { unlinkCommand } from './commands/unlink.js';

/*
 * `linkerd multicluster`: its subcommands as data, in the real registration order. Each
 * subcommand imports what it runs (renderers, cluster reads) only when it runs.
 */

export const command: CommandBody = {
  long: 'Manages the multicluster setup for Linkerd.\n\nThis command provides subcommands to manage the multicluster support functionality of Linkerd. You can use it to install the service mirror components on a cluster, manage credentials and link clusters together.',
  examples:
    '  # Install multicluster addons.\n  linkerd --context=cluster-a multicluster install | kubectl --context=cluster-a apply -f -\n\n  # Extract mirroring cluster credentials from cluster A and install them on cluster B\n  linkerd --context=cluster-a multicluster link --cluster-name=target | kubectl apply --context=cluster-b -f -',
  subcommands: [linkCommand, unlinkCommand, linkGenCommand, install, checkCommand, uninstallCommand, gatewaysCommand, allowCommand],
};
