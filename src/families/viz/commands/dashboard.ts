import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { asInt } from '../../../core/values/flagValues.js';
import { parseWait } from './shared.js';

const DashboardOptions = z.object({ address: z.string(), port: z.union([z.string(), z.number()]), show: z.string(), wait: z.string() });

/** What `--show` opens: the URL and its name in the real messages. */
const OPENS = { linkerd: ['Linkerd', 'webUrl'], grafana: ['Grafana', 'grafanaUrl'] } as const;

export const command: CommandBody = {
  flags: [
    { name: 'address', type: 'string', default: 'localhost', help: 'The address at which to serve requests' },
    { name: 'port', short: 'p', type: 'int', default: 50750, help: 'The local port on which to serve requests (when set to 0, a random port will be used)' },
    { name: 'show', type: 'string', default: 'linkerd', help: 'Open a dashboard in a browser or show URLs in the CLI (one of: linkerd, grafana, url)' },
    { name: 'wait', type: 'duration', default: '5m0s', help: "Wait for dashboard to become available if it's not available when the command is run" },
  ],
  run: async ({ flags, globals, io }) => {
    const o = DashboardOptions.parse(flags);
    const port = asInt({ name: 'port', short: 'p' }, String(o.port));
    const [{ openDashboard, validateDashboard }, { onInterrupt }, { openBrowser }] = await Promise.all([
      import('../dashboard.js'),
      import('../../../core/onInterrupt.js'),
      import('../../../core/net/openBrowser.js'),
    ]);
    const show = validateDashboard(port, o.show);
    const dashboard = await openDashboard({
      cluster: globals,
      env: io.env,
      address: o.address,
      port,
      show,
      waitMs: parseWait(o.wait),
      onWaiting: () => io.stderr.write('Waiting for linkerd-viz extension to become available\n'),
    });
    // Ctrl-C closes the forward, and the process ends as the signal ends it (exit 130).
    const release = onInterrupt(() => dashboard.close());
    io.stdout.write(`Linkerd dashboard available at:\n${dashboard.webUrl}\nGrafana dashboard available at:\n${dashboard.grafanaUrl}\n`);
    if (show !== 'url') {
      const [name, key] = OPENS[show];
      io.stdout.write(`Opening ${name} dashboard in the default browser\n`);
      if (!(await openBrowser(dashboard[key], io.env))) {
        io.stderr.write(`Failed to open ${name} dashboard automatically\nVisit ${dashboard[key]} in your browser to view the dashboard\n`);
      }
    }
    await dashboard.listener.closed;
    release();
  },
};
