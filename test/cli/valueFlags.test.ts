import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyFlags, defaultValues, type FlagGroup, type SetFlag } from '../../src/core/values/index.js';
import { normalizeBoolFlagArgs } from '../../src/cli/flags/boolFlags.js';
import { addValueFlags, readSetFlags } from '../../src/cli/flags/valueFlags.js';

describe('commander wiring', () => {
  function parse(groups: FlagGroup[], argv: string[], env: Record<string, string> = {}): SetFlag[] {
    const cmd = new Command('install').exitOverride().allowExcessArguments(true);
    addValueFlags(cmd, groups, { release: true });
    cmd.parse(normalizeBoolFlagArgs(argv), { from: 'user' });
    return readSetFlags(cmd, groups, env);
  }

  it('returns only the flags the user set, with their values', () => {
    expect(parse(['A', 'B', 'C'], ['--ha', '--controller-replicas', '2', '--proxy-cpu-request=1500m'])).toEqual([
      { name: 'ha', value: true },
      { name: 'controller-replicas', value: '2' },
      { name: 'proxy-cpu-request', value: '1500m' },
    ]);
    expect(parse(['A', 'B', 'C'], [])).toEqual([]);
  });

  it('accepts --bool=false for booleans, like pflag', () => {
    expect(parse(['C', 'D'], ['--native-sidecar=false', '--ingress=true', 'app.yaml'])).toEqual([
      { name: 'native-sidecar', value: false },
      { name: 'ingress', value: true },
    ]);
  });

  it('rejects a malformed boolean', () => {
    expect(() => normalizeBoolFlagArgs(['--ha=maybe'])).toThrow('invalid argument "maybe" for "--ha" flag: strconv.ParseBool: parsing "maybe": invalid syntax');
  });

  it('leaves arguments after -- alone', () => {
    expect(normalizeBoolFlagArgs(['--', '--ha=false'])).toEqual(['--', '--ha=false']);
  });

  it('accumulates repeated string slices, replacing the default', () => {
    expect(parse(['C', 'D'], ['--opaque-ports', '1,2', '--opaque-ports', '3'])).toEqual([{ name: 'opaque-ports', value: ['1', '2', '3'] }]);
  });

  it('understands -v for the deprecated --proxy-version', () => {
    expect(parse(['C'], ['-v', 'edge-1.2.3'])).toEqual([{ name: 'proxy-version', value: 'edge-1.2.3' }]);
  });

  it('presets --registry from LINKERD_DOCKER_REGISTRY as if set, unless given on the command line', () => {
    expect(parse(['C'], [], { LINKERD_DOCKER_REGISTRY: 'env.reg' })).toEqual([{ name: 'registry', value: 'env.reg' }]);
    expect(parse(['C'], ['--registry', 'cli.reg'], { LINKERD_DOCKER_REGISTRY: 'env.reg' })).toEqual([{ name: 'registry', value: 'cli.reg' }]);
    expect(parse(['C'], [], { LINKERD_DOCKER_REGISTRY: '' })).toEqual([]);
  });

  it('hides development flags in release builds and always hides --disable-identity', () => {
    const release = addValueFlags(new Command('inject'), ['C', 'D'], { release: true });
    const dev = addValueFlags(new Command('inject'), ['C', 'D'], { release: false });
    const help = (c: Command) => c.helpInformation();
    expect(help(release)).not.toContain('--proxy-image');
    expect(help(dev)).toContain('--proxy-image');
    expect(help(dev)).not.toContain('--disable-identity');
    expect(help(release)).toContain('--opaque-ports');
    expect(help(release)).not.toContain('--no-ingress');
  });

  it('feeds applyFlags end to end', () => {
    const flags = parse(['A', 'B', 'C'], ['--ha', '--controller-replicas=2', '--identity-issuance-lifetime=48h']);
    const v = applyFlags(defaultValues(), flags);
    expect(v.controllerReplicas).toBe(2);
    expect(v.identity.issuer.issuanceLifetime).toBe('48h0m0s');
  });
});
