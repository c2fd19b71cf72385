import { UserError } from '../../../core/errors.js';
import type { OverrideSources } from '../../../core/values/index.js';
import { renderLinkChart } from '../link-chart/render.js';
import { composeLinkChartValues } from '../link-chart/values.js';
import { LINK_GEN_DEFAULTS, type LinkGenOptions, type LinkGenReads } from './input.js';
import { linkGen } from './linkGen.js';

/*
 * The deprecated `linkerd multicluster link`: link-gen's reads and objects (with capitalised
 * messages, see messages.ts), plus flags of its own that it checks after the cluster reads, and
 * the rendered linkerd-multicluster-link chart after the Link. `unlink` undoes it.
 */

export const LINK_DEPRECATION = 'please use `multicluster link-gen` instead.';

/** The flags only `link` has. */
export interface DeprecatedLinkOptions {
  controlPlaneVersion: string;
  serviceMirrorRetryLimit: number;
  logLevel: string;
  logFormat: string;
  registry: string;
  ha: boolean;
}

const LOG_LEVELS = ['panic', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'];
const LOG_FORMATS = ['plain', 'json'];

/** `link`'s own checks, in its order, in its words; undefined when the flags are acceptable. */
export function linkOptionProblem(options: LinkGenOptions, own: DeprecatedLinkOptions): string | undefined {
  if (!/^[.a-zA-Z0-9-]+$/.test(own.controlPlaneVersion)) return `${own.controlPlaneVersion} is not a valid version`;
  if (!options.namespace) return 'you need to specify a namespace';
  if (!LOG_LEVELS.includes(own.logLevel)) return `--log-level must be one of: ${LOG_LEVELS.join(', ')}`;
  if (!LOG_FORMATS.includes(own.logFormat)) return `--log-format must be one of: ${LOG_FORMATS.join(', ')}`;
  if (!options.gateway) {
    // A selector equal to the default (or empty) is not something the user asked for.
    if (options.selector && options.selector !== LINK_GEN_DEFAULTS.selector) return '--selector and --gateway=false are mutually exclusive';
    if (options.gatewayAddresses) return '--gateway-addresses and --gateway=false are mutually exclusive';
    if (options.gatewayPort) return '--gateway-port and --gateway=false are mutually exclusive';
  }
  return undefined;
}

export function assertLinkOptions(options: LinkGenOptions, own: DeprecatedLinkOptions): void {
  const problem = linkOptionProblem(options, own);
  if (problem) throw new UserError(problem);
}

/**
 * Everything the deprecated `link` prints, in its order: link-gen's two Secrets and Link (its
 * messages capitalised), then the link chart's service mirror for this Link in `--namespace`.
 * Its own flags are checked once the reads are done, as the real command checks them.
 */
export function deprecatedLinkOutput(reads: LinkGenReads, options: LinkGenOptions, own: DeprecatedLinkOptions, overrides: OverrideSources = {}): object[] {
  const objects = linkGen(reads, options, 'link');
  assertLinkOptions(options, own);
  const values = composeLinkChartValues(options.cliVersion, { clusterName: options.clusterName, gateway: options.gateway, ...own }, overrides);
  return [...objects, ...renderLinkChart(values, { namespace: options.namespace, releaseService: 'CLI' })];
}
