import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { LinkerdConfigError, linkerdConfigValuesOrEmpty, parseLinkerdConfigValues } from '../../../src/core/kube/linkerdConfig.js';

/* The one parser of linkerd-config's values: a typed failure whose reason each caller words in its own context. */

const cm = (values?: string): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'linkerd-config' },
  data: values === undefined ? {} : { values },
});

function failure(f: () => unknown): LinkerdConfigError {
  try {
    f();
  } catch (e) {
    if (e instanceof LinkerdConfigError) return e;
    throw e;
  }
  throw new Error('did not fail');
}

describe('parseLinkerdConfigValues', () => {
  it('gives the values as a plain object, and none for empty values', () => {
    expect(parseLinkerdConfigValues(cm('linkerdVersion: edge-1\n'))).toEqual({ linkerdVersion: 'edge-1' });
    expect(parseLinkerdConfigValues(cm('  \n'))).toEqual({});
  });

  it.each([
    ['no-values', undefined, 'no values', 'linkerd-config configmap does not contain values'],
    ['not-a-mapping', '- a\n', 'not a mapping', 'failed to parse linkerd-config values: not a mapping'],
    [
      'too-large',
      'x: ' + 'a'.repeat(16 * 1024 * 1024),
      'values: larger than the 16 MiB limit for values files',
      'failed to parse linkerd-config values: values: larger than the 16 MiB limit for values files',
    ],
  ] as const)('refuses %s with a typed failure (its reason, and the default message)', (problem, values, reason, message) => {
    const e = failure(() => parseLinkerdConfigValues(cm(values)));
    expect([e.problem, e.reason, e.message]).toEqual([problem, reason, message]);
  });

  it('names a YAML error by its first line', () => {
    const e = failure(() => parseLinkerdConfigValues(cm('a: [\n')));
    expect(e.problem).toBe('unparsable');
    expect(e.message).toBe(`failed to parse linkerd-config values: ${e.reason}`);
    expect(e.reason).not.toContain('\n');
  });
});

describe('linkerdConfigValuesOrEmpty (check)', () => {
  it('reads a ConfigMap without values as empty values, and bounds the rest like the one parser', () => {
    expect(linkerdConfigValuesOrEmpty(cm())).toEqual({});
    expect(failure(() => linkerdConfigValuesOrEmpty(cm('x: ' + 'a'.repeat(16 * 1024 * 1024)))).problem).toBe('too-large');
  });
});
