import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { parseValuesYaml } from '../../../src/core/values/valuesFiles.js';
import { runCli } from '../../support/cli.js';

function failure(text: string, accepts?: string): { message: string; hint: string | undefined } {
  try {
    parseValuesYaml(text, 'v.yaml', accepts);
  } catch (e) {
    if (e instanceof UserError) return { message: e.message, hint: e.hint };
    throw e;
  }
  throw new Error('parsed');
}

describe('a values file that is not one map', () => {
  it('several documents: the line of the second one, never 0:0, and what the flag takes', () => {
    expect(failure('a: 1\n---\nb: 2\n')).toEqual({
      message: 'v.yaml:2:1: expected a single document in the stream, but found more',
      hint: 'a values file is one YAML document: a map of chart values (as `helm show values` prints them)',
    });
    expect(failure('# leading\n---\na: 1\n\n---\nb: 2\n').message).toBe('v.yaml:5:1: expected a single document in the stream, but found more');
  });

  it('a list says what is expected', () => {
    expect(failure('- 1\n', 'X takes a map')).toEqual({ message: 'v.yaml: a values file must contain a map of values, not a list', hint: 'X takes a map' });
  });

  it('inject --values says it takes chart values or linkerd-config', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-values-'));
    const file = path.join(dir, 'two.yaml');
    fs.writeFileSync(file, 'a: 1\n---\nb: 2\n');
    const r = await runCli(['inject', '--values', file, 'fixtures/manifests/shop.yaml']).finally(() => fs.rmSync(dir, { recursive: true }));
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `Error: ${file}:2:1: expected a single document in the stream, but found more\n--values takes one YAML document: a map of chart values, or the linkerd-config ConfigMap (kubectl get cm linkerd-config -n linkerd -o yaml)\n`,
    );
  });
});

describe('a values file with a YAML syntax error', () => {
  it('names file:line:col and says what the flag takes', () => {
    expect(failure('a: [\n')).toEqual({
      message: 'v.yaml:2:1: unexpected end of the stream within a flow collection',
      hint: 'a values file is one YAML document: a map of chart values (as `helm show values` prints them)',
    });
    expect(failure('a:\n  b: 1\n c: 2\n', 'X takes a map').hint).toBe('X takes a map');
  });
});
