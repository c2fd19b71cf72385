import { describe, expect, it } from 'vitest';
import { parseValidity, prepareCheck } from '../../src/cli/flags/prepareCheck.js';
import { runCli } from '../support/cli.js';

const globals = { linkerdNamespace: 'linkerd', cniNamespace: 'linkerd-cni', asGroup: [] as string[], verbose: false };
const prepare = (flags: object, env: NodeJS.ProcessEnv = {}) => prepareCheck(flags, globals, { env });

describe('check flags', () => {
  it('rejects the combinations the real CLI rejects, with its words', () => {
    expect(() => prepare({ pre: true, proxy: true })).toThrow('Validation error when executing check command: --pre and --proxy flags are mutually exclusive');
    expect(() => prepare({ pre: true, crds: true })).toThrow('--pre and --crds flags are mutually exclusive');
    expect(() => prepare({ linkerdCniEnabled: true })).toThrow('--linkerd-cni-enabled can only be used with --pre');
    expect(() => prepare({ output: 'yaml' })).toThrow("Invalid output type 'yaml'. Supported output types are: json, table, short, junit");
    expect(() => prepare({ failOn: 'info' })).toThrow('--fail-on must be "error" or "warning"');
    expect(() => prepare({ wait: 'soon' })).toThrow('invalid argument "soon" for "--wait" flag: time: invalid duration "soon"');
  });

  it('maps flags to a request: mode, deadlines, versions and forwarded extension flags', () => {
    const { request, output } = prepare({
      proxy: true,
      namespace: 'app',
      output: 'json',
      wait: '2m',
      timeout: '10s',
      certMinValidity: '30d',
      failOn: 'warning',
    });
    expect(output).toBe('json');
    expect(request).toMatchObject({
      mode: 'proxy',
      dataPlaneNamespace: 'app',
      waitMs: 120_000,
      timeoutMs: 10_000,
      families: { core: { cniNamespace: 'linkerd-cni', cniEnabled: false, certMinValidityMs: 30 * 86_400_000 } },
      failOn: 'warning',
    });
    expect(request.versionCheck).toEqual({ url: 'https://versioncheck.linkerd.io/version.json', timeoutMs: 5_000 });
    expect(request.extensions?.forwardFlags).toEqual(['--linkerd-namespace=linkerd', '--verbose=false', '--namespace=app', '--proxy=true', '--wait=2m0s']);
  });

  it('lets the environment point versioncheck elsewhere (air-gapped mirrors, tests)', () => {
    const { request } = prepare({}, { LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:1/v.json', LINKERD_VERSIONCHECK_TIMEOUT: '1s' });
    expect(request.versionCheck).toEqual({ url: 'http://127.0.0.1:1/v.json', timeoutMs: 1_000 });
  });

  it('accepts in --skip/--only the ids of the registered families it is told about', () => {
    expect(() => prepare({ skip: ['L5D9001'] })).toThrow('unknown check id "L5D9001" in --skip');
    const { request } = prepareCheck({ skip: ['l5d9001'] }, globals, { env: {}, knownCheckId: (id) => id === 'L5D9001' });
    expect(request.selection).toEqual({ skip: ['L5D9001'], only: [] });
  });

  it('reads validity periods in days or Go durations', () => {
    expect(parseValidity('x', '30d')).toBe(30 * 86_400_000);
    expect(parseValidity('x', '1d12h')).toBe(36 * 3_600_000);
    expect(parseValidity('x', '720h')).toBe(30 * 86_400_000);
  });

  it("a duration with a unit Go lacks says which units exist: days for validities, Go's for the real CLI's flags", async () => {
    expect(() => parseValidity('cert-min-validity', '3w')).toThrow(
      'invalid argument "3w" for "--cert-min-validity" flag: time: unknown unit "w" in duration "3w" (units: d (24h), h, m, s, ms, us (or µs), ns)',
    );
    const r = await runCli(['check', '--wait', '10d']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'Error: invalid argument "10d" for "--wait" flag: time: unknown unit "d" in duration "10d" (units: ns, us (or µs), ms, s, m, h)\n',
    ]);
  });
});
