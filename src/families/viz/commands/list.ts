import * as z from 'zod';
import type { CommandBody } from '../../../cli/kit/command.js';
import { terminalText } from '../../../cli/output/sanitize.js';
import type { TapList } from '../tapList.js';

const ListOptions = z.object({ namespace: z.string().optional(), allNamespaces: z.boolean() });

const SECTIONS: ReadonlyArray<[keyof TapList, string]> = [
  ['enabled', 'Pods with tap enabled:'],
  ['disabled', 'Pods with tap disabled:'],
  ['missing', 'Pods missing tap configuration (restart these pods to enable tap):'],
];

/** The real command's text: a header per non-empty group, a `\t* ns/pod` line per pod. */
export function tapListText(list: TapList): string {
  const lines = SECTIONS.flatMap(([key, header]) => (list[key].length ? [header, ...list[key].map((p) => `\t* ${terminalText(p)}`)] : []));
  return `${(lines.length ? lines : ['No meshed pods found']).join('\n')}\n`;
}

export const command: CommandBody = {
  flags: [
    { name: 'namespace', short: 'n', type: 'string', help: 'The namespace to list pods in', completion: 'namespaces' },
    { name: 'all-namespaces', short: 'A', type: 'bool', default: false, help: 'If present, list pods across all namespaces' },
  ],
  run: async ({ flags, globals, io }) => {
    const opts = ListOptions.parse(flags);
    const { listTapPods } = await import('../tapList.js');
    const list = await listTapPods(
      { cluster: globals, controlPlaneNamespace: globals.linkerdNamespace, namespace: opts.namespace, allNamespaces: opts.allNamespaces },
      io.env,
    );
    io.stdout.write(tapListText(list));
  },
};
