import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildOverrides,
  composeValues,
  defaultValues,
  mergeNonEmpty,
  mergeValues,
  parseValuesYaml,
  readValuesFiles,
  validateValues,
} from '../../../src/core/values/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/values/${name}`, import.meta.url));
const readFile = (path: string) => readFileSync(path, 'utf8');

describe('mergeValues (Helm semantics)', () => {
  it('merges maps key by key, recursively', () => {
    expect(mergeValues({ a: { b: 1, c: 2 }, d: 3 }, { a: { c: 9, e: 4 } })).toEqual({ a: { b: 1, c: 9, e: 4 }, d: 3 });
  });

  it('replaces lists whole', () => {
    expect(mergeValues({ l: [1, 2, 3] }, { l: [9] })).toEqual({ l: [9] });
  });

  it('replaces scalars, and maps replace scalars and vice versa', () => {
    expect(mergeValues({ a: 1, b: { x: 1 } }, { a: { y: 2 }, b: 'flat' })).toEqual({ a: { y: 2 }, b: 'flat' });
  });

  it('deletes a key overlaid with null', () => {
    expect(mergeValues({ a: { b: 1, c: 2 } }, { a: { b: null } })).toEqual({ a: { c: 2 } });
  });

  it('drops nulls for keys the base never had', () => {
    expect(mergeValues({}, { a: { b: null, c: 1 } })).toEqual({ a: { c: 1 } });
  });

  it('lets later overlays win, combining them first like several -f files', () => {
    expect(mergeValues({ a: 0 }, { a: 1, b: 1 }, { a: 2 })).toEqual({ a: 2, b: 1 });
    // Helm combines `-f` files before coalescing: a later map replaces an earlier null.
    expect(mergeValues({ m: { x: 1, y: 2 } }, { m: null }, { m: { z: 3 } })).toEqual({ m: { x: 1, y: 2, z: 3 } });
  });

  it('never mutates its inputs', () => {
    const base = { a: { b: 1 } };
    const over = { a: { b: 2 } };
    mergeValues(base, over);
    expect(base).toEqual({ a: { b: 1 } });
    expect(over).toEqual({ a: { b: 2 } });
  });

  it('treats __proto__ as an ordinary key', () => {
    const over = JSON.parse('{"__proto__": {"polluted": true}}');
    const out = mergeValues({}, over);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mergeNonEmpty (values-ha.yaml merge)', () => {
  it('lets non-empty overlay values win and empty strings only fill gaps', () => {
    expect(mergeNonEmpty({ r: { limit: '1', request: '' } }, { r: { limit: '', request: '100m' }, n: '' })).toEqual({
      r: { limit: '1', request: '100m' },
      n: '',
    });
  });
});

describe('readValuesFiles', () => {
  it('parses each file in order, keeping its path', async () => {
    const files = await readValuesFiles([fixture('custom.yaml'), fixture('later.yaml')]);
    expect(files.map((f) => f.values.controllerReplicas)).toEqual([2, 4]);
    expect(files[0].path).toBe(fixture('custom.yaml'));
  });

  it('reads an empty file as no values', async () => {
    expect((await readValuesFiles([fixture('empty.yaml')]))[0].values).toEqual({});
  });

  it('reports malformed YAML as FILE:LINE:COL: reason', async () => {
    await expect(readValuesFiles(['values.yaml'], () => readFile(fixture('malformed.yaml')))).rejects.toThrow(
      /^values\.yaml:3:\d+: bad indentation of a mapping entry$/,
    );
  });

  it('rejects a file that is not a map', async () => {
    await expect(readValuesFiles([fixture('list.yaml')])).rejects.toThrow(/a values file must contain a map of values, not a list/);
  });

  it('reports a missing file like the Go CLI', async () => {
    await expect(readValuesFiles(['/no/such/values.yaml'])).rejects.toThrow('open /no/such/values.yaml: no such file or directory');
  });

  it('accepts an injected reader (for URLs)', async () => {
    const files = await readValuesFiles(['https://example.test/v.yaml'], async (url) => `clusterDomain: ${new URL(url).hostname}\n`);
    expect(files[0].values).toEqual({ clusterDomain: 'example.test' });
  });
});

describe('validateValues', () => {
  const d = defaultValues();

  it('returns typed values when everything fits', () => {
    expect(validateValues(d, 'values.yaml')).toEqual(d);
  });

  it('rejects unknown keys with their dotted path', () => {
    const bad = mergeValues(d, parseValuesYaml(readFile(fixture('unknown-key.yaml')), 'values.yaml'));
    expect(() => validateValues(bad, 'values.yaml')).toThrow('values.yaml: proxy.logLevle: unknown key');
  });

  it('rejects unknown top-level keys', () => {
    expect(() => validateValues({ ...d, global: {} }, '--set')).toThrow('--set: global: unknown key');
  });

  it('rejects wrong types with expected and actual type', () => {
    const bad = mergeValues(d, { proxy: { ports: { admin: '4191' } } });
    expect(() => validateValues(bad, '--set')).toThrow('--set: proxy.ports.admin: expected number, got string');
  });

  it('names list indices and keys with dots in the path', () => {
    expect(() => validateValues(mergeValues(d, { imagePullSecrets: [{ name: 1 }, { nam: 'x' }] }), 'v.yaml')).toThrow(
      /^v\.yaml: imagePullSecrets\[1\]\.nam: unknown key/,
    );
    expect(() => validateValues(mergeValues(d, { nodeSelector: { 'kubernetes.io/os': {} } }), 'v.yaml')).toThrow(
      'v.yaml: nodeSelector["kubernetes.io/os"]: expected string, got map',
    );
  });

  it('reports enum mismatches with the allowed values', () => {
    expect(() => validateValues(mergeValues(d, { webhookFailurePolicy: 'Sometimes' }), 'x')).toThrow(
      'x: webhookFailurePolicy: expected one of: Ignore, Fail (got "Sometimes")',
    );
  });

  it('reports a missing required key', () => {
    expect(() => validateValues(mergeValues(d, { proxy: { logLevel: null } }), '--set')).toThrow('--set: proxy.logLevel: expected string, got nothing');
  });

  it('accepts numbers where the chart takes strings, as Helm would render them', () => {
    const v = validateValues(mergeValues(d, { proxy: { opaquePorts: 3306, resources: { cpu: { limit: 2 } } } }), '--set');
    expect(v.proxy.opaquePorts).toBe('3306');
    expect(v.proxy.resources.cpu.limit).toBe('2');
  });

  it('keeps to one line and counts further problems', () => {
    const bad = mergeValues(d, { foo: 1, bar: 2 });
    expect(() => validateValues(bad, 'x')).toThrow('x: foo: unknown key (also: bar)');
    const twoIssues = mergeValues(d, { foo: 1, proxy: { uid: 'x' } });
    expect(() => validateValues(twoIssues, 'x')).toThrow(/\(and 1 more problem\)$/);
  });
});

describe('buildOverrides', () => {
  it('combines -f files then --set, --set-string and --set-file into one map', () => {
    const overrides = buildOverrides({
      valuesFiles: [
        { path: 'a.yaml', values: { a: 1, l: ['x', 'y'] } },
        { path: 'b.yaml', values: { a: 2 } },
      ],
      set: ['l[1]=z', 'n=1'],
      setString: ['n=2', 's=true'],
      setFile: [`f=${fixture('note.txt')}`],
      readFile,
    });
    expect(overrides).toEqual({ a: 2, l: ['x', 'z'], n: '2', s: 'true', f: 'line one\nline two, with a comma\n' });
  });

  it('keeps nulls so they delete keys from the values', () => {
    expect(buildOverrides({ set: ['proxy.cores=null'] })).toEqual({ proxy: { cores: null } });
  });
});

describe('composeValues precedence: defaults < flags < -f files < --set < --set-string < --set-file', () => {
  const base = defaultValues();
  const files = [
    { path: 'custom.yaml', values: parseValuesYaml(readFile(fixture('custom.yaml')), 'custom.yaml') },
    { path: 'later.yaml', values: parseValuesYaml(readFile(fixture('later.yaml')), 'later.yaml') },
  ];

  it('applies a values file over the defaults, merging maps and replacing lists', () => {
    const { values } = composeValues({ base, valuesFiles: files.slice(0, 1) });
    expect(values.controllerReplicas).toBe(2);
    expect(values.proxy.resources.cpu).toEqual({ limit: '', request: '200m' });
    expect(values.proxy.ports.admin).toBe(4191);
    expect(values.policyController.probeNetworks).toEqual(['10.0.0.0/8']);
    expect(values.podAnnotations).toEqual({ team: 'mesh' });
  });

  it('lets a later -f file win over an earlier one', () => {
    const { values } = composeValues({ base, valuesFiles: files });
    expect(values.controllerReplicas).toBe(4);
    expect(values.proxy.resources.cpu.request).toBe('200m');
    expect(values.proxy.resources.memory.limit).toBe('128Mi');
  });

  it('lets --set beat -f files', () => {
    const { values } = composeValues({ base, valuesFiles: files, set: ['controllerReplicas=5'] });
    expect(values.controllerReplicas).toBe(5);
  });

  it('lets --set-string beat --set, and --set-file beat --set-string', () => {
    const { values } = composeValues({
      base,
      set: ['proxy.logLevel=debug'],
      setString: ['proxy.logLevel=trace', 'clusterDomain=a.b'],
      setFile: [`clusterDomain=${fixture('note.txt')}`],
      readFile,
    });
    expect(values.proxy.logLevel).toBe('trace');
    expect(values.clusterDomain).toBe('line one\nline two, with a comma\n');
  });

  it('lets flags beat defaults but --set beat flags', () => {
    const flagged = composeValues({ base, flags: [{ name: 'controller-replicas', value: '2' }] });
    expect(flagged.values.controllerReplicas).toBe(2);
    const overridden = composeValues({
      base,
      flags: [{ name: 'controller-replicas', value: '2' }],
      set: ['controllerReplicas=7'],
    });
    expect(overridden.values.controllerReplicas).toBe(7);
  });

  it('lets -f files beat --ha', () => {
    const { values } = composeValues({ base, flags: [{ name: 'ha', value: true }], valuesFiles: files.slice(0, 1) });
    expect(values.controllerReplicas).toBe(2);
    expect(values.webhookFailurePolicy).toBe('Fail');
  });

  it('deletes a default through null in a values file', () => {
    const nulls = parseValuesYaml(readFile(fixture('nulls.yaml')), 'nulls.yaml');
    const { values } = composeValues({ base, valuesFiles: [{ path: 'nulls.yaml', values: nulls }] });
    expect(values.nodeSelector).toEqual({});
  });

  it('returns the overrides map for checks like proxyInit.runAsRoot', () => {
    const { overrides } = composeValues({ base, set: ['proxyInit.runAsRoot=true'] });
    expect(overrides).toEqual({ proxyInit: { runAsRoot: true } });
  });

  it('names the -f file that brings an unknown key', () => {
    const bad = { path: 'unknown-key.yaml', values: parseValuesYaml(readFile(fixture('unknown-key.yaml')), 'x') };
    expect(() => composeValues({ base, valuesFiles: [files[0], bad] })).toThrow('unknown-key.yaml: proxy.logLevle: unknown key');
  });

  it('names --set-string when it puts a string where a number belongs', () => {
    expect(() => composeValues({ base, setString: ['proxy.ports.admin=4191'] })).toThrow('--set-string: proxy.ports.admin: expected number, got string');
  });

  it('names a values file with a wrongly typed value', () => {
    const bad = { path: 'wrong-type.yaml', values: parseValuesYaml(readFile(fixture('wrong-type.yaml')), 'x') };
    expect(() => composeValues({ base, valuesFiles: [bad] })).toThrow('wrong-type.yaml: proxy.ports.admin: expected number, got string');
  });
});

describe('-f values-ha.yaml (Helm users)', () => {
  it('is accepted as is, anchors included, and matches --ha where they overlap', async () => {
    const [file] = await readValuesFiles([fixture('values-ha.yaml')]);
    const viaFile = composeValues({ base: defaultValues(), valuesFiles: [file] }).values;
    const viaFlag = composeValues({ base: defaultValues(), flags: [{ name: 'ha', value: true }] }).values;
    expect(viaFile.destinationResources?.memory).toEqual({ limit: '250Mi', request: '50Mi' });
    expect(viaFile.spValidatorResources?.cpu?.request).toBe('100m');
    for (const key of ['controllerReplicas', 'webhookFailurePolicy', 'enablePodAntiAffinity', 'enablePodDisruptionBudget', 'deploymentStrategy'] as const) {
      expect(viaFile[key]).toEqual(viaFlag[key]);
    }
    expect(viaFile.proxy.resources).toEqual(viaFlag.proxy.resources);
    expect(viaFile.identityResources?.memory).toEqual(viaFlag.identityResources?.memory);
  });
});
