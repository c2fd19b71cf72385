import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';

/*
 * pflag prints a flag's Go type after it: linkerd parses ports and replica counts as uint
 * (UintVar, NewUintFlag) and install-cni's --redirect-ports as a uint slice, which pflag names
 * `uint` and `uints`.
 */

const typeOf = (help: string, flag: string): string | undefined => new RegExp(`--${flag} (\\S+)`).exec(help)?.[1];

describe('unsigned flags in help', () => {
  it('install-cni: ports are uint, --redirect-ports uints; the IDs stay int', async () => {
    const help = (await runCli(['install-cni', '--help'])).stdout;
    for (const f of ['inbound-port', 'outbound-port', 'admin-port', 'control-port']) expect(typeOf(help, f), f).toBe('uint');
    expect(typeOf(help, 'redirect-ports')).toBe('uints');
    expect(typeOf(help, 'proxy-uid')).toBe('int');
    expect(typeOf(help, 'proxy-gid')).toBe('int');
  });

  it('install: the proxy ports and --controller-replicas are uint', async () => {
    const help = (await runCli(['install', '--help'])).stdout;
    for (const f of ['inbound-port', 'outbound-port', 'admin-port', 'control-port', 'controller-replicas']) expect(typeOf(help, f), f).toBe('uint');
    expect(typeOf(help, 'controller-uid')).toBe('int');
  });

  it('a negative number is still refused with strconv.ParseUint', async () => {
    const r = await runCli(['install-cni', '--redirect-ports', '-1']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('strconv.ParseUint');
  });
});

describe('Uint32Var flags', () => {
  it('multicluster install: the gateway ports and probe interval are uint32', async () => {
    const help = (await runCli(['multicluster', 'install', '--help'])).stdout;
    for (const f of ['gateway-port', 'gateway-probe-port', 'gateway-probe-seconds']) expect(typeOf(help, f), f).toBe('uint32');
  });
});
