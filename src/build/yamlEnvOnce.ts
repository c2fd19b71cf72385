import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/*
 * The `yaml` library looks up a debugging switch in process.env for every token it parses
 * (LOG_TOKENS in the parser) and composes (LOG_STREAM). A process.env lookup is a call into node
 * (about 0.2 µs), and inject at 10,000 workloads parses 2.5 million tokens: about half a second,
 * a tenth of the run. In the bundle each switch is read once, when the module loads (and, in the
 * start-up snapshot, again when a run starts), and kept: setting it still works, changing it
 * halfway through a run no longer does.
 */

const SWITCHES = /\bnode_process\.env\.(LOG_TOKENS|LOG_STREAM)\b/g;
const FILES = /[\\/]node_modules[\\/]yaml[\\/]dist[\\/](?:parse[\\/]parser|compose[\\/]composer)\.js$/;

export const yamlEnvOnce: Plugin = {
  name: 'yaml-env-once',
  setup(build) {
    build.onLoad({ filter: FILES }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const names = new Set<string>();
      const contents = source.replace(SWITCHES, (_, name: string) => {
        names.add(name);
        return `__yamlEnv_${name}`;
      });
      // A newer yaml that reads them elsewhere must not go unnoticed: the saving would be gone.
      if (names.size === 0) throw new Error(`${path}: no per-token process.env switch found (see src/build/yamlEnvOnce.ts)`);
      const vars = [...names].map((n) => `__yamlEnv_${n} = process.env.${n};`);
      // In the start-up snapshot the module was loaded at build time: read again when a run starts.
      const prelude = [
        `var ${vars.join(' var ')}`,
        `(function () { var s = require('v8').startupSnapshot; if (s && s.isBuildingSnapshot()) s.addDeserializeCallback(function () { ${vars.join(' ')} }); })();`,
      ].join('\n');
      return { contents: `${prelude}\n${contents}`, loader: 'js' };
    });
  },
};
