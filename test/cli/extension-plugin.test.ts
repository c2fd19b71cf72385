import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/* `linkerd foo` runs `linkerd-foo` from PATH: its streams and its exit code pass through. */

let dir: string;
const env = () => ({ PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}` });

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-ext-'));
  fs.writeFileSync(path.join(dir, 'linkerd-foo'), '#!/bin/sh\necho "out $*"\necho err >&2\nexit "${1:-0}"\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'linkerd-killed'), '#!/bin/sh\nkill -TERM $$\n', { mode: 0o755 });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('extensions on PATH', () => {
  it('pass their exit code through: linkerd-foo exiting 3 makes linkerd foo exit 3', async () => {
    expect(await runCli(['foo', '3'], { env: env() })).toEqual({ code: 3, stdout: 'out 3\n', stderr: 'err\n' });
    expect((await runCli(['foo', '0'], { env: env() })).code).toBe(0);
  });

  it('one ended by a signal exits 128 + its number, as a shell reports it', async () => {
    expect((await runCli(['killed'], { env: env() })).code).toBe(128 + os.constants.signals.SIGTERM);
  });
});
