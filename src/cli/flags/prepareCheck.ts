import * as z from 'zod';
import { DEFAULT_TIMEOUT_MS, DEFAULT_VERSIONCHECK_TIMEOUT_MS, VERSIONCHECK_URL, type CheckRequest } from '../../core/check/runCheck.js';
import { parseSelection } from '../../core/check/selection.js';
import type { CheckMode } from '../../core/check/types.js';
import { UserError } from '../../core/errors.js';
import type { KubeObject } from '../../core/kube/resources.js';
import { formatGoDuration, parseGoDuration, validityMs } from '../../core/parse/goDuration.js';
import { invalidArgument } from '../../core/parse/invalidArgument.js';
import { clientVersion } from '../../core/version.js';
import type { GlobalOptions } from '../globals.js';

/*
 * `linkerd check`'s flags → the CheckRequest core runs: the real CLI's validation messages, the
 * deadlines, the environment's versioncheck settings and the flags forwarded to extensions.
 */

export const OUTPUT_FORMATS = ['table', 'json', 'short', 'junit'] as const;
export type CheckOutput = (typeof OUTPUT_FORMATS)[number];

const isCheckOutput = (s: string): s is CheckOutput => (OUTPUT_FORMATS as readonly string[]).includes(s);

/** The `check` flags as commander hands them over. */
export const CheckFlagsSchema = z.object({
  expectedVersion: z.string().optional(),
  cliVersionOverride: z.string().optional(),
  output: z.string().default('table'),
  wait: z.string().default('5m0s'),
  timeout: z.string().default('30s'),
  linkerdCniEnabled: z.boolean().default(false),
  namespace: z.string().optional(),
  pre: z.boolean().default(false),
  crds: z.boolean().default(false),
  proxy: z.boolean().default(false),
  skip: z.array(z.string()).default([]),
  only: z.array(z.string()).default([]),
  failOn: z.string().default('error'),
  certMinValidity: z.string().optional(),
  list: z.boolean().default(false),
});
export type CheckFlags = z.infer<typeof CheckFlagsSchema>;

const validation = (message: string) => new UserError(`Validation error when executing check command: ${message}`);

function durationMs(flag: string, value: string): number {
  try {
    const ns = parseGoDuration(value);
    if (ns < 0n) throw new UserError(`negative duration ${JSON.stringify(value)}`);
    return Number(ns / 1_000_000n);
  } catch (e) {
    throw invalidArgument(value, flag, (e as Error).message);
  }
}

/** `30d`, `720h`, `1d12h`: a certificate validity, read as every validity flag is. */
export function parseValidity(flag: string, value: string): number {
  const ms = validityMs(flag, value);
  if (ms < 0) throw invalidArgument(value, flag, `negative duration ${JSON.stringify(value)}`);
  return ms;
}

export interface PreparedCheck {
  request: CheckRequest;
  output: CheckOutput;
  list: boolean;
}

/** Validate the flags (the real CLI's messages) and turn them into a request for runCheck. */
export function prepareCheck(
  raw: unknown,
  globals: GlobalOptions,
  o: {
    env: NodeJS.ProcessEnv;
    installObjects?: () => Promise<KubeObject[]>;
    /** Whether `--skip`/`--only` may name this check id (default: the core checks'). */
    knownCheckId?: (id: string) => boolean;
  },
): PreparedCheck {
  const flags = CheckFlagsSchema.parse(raw);
  if (flags.pre && flags.proxy) throw validation('--pre and --proxy flags are mutually exclusive');
  if (flags.pre && flags.crds) throw validation('--pre and --crds flags are mutually exclusive');
  if (flags.crds && flags.proxy) throw validation('--crds and --proxy flags are mutually exclusive');
  if (!flags.pre && flags.linkerdCniEnabled) throw validation('--linkerd-cni-enabled can only be used with --pre');
  const output = flags.output;
  if (!isCheckOutput(output)) {
    throw validation(`Invalid output type '${output}'. Supported output types are: json, table, short, junit`);
  }
  if (flags.failOn !== 'error' && flags.failOn !== 'warning') throw validation(`--fail-on must be "error" or "warning", not "${flags.failOn}"`);

  const mode: CheckMode = flags.pre ? 'pre' : flags.crds ? 'crds' : flags.proxy ? 'proxy' : 'default';
  const waitMs = durationMs('wait', flags.wait);
  const timeoutMs = durationMs('timeout', flags.timeout) || DEFAULT_TIMEOUT_MS;
  const cliVersion = flags.cliVersionOverride || clientVersion(o.env);
  const versionTimeout = o.env.LINKERD_VERSIONCHECK_TIMEOUT
    ? durationMs('LINKERD_VERSIONCHECK_TIMEOUT', o.env.LINKERD_VERSIONCHECK_TIMEOUT)
    : DEFAULT_VERSIONCHECK_TIMEOUT_MS;

  // What the real CLI forwards to extensions (non-empty values only), plus --output=json.
  const forwardFlags = [
    ...(globals.apiAddr ? [`--api-addr=${globals.apiAddr}`] : []),
    ...(globals.context ? [`--context=${globals.context}`] : []),
    ...(globals.as ? [`--as=${globals.as}`] : []),
    ...globals.asGroup.map((g) => `--as-group=${g}`),
    ...(globals.kubeconfig ? [`--kubeconfig=${globals.kubeconfig}`] : []),
    `--linkerd-namespace=${globals.linkerdNamespace}`,
    `--verbose=${globals.verbose}`,
    ...(flags.namespace ? [`--namespace=${flags.namespace}`] : []),
    `--proxy=${flags.proxy}`,
    `--wait=${formatGoDuration(BigInt(waitMs) * 1_000_000n)}`,
  ];

  const request: CheckRequest = {
    mode,
    kube: { kubeconfig: globals.kubeconfig, context: globals.context, as: globals.as, asGroup: globals.asGroup },
    controlPlaneNamespace: globals.linkerdNamespace,
    apiAddr: globals.apiAddr,
    dataPlaneNamespace: flags.namespace || undefined,
    cliVersion,
    expectedVersion: flags.expectedVersion || undefined,
    versionCheck: { url: o.env.LINKERD_VERSIONCHECK_URL || VERSIONCHECK_URL, timeoutMs: versionTimeout },
    timeoutMs,
    waitMs,
    families: {
      core: {
        cniNamespace: globals.cniNamespace,
        cniEnabled: flags.linkerdCniEnabled,
        certMinValidityMs: flags.certMinValidity ? parseValidity('cert-min-validity', flags.certMinValidity) : undefined,
        installObjects: o.installObjects,
      },
    },
    selection: parseSelection(flags.skip, flags.only, o.knownCheckId),
    failOn: flags.failOn,
    extensions: { path: o.env.PATH ?? '', forwardFlags, timeoutMs: waitMs + timeoutMs },
    env: o.env,
  };
  return { request, output, list: flags.list };
}
