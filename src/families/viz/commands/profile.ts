import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { LINKERD_CONFIG } from '../../../core/mesh/names.js';
import { parseGoDuration } from '../../../core/parse/goDuration.js';
import { invalidArgument } from '../../../core/parse/invalidArgument.js';

const ProfileOptions = z.object({
  tap: z.string().optional(),
  tapDuration: z.string(),
  tapRouteLimit: z.string(),
  namespace: z.string().optional(),
  output: z.string(),
  vizNamespace: z.string().optional(),
});

const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS_1123_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** apimachinery's IsDNS1035Label / IsDNS1123Label messages, as Go prints the slice. */
function labelErrors(value: string, re: RegExp, msg: string): string | undefined {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!re.test(value)) errs.push(msg);
  return errs.length ? `[${errs.join(' ')}]` : undefined;
}

export const command: CommandBody = {
  long: 'Output service profile config for Kubernetes based off tap data.',
  args: [{ name: 'SERVICE', help: 'The service to profile', required: true }],
  use: '[flags] --tap resource (SERVICE)',
  examples: `  # Generate a profile by watching live traffic.
  linkerd viz profile -n emojivoto web-svc --tap deploy/web --tap-duration 10s --tap-route-limit 5
`,
  flags: [
    { name: 'tap', type: 'string', help: 'Output a service profile based on tap data for the given target resource' },
    { name: 'tap-duration', type: 'duration', default: '5s', help: 'Duration over which tap data is collected (for example: "10s", "1m", "10m")' },
    { name: 'tap-route-limit', type: 'uint', default: '20', help: 'Max number of routes to add to the profile' },
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace of the service', completion: 'namespaces' },
    { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: yaml, json' },
  ],
  run: async ({ args, flags, globals, io }) => {
    const o = ProfileOptions.parse(flags);
    const name = String(args[0]);
    let durationNs: bigint;
    try {
      durationNs = parseGoDuration(o.tapDuration);
    } catch (e) {
      throw invalidArgument(o.tapDuration, 'tap-duration', (e as Error).message);
    }
    if (!/^\d+$/.test(o.tapRouteLimit))
      throw invalidArgument(o.tapRouteLimit, 'tap-route-limit', `strconv.ParseUint: parsing "${o.tapRouteLimit}": invalid syntax`);
    const limit = Number(o.tapRouteLimit);
    if (o.output !== 'yaml' && o.output !== 'json') throw new UserError('output format must be one of yaml or json');
    if (!o.tap) throw new UserError('The --tap flag must be specified');

    const [{ connectKube }, { startTap }, profile, { readLinkerdConfig }] = await Promise.all([
      import('../../../core/kube/kubeClient.js'),
      import('../tap/session.js'),
      import('../tap/profile.js'),
      import('../../../core/kube/linkerdConfig.js'),
    ]);
    const client = await connectKube(globals, { env: io.env });
    let namespace: string;
    let clusterDomain = 'cluster.local';
    try {
      namespace = o.namespace || client.namespace;
      const badService = labelErrors(name, DNS_1035, DNS_1035_MSG);
      if (badService) throw new UserError(`invalid service "${name}": ${badService}`);
      const badNamespace = labelErrors(namespace, DNS_1123, DNS_1123_MSG);
      if (badNamespace) throw new UserError(`invalid namespace "${namespace}": ${badNamespace}`);
      const values = await readLinkerdConfig(client, globals.linkerdNamespace);
      if (values === undefined) throw new UserError(`configmaps "${LINKERD_CONFIG}" not found`);
      if (typeof values.clusterDomain === 'string' && values.clusterDomain) clusterDomain = values.clusterDomain;
    } finally {
      client.close();
    }

    const tap = await startTap(globals, { resource: o.tap, namespace, maxRps: 0, vizNamespace: o.vizNamespace || undefined }, io.env);
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        tap.stream.close();
      },
      Math.min(Number(durationNs / 1_000_000n), 2 ** 31 - 1),
    );
    try {
      const routes = await profile.collectRoutes(
        tap.stream.events,
        limit,
        (m) => io.stderr.write(`${m}\n`),
        () => timedOut,
      );
      const sp = profile.serviceProfile(name, namespace, clusterDomain, routes);
      io.stdout.write(o.output === 'json' ? profile.profileJson(sp) : profile.profileYaml(sp));
    } finally {
      clearTimeout(timer);
      tap.close();
    }
  },
};
