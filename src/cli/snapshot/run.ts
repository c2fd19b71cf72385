/*
 * What every V8 start-up snapshot's entry shares (start.ts, render.ts; built by
 * src/build/bundle.ts, started by bin/linkerd).
 *
 * `node --build-snapshot` runs an entry once at build time: it loads the modules of the commands
 * it holds and runs each of them once, into a sink, so their functions are compiled; the heap is
 * then saved, and a run starts from it instead of loading and compiling JavaScript. Nothing may
 * read the environment, the terminal or the clock into module state: it would be frozen at build
 * time. Terminal libraries (chalk, ora) are therefore not loaded; they load when a command asks.
 *
 * A snapshot holds only its own commands: the build replaces every other command module a family
 * declares with a marker (`notInSnapshot`). When a run needs one — a command routed to no
 * snapshot, `help`, completion — the whole run is handed to the ES-module bundle before anything
 * is parsed or printed, so one run never mixes the two.
 */
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { startupSnapshot } from 'node:v8';
import { setPackageLoader } from '../../core/kube/clientNode.js';
import { snapshotBlobArg } from '../../core/snapshotBlobArg.js';
import type { CommandBody } from '../kit/command.js';
import type { CliIo } from '../kit/io.js';
import { loadersFor, main, runLinkerd } from '../main.js';

/** What the build puts in place of a command module the snapshot does not hold. */
interface Marker {
  notInSnapshot?: boolean;
}

/** Whether every command module a run of `args` loads is in this snapshot (loading them is what dispatch does next). */
async function holds(args: readonly string[]): Promise<boolean> {
  const modules = await Promise.all(loadersFor(args).map((l) => l.load()));
  return modules.every((m) => (m as Marker).notInSnapshot !== true);
}

/** Sets what a run started from this snapshot does. */
export function startFromSnapshot(): void {
  startupSnapshot.setDeserializeMainFunction(() => {
    // A snapshot's argv has no script: [node, ...arguments].
    const argv = [process.execPath, 'linkerd', ...process.argv.slice(1)];
    const blob = snapshotBlobArg(process.execArgv);
    if (!blob) {
      void main(argv);
      return;
    }
    // Packages outside the snapshot, and the bundle, are required from the project the blob lives
    // in (dist/snapshot/); node:module is fetched now, not imported: it is not meant to be in a snapshot.
    const requireFromProject = process.getBuiltinModule('node:module').createRequire(path.resolve(blob));
    setPackageLoader((specifier) => Promise.resolve<unknown>(requireFromProject(specifier)));
    void holds(argv.slice(2)).then(
      (held) => (held ? main(argv) : (requireFromProject('../bundle/main.js') as { main: typeof main }).main(argv)),
      // A module that fails to load fails the same way in main, which reports it.
      () => main(argv),
    );
  });
}

/** Streams that discard what is written, and an empty environment: nothing of the build's process. */
function sinkIo(): CliIo {
  const sink = () => Object.assign(new Writable({ write: (_chunk, _enc, done) => done() }), { isTTY: false }) as unknown as NodeJS.WriteStream;
  return { stdout: sink(), stderr: sink(), stdin: Readable.from([]) as unknown as NodeJS.ReadStream, env: {} };
}

/**
 * Runs each of `runs` (the CLI's arguments) once, in turn, at build time; a run that fails fails
 * the build of this snapshot (the blob is then not made, and bin/linkerd loads the bundle).
 * `held` are the command modules the entry imports, so that the snapshot holds them (the build
 * keeps the families' loaders of exactly those); one that did not load fails the build too.
 */
export function warmUp(held: readonly CommandBody[], runs: readonly (readonly string[])[], done: () => void = () => {}): void {
  void (async () => {
    try {
      if (held.some((c) => typeof c !== 'object')) throw new Error("a command module the snapshot's entry imports has no command");
      for (const args of runs) {
        const io = sinkIo();
        let errors = '';
        io.stderr.write = (chunk: string | Uint8Array) => ((errors += String(chunk)), true);
        const code = await runLinkerd(args, io);
        if (code !== 0) throw new Error(`the snapshot's warm-up run \`linkerd ${args.join(' ')}\` exited ${code}: ${errors}`);
      }
    } finally {
      done();
    }
  })().catch((e: unknown) => {
    process.exitCode = 1;
    throw e;
  });
}
