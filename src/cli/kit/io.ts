/*
 * The streams and environment a command works with, passed down from main: the process's own in
 * the launcher, buffers in tests that run the CLI in-process. Command code writes here, never to
 * process.stdout directly.
 */

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

/**
 * The process's own streams and environment, each looked up when first used: node creates
 * `process.stdin` on first access, and that loads fs streams, fs/promises and readline (about
 * 10 ms) for a run that never reads it (`version`, `--help`, `install`).
 */
export function processIo(): CliIo {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    get env() {
      return process.env;
    },
  };
}
