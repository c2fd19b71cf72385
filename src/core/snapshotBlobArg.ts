/** The V8 start-up snapshot file this process started from (`--snapshot-blob FILE` or `=FILE`), if any. */
export function snapshotBlobArg(execArgv: readonly string[] = process.execArgv): string | undefined {
  const i = execArgv.indexOf('--snapshot-blob');
  if (i >= 0) return execArgv[i + 1];
  return execArgv.find((a) => a.startsWith('--snapshot-blob='))?.slice('--snapshot-blob='.length);
}
