import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';

/*
 * What `linkerd viz` shows before any cluster is read: cobra's usage lines and argument errors of
 * the real commands, the persistent `--viz-namespace` of `viz`, and the deprecated root aliases'
 * line, printed before flags are parsed.
 */

const run = (args: string[]) => runCli(args, { env: { HOME: '/nonexistent' } });
const usageLine = (text: string) => /\nUsage:\n {2}(.*)\n/.exec(`\n${text}`)?.[1];

describe('viz usage lines and argument counts, as the real CLI', () => {
  it.each([
    ['tap', 'linkerd viz tap [flags] (RESOURCE)'],
    ['top', 'linkerd viz top [flags] (RESOURCE)'],
    ['stat', 'linkerd viz stat [flags] (RESOURCES)'],
    ['edges', 'linkerd viz edges [flags] (RESOURCETYPE)'],
    ['routes', 'linkerd viz routes [flags] (RESOURCES)'],
    ['profile', 'linkerd viz profile [flags] --tap resource (SERVICE)'],
    ['authz', 'linkerd viz authz [flags] resource'],
    ['stat-inbound', 'linkerd viz stat-inbound [flags] (RESOURCE)'],
    ['stat-outbound', 'linkerd viz stat-outbound [flags] (RESOURCE)'],
  ])('%s --help shows the Use line %s', async (cmd, line) => {
    const r = await run(['viz', cmd, '--help']);
    expect([r.code, usageLine(r.stdout)]).toEqual([0, line]);
  });

  it('tap and top take one or two words (cobra.RangeArgs(1, 2)), with the usage after the error', async () => {
    for (const cmd of ['tap', 'top']) {
      const none = await run(['viz', cmd]);
      expect([none.code, none.stdout]).toEqual([1, '']);
      expect(none.stderr).toMatch(
        new RegExp(`^Error: accepts between 1 and 2 arg\\(s\\), received 0\\nUsage:\\n  linkerd viz ${cmd} \\[flags\\] \\(RESOURCE\\)\\n`),
      );
    }
  });

  it('stat, authz, stat-inbound and stat-outbound need a word (cobra.MinimumNArgs(1)) and print the usage, as routes and edges do', async () => {
    for (const [cmd, use] of [
      ['stat', '[flags] (RESOURCES)'],
      ['authz', '[flags] resource'],
      ['stat-inbound', '[flags] (RESOURCE)'],
      ['stat-outbound', '[flags] (RESOURCE)'],
    ] as const) {
      const r = await run(['viz', cmd]);
      expect([cmd, r.code, r.stdout]).toEqual([cmd, 1, '']);
      expect(r.stderr.startsWith(`Error: requires at least 1 arg(s), only received 0\nUsage:\n  linkerd viz ${cmd} ${use}\n`)).toBe(true);
      expect(r.stderr).toContain('\nFlags:\n');
    }
  });
});

describe('viz --viz-namespace, a persistent flag of viz', () => {
  it('viz --help lists it among its own flags; a subcommand among the global ones, not its own', async () => {
    const viz = await run(['viz', '--help']);
    const [, local = '', global = ''] = /\nFlags:\n([\s\S]*?)\n\nGlobal Flags:\n([\s\S]*)$/.exec(viz.stdout) ?? [];
    expect(local).toContain("      --viz-namespace string   Name of the linkerd-viz namespace. If not set, it's automatically detected");
    expect(global).not.toContain('--viz-namespace');
    for (const cmd of ['stat', 'tap', 'check']) {
      const help = (await run(['viz', cmd, '--help'])).stdout;
      const [, own = '', inherited = ''] = /\nFlags:\n([\s\S]*?)\n\nGlobal Flags:\n([\s\S]*)$/.exec(help) ?? [];
      expect([cmd, own.includes('--viz-namespace'), inherited.includes('--viz-namespace string')]).toEqual([cmd, false, true]);
    }
  });

  it.each([
    ['install', '--ignore-cluster'],
    ['uninstall', '--help'],
    ['prune', '--help'],
    ['list', '--help'],
    ['allow-scrapes', '--help'],
    ['check', '--help'],
    ['stat', '--help'],
    ['top', '--help'],
    ['tap', '--help'],
    ['edges', '--help'],
    ['routes', '--help'],
    ['authz', '--help'],
    ['profile', '--help'],
    ['dashboard', '--help'],
    ['stat-inbound', '--help'],
    ['stat-outbound', '--help'],
  ])('viz %s accepts it, before or after the subcommand', async (cmd, rest) => {
    for (const args of [
      ['viz', cmd, '--viz-namespace', 'my-viz', rest],
      ['viz', '--viz-namespace=my-viz', cmd, rest],
    ]) {
      const r = await run(args);
      expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 0, '']);
    }
  });

  it('is not a flag of the deprecated root aliases (their parent is linkerd, not viz)', async () => {
    const r = await run(['stat', 'deploy', '--viz-namespace', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: unknown flag: --viz-namespace\n');
  });
});

describe('the deprecated root aliases', () => {
  const LINE = `Command "stat" is deprecated, use instead 'linkerd viz stat [flags] (RESOURCES)'\n\n`;

  it('print cobra’s deprecation line before flags are parsed: on --help, a flag error and an argument error', async () => {
    const help = await run(['stat', '--help']);
    expect([help.code, help.stderr]).toEqual([0, LINE]);
    expect(help.stdout).toContain('Usage:\n  linkerd stat [flags] (RESOURCES)\n');
    const flag = await run(['stat', '--bogus']);
    expect([flag.code, flag.stderr.startsWith(`${LINE}Error: unknown flag: --bogus\n`)]).toEqual([1, true]);
    const none = await run(['stat']);
    expect([none.code, none.stderr.startsWith(`${LINE}Error: requires at least 1 arg(s), only received 0\n`)]).toEqual([1, true]);
    const tap = await run(['tap']);
    expect(
      tap.stderr.startsWith(
        `Command "tap" is deprecated, use instead 'linkerd viz tap [flags] (RESOURCE)'\n\nError: accepts between 1 and 2 arg(s), received 0\n`,
      ),
    ).toBe(true);
  });

  it('print it once, and never for the viz subcommand itself', async () => {
    const alias = await run(['edges']);
    expect(alias.stderr.split('is deprecated').length).toBe(2);
    const viz = await run(['viz', 'stat', '--help']);
    expect([viz.code, viz.stderr]).toEqual([0, '']);
  });
});
