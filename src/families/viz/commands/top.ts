import type { CommandBody } from '../../../cli/kit/command.js';
import { SELECTOR_FLAG, TAP_FILTER_FLAGS, TAP_RESOURCE_ARG, TARGETS_HELP, tapParams } from '../tap/flags.js';

const EXAMPLES = `  # display traffic for the web deployment in the default namespace
  linkerd viz top deploy/web

  # display traffic for the web-dlbvj pod in the default namespace
  linkerd viz top pod/web-dlbvj`;

export const command: CommandBody = {
  long: `Display sorted information about live traffic.\n\n${TARGETS_HELP.replace('%VERB%', 'view traffic for')}`,
  args: [TAP_RESOURCE_ARG],
  arity: { min: 1, max: 2 },
  use: '[flags] (RESOURCE)',
  examples: EXAMPLES,
  flags: [
    ...TAP_FILTER_FLAGS,
    { name: 'hide-sources', type: 'bool', default: false, help: 'Hide the source column' },
    { name: 'routes', type: 'bool', default: false, help: 'Display data per route instead of per path' },
    SELECTOR_FLAG,
  ],
  run: async ({ args, flags, globals, io }) => {
    const params = tapParams(args, flags);
    const [{ startTap }, { TopTable }, { openTerminal, runTopScreen }] = await Promise.all([
      import('../tap/session.js'),
      import('../tap/topTable.js'),
      import('../tap/topScreen.js'),
    ]);
    const table = new TopTable({ hideSources: flags.hideSources === true, routes: flags.routes === true });
    const tap = await startTap(globals, params, io.env);
    try {
      const term = openTerminal();
      try {
        const after = await runTopScreen(term, table, tap.stream.events, () => tap.stream.close());
        if (after !== undefined) io.stdout.write(`${after}\n`);
      } finally {
        term.close();
      }
    } finally {
      tap.close();
    }
  },
};
