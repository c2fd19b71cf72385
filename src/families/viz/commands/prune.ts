import * as z from 'zod';
import { addHelmValueFlags, HelmValueOptions } from '../../../cli/flags/helmValues.js';
import { addValueFlags, readSetFlags } from '../../../cli/flags/valueFlags.js';
import type { CommandBody } from '../../../cli/kit/command.js';
import { renderStubs } from '../../../cli/output/stubs.js';
import { notesText } from '../../../cli/output/sanitize.js';
import { vizChart, type VizFlagSet } from '../chart/chart.js';
import { parseWait, stubFormat, WAIT_FLAG } from './shared.js';

const FLAG_SETS: readonly VizFlagSet[] = ['install'];
const PruneOptions = HelmValueOptions.extend({ wait: z.string(), output: z.string() });

export const command: CommandBody = {
  long: 'Output extraneous Kubernetes resources in the linkerd-viz extension.',
  examples: '  # Prune extraneous resources.\n  linkerd viz prune | kubectl delete -f -',
  configure: (cmd) => {
    addValueFlags(cmd, vizChart, FLAG_SETS);
    addHelmValueFlags(cmd);
  },
  flags: [WAIT_FLAG, { name: 'output', short: 'o', type: 'string', default: 'yaml', help: 'Output format. One of: json|yaml' }],
  run: async ({ flags, globals, io, command: cmd }) => {
    const opts = PruneOptions.parse(flags);
    const format = stubFormat(opts.output);
    const { vizPrune } = await import('../lifecycle.js');
    const result = await vizPrune({
      linkerdNamespace: globals.linkerdNamespace,
      cluster: globals,
      waitMs: parseWait(opts.wait),
      inputs: {
        flags: readSetFlags(cmd, vizChart, FLAG_SETS, io.env),
        valuesFiles: opts.values,
        set: opts.set,
        setString: opts.setString,
        setFile: opts.setFile,
      },
      env: io.env,
      onWaiting: () => io.stderr.write('Waiting for control plane to become available\n'),
    });
    io.stderr.write(notesText(result.notes));
    io.stdout.write(renderStubs(result.objects, format));
  },
};
