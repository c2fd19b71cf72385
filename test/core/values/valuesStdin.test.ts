import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeValues, defaultValues, readValuesFiles } from '../../../src/core/values/index.js';
import { valuesReader } from '../../../src/core/values/valuesFiles.js';

/** A reader whose stdin is `text`, counting how often stdin is read. */
function withStdin(text: string) {
  const state = { reads: 0 };
  const reader = valuesReader({
    stdin: async () => {
      state.reads++;
      return new TextEncoder().encode(text);
    },
  });
  return { reader, state };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'l5d-values-stdin-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('-f -: values from standard input', () => {
  it('reads all of stdin once and names it <stdin>', async () => {
    const { reader, state } = withStdin('controllerReplicas: 3\ncontrollerLogLevel: debug\n');
    expect(await readValuesFiles(['-'], reader)).toEqual([
      { path: '<stdin>', values: { controllerReplicas: 3, controllerLogLevel: 'debug' }, text: 'controllerReplicas: 3\ncontrollerLogLevel: debug\n' },
    ]);
    expect(state.reads).toBe(1);
  });

  it('reads empty stdin as no values, and drops a UTF-8 byte-order mark', async () => {
    expect((await readValuesFiles(['-'], withStdin('').reader))[0].values).toEqual({});
    expect((await readValuesFiles(['-'], withStdin('\ufeffcontrollerReplicas: 2\n').reader))[0].values).toEqual({ controllerReplicas: 2 });
  });

  it('takes its place among local files: later -f wins, --set wins over all', async () => {
    const local = join(dir, 'local.yaml');
    writeFileSync(local, 'controllerReplicas: 7\ncontrollerLogLevel: trace\n');
    const compose = async (args: string[], set: string[] = []) =>
      composeValues({ base: defaultValues(), valuesFiles: await readValuesFiles(args, withStdin('controllerReplicas: 3\n').reader), set }).values;
    expect((await compose([local, '-'])).controllerReplicas).toBe(3);
    expect((await compose(['-', local])).controllerReplicas).toBe(7);
    const overridden = await compose(['-', local], ['controllerReplicas=9']);
    expect([overridden.controllerReplicas, overridden.controllerLogLevel]).toEqual([9, 'trace']);
  });

  it('refuses a second -f - before reading anything, naming the flag', async () => {
    const { reader, state } = withStdin('controllerReplicas: 3\n');
    await expect(readValuesFiles(['-', 'other.yaml', '-'], reader)).rejects.toThrow(/^-f -: standard input can be read only once, but -f - was given 2 times$/);
    expect(state.reads).toBe(0);
  });

  it('reports malformed YAML as <stdin>:LINE:COL: reason, and a non-map as <stdin>', async () => {
    await expect(readValuesFiles(['-'], withStdin('proxy:\n  logLevel: info\n   ports: 4191\n').reader)).rejects.toThrow(
      /^<stdin>:3:\d+: bad indentation of a mapping entry$/,
    );
    await expect(readValuesFiles(['-'], withStdin('- a\n- b\n').reader)).rejects.toThrow(/^<stdin>: a values file must contain a map of values, not a list$/);
  });

  it('names <stdin> when its values fail validation', async () => {
    const files = await readValuesFiles(['-'], withStdin('proxy:\n  logLevle: debug\n').reader);
    expect(() => composeValues({ base: defaultValues(), valuesFiles: files })).toThrow(/^<stdin>:2:3: proxy\.logLevle: unknown key$/);
  });

  it('still reads a file called "./-" as a file', async () => {
    const { reader, state } = withStdin('controllerReplicas: 3\n');
    await expect(readValuesFiles(['./-'], reader)).rejects.toThrow('open ./-: no such file or directory');
    expect(state.reads).toBe(0);
  });
});
