import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import * as z from 'zod';
import { describe, expect, it, onTestFinished } from 'vitest';
import { addValueFlags, readSetFlags } from '../../../src/cli/flags/valueFlags.js';
import {
  applyChartFlags,
  asBool,
  asInt,
  composeChartInputs,
  composeChartValues,
  deprecationWarnings,
  flagsOf,
  type Chart,
  type ChartInfo,
} from '../../../src/core/values/chart.js';
import { CORE_CHARTS } from '../../../src/core/values/charts.js';

/*
 * A family's chart, declared here and nowhere else: its own schema, defaults, flag sets and a
 * template typed on its values. Everything below goes through the same engine as the control plane.
 */

const TinySchema = z.strictObject({
  greeting: z.string(),
  replicas: z.number().int().min(1),
  debug: z.boolean(),
  labels: z.record(z.string(), z.string()),
});
type Tiny = z.infer<typeof TinySchema>;

interface TinyContext {
  namespace: string;
}

interface TinyTemplates {
  configMap: (values: Tiny, ctx: TinyContext) => { apiVersion: string; kind: string; metadata: object; data: Record<string, string> }[];
}

const tinyChart: Chart<Tiny, 'install' | 'debug', undefined, TinyTemplates> = {
  name: 'tiny',
  schema: TinySchema,
  defaults: () => ({ greeting: 'hello', replicas: 1, debug: false, labels: { app: 'tiny' } }),
  flagSets: {
    install: [
      {
        name: 'replicas',
        kind: 'int',
        unsigned: true,
        default: 1,
        help: 'Replicas of tiny',
        apply(v, x) {
          v.replicas = asInt(this, x);
        },
      },
      {
        name: 'shout',
        kind: 'bool',
        default: false,
        help: 'Greet loudly',
        deprecated: 'use --set greeting=HELLO instead',
        apply(v, x) {
          if (asBool(this, x)) v.greeting = v.greeting.toUpperCase();
        },
      },
    ],
    debug: [
      {
        name: 'debug',
        kind: 'bool',
        default: false,
        help: 'Debug tiny',
        apply(v, x) {
          v.debug = asBool(this, x);
        },
      },
    ],
  },
  templates: async () => ({
    configMap: (v, ctx) => [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tiny', namespace: ctx.namespace }, data: { greeting: v.greeting } }],
  }),
};

const base = tinyChart.defaults();

describe('a second chart through the same engine', () => {
  it('takes --set of its own key, typed as Helm types it', () => {
    const { values, overrides } = composeChartValues(tinyChart, { base, set: ['greeting=hi,replicas=3'] });
    expect(values).toEqual({ greeting: 'hi', replicas: 3, debug: false, labels: { app: 'tiny' } });
    expect(overrides).toEqual({ greeting: 'hi', replicas: 3 });
  });

  it('merges -f files in order, maps key by key, and lets --set win', () => {
    const { values } = composeChartValues(tinyChart, {
      base,
      valuesFiles: [
        { path: 'one.yaml', values: { greeting: 'one', labels: { team: 'a' } } },
        { path: 'two.yaml', values: { greeting: 'two', labels: { tier: 'web' } } },
      ],
      set: ['labels.team=b'],
      setString: ['greeting=3'],
    });
    expect(values).toEqual({ greeting: '3', replicas: 1, debug: false, labels: { app: 'tiny', team: 'b', tier: 'web' } });
  });

  it('names its own key, and the layer that set it, when validation fails', () => {
    expect(() => composeChartValues(tinyChart, { base, set: ['replicas=0'] })).toThrow('--set: replicas: must be >= 1 (got 0)');
    expect(() => composeChartValues(tinyChart, { base, valuesFiles: [{ path: 'typo.yaml', values: { greetin: 'x' } }] })).toThrow(
      'typo.yaml: greetin: unknown key',
    );
    // A key of another chart is no key of this one.
    expect(() => composeChartValues(tinyChart, { base, set: ['controllerReplicas=2'] })).toThrow('--set: controllerReplicas: unknown key');
  });

  it('applies its flags in its own order and names the flag when a value breaks its schema', () => {
    const flags = [
      { name: 'debug', value: 'true' },
      { name: 'replicas', value: '4' },
    ];
    expect(applyChartFlags(tinyChart, base, flags)).toEqual({ ...base, debug: true, replicas: 4 });
    expect(() => composeChartValues(tinyChart, { base, flags: [{ name: 'replicas', value: '0' }] })).toThrow(
      'invalid argument "0" for "--replicas" flag: must be >= 1 (got 0)',
    );
    expect(() => applyChartFlags(tinyChart, base, [{ name: 'debug', value: 'maybe' }])).toThrow(
      'invalid argument "maybe" for "--debug" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(deprecationWarnings(tinyChart, [{ name: 'shout', value: true }])).toEqual(['Flag --shout has been deprecated, use --set greeting=HELLO instead']);
    // Flags compose with overrides: flags first, then --set.
    expect(composeChartValues(tinyChart, { base, flags: [{ name: 'shout', value: true }], set: ['replicas=2'] }).values).toMatchObject({
      greeting: 'HELLO',
      replicas: 2,
    });
  });

  it('gives a command the flag sets it asks for, on the command line', () => {
    const cmd = new Command('tiny').exitOverride();
    addValueFlags(cmd, tinyChart, ['install'], { release: true });
    cmd.parse(['--replicas', '2'], { from: 'user' });
    expect(cmd.helpInformation()).toContain('--replicas <uint>'); // an unsigned flag, named as pflag names a Go uint
    expect(cmd.helpInformation()).not.toContain('--debug');
    expect(readSetFlags(cmd, tinyChart, ['install'], {})).toEqual([{ name: 'replicas', value: '2' }]);
    expect(flagsOf(tinyChart, ['debug', 'install']).map((f) => f.name)).toEqual(['replicas', 'shout', 'debug']);
  });

  it('reads -f files and --set-file from disk, and renders its templates with its values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiny-chart-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'values.yaml'), 'greeting: from-file\nlabels:\n  team: a\n');
    writeFileSync(join(dir, 'greeting.txt'), 'from --set-file');
    const { values } = await composeChartInputs(tinyChart, { valuesFiles: [join(dir, 'values.yaml')], flags: [{ name: 'replicas', value: '2' }] });
    expect(values).toEqual({ greeting: 'from-file', replicas: 2, debug: false, labels: { app: 'tiny', team: 'a' } });
    const withFile = await composeChartInputs(tinyChart, { setFile: [`greeting=${join(dir, 'greeting.txt')}`] });
    const { configMap } = await tinyChart.templates();
    expect(configMap(withFile.values, { namespace: 'tiny-ns' })).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tiny', namespace: 'tiny-ns' }, data: { greeting: 'from --set-file' } },
    ]);
    await expect(composeChartInputs(tinyChart, { valuesFiles: [join(dir, 'missing.yaml')] })).rejects.toThrow(/missing\.yaml/);
  });

  it('types its templates on its own values (checked by the typecheck)', () => {
    // @ts-expect-error a template taking another chart's values does not fit this chart
    const wrong: Chart<Tiny, 'install', undefined, { t: (values: { other: number }, ctx: TinyContext) => unknown[] }> = {
      ...tinyChart,
      templates: async () => ({ t: () => [] }),
    };
    expect(wrong.name).toBe('tiny');
  });

  it('refuses a flag declared in two of its sets (a programming error)', () => {
    const twice: typeof tinyChart = { ...tinyChart, flagSets: { install: tinyChart.flagSets.install, debug: tinyChart.flagSets.install } };
    expect(() => flagsOf(twice, ['install'])).toThrow('tiny: a value flag is declared twice');
    expect(() => applyChartFlags(twice, base, [])).toThrow('tiny: a value flag is declared twice');
  });

  it('fits the family registry whatever its values type', async () => {
    const entry = { name: 'tiny', load: async (): Promise<ChartInfo> => tinyChart };
    expect(Object.keys((await entry.load()).flagSets)).toEqual(['install', 'debug']);
  });
});

describe('the core family’s charts', () => {
  it('load by name: the control plane with its four flag sets, the CRDs with none, sharing one schema', async () => {
    const [controlPlane, crds] = await Promise.all(CORE_CHARTS.map((c) => c.load()));
    expect(CORE_CHARTS.map((c) => c.name)).toEqual([controlPlane!.name, crds!.name]);
    expect(Object.keys(controlPlane!.flagSets)).toEqual(['installOnly', 'installUpgrade', 'proxy', 'inject']);
    expect(crds!.flagSets).toEqual({});
    expect(crds!.schema).toBe(controlPlane!.schema);
    expect(crds!.defaults()).toEqual(controlPlane!.defaults());
  });
});
