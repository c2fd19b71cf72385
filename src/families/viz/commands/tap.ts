import type { CommandBody } from '../../../cli/kit/command.js';
import { UserError } from '../../../core/errors.js';
import { SELECTOR_FLAG, TAP_FILTER_FLAGS, TAP_RESOURCE_ARG, TARGETS_HELP, tapParams } from '../tap/flags.js';

const EXAMPLES = `  # tap the web deployment in the default namespace
  linkerd viz tap deploy/web

  # tap the web-dlbvj pod in the default namespace
  linkerd viz tap pod/web-dlbvj

  # tap the test namespace, filter by request to prod namespace
  linkerd viz tap ns/test --to ns/prod`;

export const command: CommandBody = {
  long: `Listen to a traffic stream.\n\n${TARGETS_HELP.replace('%VERB%', 'tap')}`,
  args: [TAP_RESOURCE_ARG],
  arity: { min: 1, max: 2 },
  use: '[flags] (RESOURCE)',
  examples: EXAMPLES,
  flags: [
    ...TAP_FILTER_FLAGS,
    { name: 'output', short: 'o', type: 'string', default: '', help: 'Output format. One of: "wide", "json", "jsonpath"' },
    SELECTOR_FLAG,
  ],
  run: async ({ args, flags, globals, io }) => {
    const params = tapParams(args, flags);
    const output = typeof flags.output === 'string' ? flags.output : '';
    if (output !== '' && output !== 'wide' && output !== 'json' && !output.startsWith('jsonpath'))
      throw new UserError(`validation error when executing tap command: output format "${output}" not recognized`);
    const render = await import('../tap/render.js');
    let line: (e: Parameters<typeof render.tapLine>[0]) => string;
    if (output === 'wide') line = render.tapLineWide;
    else if (output === 'json') line = render.tapLineJson;
    else if (output.startsWith('jsonpath')) {
      try {
        line = render.jsonPathRenderer(output);
      } catch (e) {
        throw UserError.verbatim(`${(e as Error).message}\n`);
      }
    } else line = render.tapLine;
    const { startTap, printEvents } = await import('../tap/session.js');
    const tap = await startTap(globals, { ...params, extract: output === 'json' }, io.env);
    try {
      return await printEvents(tap.stream.events, line, io.stdout, io.stderr);
    } finally {
      tap.close();
    }
  },
};
