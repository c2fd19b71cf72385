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

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}
