import * as z from 'zod';
import { clientVersion } from '../../core/version.js';
import type { CommandBody } from '../kit/command.js';
import { terminalText } from '../output/sanitize.js';

const VersionOptionsSchema = z.object({
  client: z.boolean(),
  short: z.boolean(),
  proxy: z.boolean(),
  namespace: z.string().optional(),
});

export const command: CommandBody = {
  flags: [
    { name: 'client', type: 'bool', default: false, help: 'Print the client version only' },
    { name: 'short', type: 'bool', default: false, help: 'Print the version number(s) only, with no additional output' },
    { name: 'proxy', type: 'bool', default: false, help: 'Print data-plane versions' },
    { name: 'namespace', short: 'n', type: 'string', help: 'Namespace to use for --proxy versions (default: all namespaces)', completion: 'namespaces' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = VersionOptionsSchema.parse(flags);
    const client = clientVersion(io.env);
    // The client's own version is printed before the cluster is asked (a credential plugin may be slow).
    io.stdout.write(`${opts.short ? client : `Client version: ${client}`}\n`);
    if (opts.client) return;
    const out: string[] = [];
    const { readVersions } = await import('../../core/kube/versions.js');
    const v = await readVersions(globals, { proxy: opts.proxy, namespace: opts.namespace });
    // The server's and the pods' words reach a terminal: made safe for it.
    const server = terminalText(v.server);
    out.push(opts.short ? server : `Server version: ${server}`);
    // Like the real CLI's debug log: with --verbose, say why the server did not answer.
    if (globals.verbose && v.serverUnavailable) io.stderr.write(`Server version unavailable: ${terminalText(v.serverUnavailable)}\n`);
    if (opts.proxy) {
      if (v.proxies === undefined) out.push(opts.short ? 'unavailable' : 'Proxy versions: unavailable');
      else {
        if (!opts.short) out.push('Proxy versions:');
        for (const [ver, n] of v.proxies) out.push(opts.short ? terminalText(ver) : `\t${terminalText(ver)} (${n} pods)`);
      }
    }
    io.stdout.write(out.join('\n') + '\n');
  },
};
