import type { Command } from 'commander';
import * as z from 'zod';
import { clientVersion } from '../../core/version.js';
import { resolveGlobals } from '../globals.js';
import { terminalText } from '../output/sanitize.js';

const VersionOptionsSchema = z.object({
  client: z.boolean(),
  short: z.boolean(),
  proxy: z.boolean(),
  namespace: z.string().optional(),
});

export function register(program: Command): Command {
  return program
    .command('version')
    .description('Print the client and server version information')
    .option('--client', 'Print the client version only', false)
    .option('--short', 'Print the version number(s) only, with no additional output', false)
    .option('--proxy', 'Print data-plane versions', false)
    .option('-n, --namespace <ns>', 'Namespace to use for --proxy versions (default: all namespaces)')
    .action(async (flags: unknown) => {
      const opts = VersionOptionsSchema.parse(flags);
      const client = clientVersion();
      // The client's own version is printed before the cluster is asked (a credential plugin may be slow).
      process.stdout.write(`${opts.short ? client : `Client version: ${client}`}\n`);
      const out: string[] = [];
      if (!opts.client) {
        const globals = resolveGlobals(program);
        const { readVersions } = await import('../../core/kube/versions.js');
        const v = await readVersions(globals, { proxy: opts.proxy, namespace: opts.namespace });
        // The server's and the pods' words reach a terminal: made safe for it.
        const server = terminalText(v.server);
        out.push(opts.short ? server : `Server version: ${server}`);
        // Like the real CLI's debug log: with --verbose, say why the server did not answer.
        if (globals.verbose && v.serverUnavailable) process.stderr.write(`Server version unavailable: ${terminalText(v.serverUnavailable)}\n`);
        if (opts.proxy) {
          if (v.proxies === undefined) out.push(opts.short ? 'unavailable' : 'Proxy versions: unavailable');
          else {
            if (!opts.short) out.push('Proxy versions:');
            for (const [ver, n] of v.proxies) out.push(opts.short ? terminalText(ver) : `\t${terminalText(ver)} (${n} pods)`);
          }
        }
      }
      if (out.length > 0) process.stdout.write(out.join('\n') + '\n');
    });
}
