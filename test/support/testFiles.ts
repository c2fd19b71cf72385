import fs from 'node:fs';
import os from 'node:os';

/** Private keys written by tests are readable by their owner only, like the keys the CLI writes. */
export function writeTestFile(file: string, content: string | Uint8Array): string {
  const secret = Buffer.from(content).includes('PRIVATE KEY');
  fs.writeFileSync(file, content, { mode: secret ? 0o600 : 0o644 });
  if (secret) fs.chmodSync(file, 0o600);
  return file;
}

/**
 * The machine's temp directory, for caches a test keeps on purpose between runs (downloaded
 * packages); everything else goes in os.tmpdir(), which is the test file's own and must end empty.
 */
export function machineTmpdir(): string {
  return process.env.LINKERD_TS_MACHINE_TMPDIR ?? os.tmpdir();
}
