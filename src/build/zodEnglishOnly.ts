import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/*
 * zod exports every message locale (`z.locales.fr`, …) from one namespace object, which a
 * bundler cannot leave out: 260 KB, half the JavaScript `version --client` and `--help` load.
 * The CLI only ever speaks English (zod registers `en` itself), so the bundle's locale index
 * keeps `en` alone; `z.locales.xx` other than `en` is undefined in the bundle.
 */

const INDEX = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;

export const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: INDEX }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      // A zod that moved or renamed its English locale must not go unnoticed.
      if (!/export \{ default as en \} from "\.\/en\.js";/.test(source)) throw new Error(`${path}: no English locale export (see src/build/zodEnglishOnly.ts)`);
      return { contents: 'export { default as en } from "./en.js";\n', loader: 'js' };
    });
  },
};
