/*
 * The V8 start-up snapshot's entry (built by src/build/bundle.ts, started by bin/linkerd).
 *
 * `node --build-snapshot` runs this file once at build time: it loads the CLI and the modules
 * `install` and `version` need, renders one install so their functions are compiled, and the
 * heap is saved. A run then starts from that heap instead of loading and compiling ~1 MB of
 * JavaScript (x509, zod, js-yaml, the templates). Nothing here may read the environment, the
 * terminal or the clock into module state: that would be frozen at build time. Terminal
 * libraries (chalk, ora) are therefore not loaded here; they load when a command asks.
 */
import path from 'node:path';
import { startupSnapshot } from 'node:v8';
import { renderInstall } from '../core/install/index.js';
import { snapshotBlobArg } from '../core/snapshotBlobArg.js';
import { CNI_NAME } from '../core/mesh/names.js';
import { setPackageLoader } from '../core/kube/clientNode.js';
import { buildProgram, main } from './main.js';
import { command as install } from './commands/install.js';
import { command as version } from './commands/version.js';
import { addCommand } from './kit/command.js';
import { processIo, type CliIo } from './kit/io.js';
import { renderManifest } from './output/manifest.js';

async function warmUp(): Promise<void> {
  // The streams are looked up only if written, which the warm-up never does: the snapshot must
  // not hold the build's stdin/stdout.
  const io: CliIo = {
    get stdout() {
      return processIo().stdout;
    },
    get stderr() {
      return processIo().stderr;
    },
    get stdin() {
      return processIo().stdin;
    },
    get env() {
      return processIo().env;
    },
  };
  const session = { io, exitCode: 0, globals: () => ({ linkerdNamespace: 'linkerd', cniNamespace: CNI_NAME, asGroup: [], verbose: false }) };
  const program = buildProgram(session);
  addCommand(program, { ...install, name: 'install', summary: '' }, session);
  addCommand(program, { ...version, name: 'version', summary: '' }, session);
  const { objects } = await renderInstall({ namespace: 'linkerd', crds: false, flags: [], valuesFiles: [], set: [], setString: [], setFile: [] });
  renderManifest(objects, 'yaml');
  renderManifest(objects, 'json');
}

startupSnapshot.setDeserializeMainFunction(() => {
  // Packages outside the snapshot are required from the project the snapshot file lives in.
  const blob = snapshotBlobArg(process.execArgv);
  if (blob) {
    // node:module is fetched now, not imported: it is not meant to be in a snapshot.
    const requireFromProject = process.getBuiltinModule('node:module').createRequire(path.resolve(blob));
    setPackageLoader((specifier) => Promise.resolve<unknown>(requireFromProject(specifier)));
  }
  // A snapshot's argv has no script: [node, ...arguments].
  void main([process.execPath, 'linkerd', ...process.argv.slice(1)]);
});

warmUp().catch((e: unknown) => {
  process.exitCode = 1;
  throw e;
});
