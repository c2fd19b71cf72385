import type { CommandBody } from '../../cli/kit/command.js';
import { endpoints } from './endpointsCommand.js';
import { controllerMetrics, proxyMetrics } from './metricsCommands.js';
import { policy } from './policyCommand.js';
import { profile } from './profileCommand.js';

/*
 * `linkerd diagnostics`: no action of its own (help), its subcommands in the real registration
 * order. Each subcommand loads what it needs when it runs.
 */
export const command: CommandBody = {
  long: 'Commands used to diagnose Linkerd components.\n\nThis command provides subcommands to diagnose the functionality of Linkerd.',
  examples:
    '  # Get control-plane component metrics\n  linkerd diagnostics controller-metrics\n\n  # Get metrics from the web deployment in the emojivoto namespace.\n  linkerd diagnostics proxy-metrics -n emojivoto deploy/web',
  subcommands: [controllerMetrics, endpoints, proxyMetrics, policy, profile],
};
