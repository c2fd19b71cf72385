import type { Command } from 'commander';
import * as z from 'zod';
import { collect } from './collect.js';

/*
 * Helm's value options (`-f/--values`, `--set`, `--set-string`, `--set-file`), on install and
 * upgrade (linkerd's pkg/flags.AddValueOptionsFlags): `-f` a StringSlice, the `--set` family StringArrays.
 */

export function addHelmValueFlags(cmd: Command): Command {
  return cmd
    .option('-f, --values <strings>', 'Specify values in a YAML file or a URL, or - for standard input (can specify multiple)', collect, [])
    .option('--set <stringArray>', 'Set values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)', collect, [])
    .option(
      '--set-string <stringArray>',
      'Set STRING values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)',
      collect,
      [],
    )
    .option(
      '--set-file <stringArray>',
      'Set values from respective files specified via the command line (can specify multiple or separate values with commas: key1=path1,key2=path2)',
      collect,
      [],
    );
}

/** The four flags as commander hands them over. */
export const HelmValueOptions = z.object({
  values: z.array(z.string()),
  set: z.array(z.string()),
  setString: z.array(z.string()),
  setFile: z.array(z.string()),
});

/** `-o, --output`; checked by manifestFormat, which names the flag in its error. */
export const OutputOption = z.object({ output: z.string() });
