import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyFlags, controlPlaneChart, defaultValues, type ControlPlaneFlagSet, type SetFlag } from '../../src/core/values/index.js';
import { normalizeBoolFlagArgs } from '../../src/cli/flags/boolFlags.js';
import { addValueFlags, readSetFlags } from '../../src/cli/flags/valueFlags.js';

describe('commander wiring', () => {
  function parse(sets: ControlPlaneFlagSet[], argv: string[], env: Record<string, string> = {}): SetFlag[] {
    const cmd = new Command('install').exitOverride().allowExcessArguments(true);
    addValueFlags(cmd, controlPlaneChart, sets, { release: true });
    cmd.parse(normalizeBoolFlagArgs(argv), { from: 'user' });
    return readSetFlags(cmd, controlPlaneChart, sets, env);
  }

  it('returns only the flags the user set, with their values', () => {
    expect(parse(['installOnly', 'installUpgrade', 'proxy'], ['--ha', '--controller-replicas', '2', '--proxy-cpu-request=1500m'])).toEqual([
      { name: 'ha', value: true },
      { name: 'controller-replicas', value: '2' },
      { name: 'proxy-cpu-request', value: '1500m' },
    ]);
    expect(parse(['installOnly', 'installUpgrade', 'proxy'], [])).toEqual([]);
  });

  it('accepts --bool=false for booleans, like pflag', () => {
    expect(parse(['proxy', 'inject'], ['--native-sidecar=false', '--ingress=true', 'app.yaml'])).toEqual([
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
    expect(parse(['proxy', 'inject'], ['--opaque-ports', '1,2', '--opaque-ports', '3'])).toEqual([{ name: 'opaque-ports', value: ['1', '2', '3'] }]);
  });

  it('understands -v for the deprecated --proxy-version', () => {
    expect(parse(['proxy'], ['-v', 'edge-1.2.3'])).toEqual([{ name: 'proxy-version', value: 'edge-1.2.3' }]);
  });

  it('presets --registry from LINKERD_DOCKER_REGISTRY as if set, unless given on the command line', () => {
    expect(parse(['proxy'], [], { LINKERD_DOCKER_REGISTRY: 'env.reg' })).toEqual([{ name: 'registry', value: 'env.reg' }]);
    expect(parse(['proxy'], ['--registry', 'cli.reg'], { LINKERD_DOCKER_REGISTRY: 'env.reg' })).toEqual([{ name: 'registry', value: 'cli.reg' }]);
    expect(parse(['proxy'], [], { LINKERD_DOCKER_REGISTRY: '' })).toEqual([]);
  });

  it('hides development flags in release builds and always hides --disable-identity', () => {
    const release = addValueFlags(new Command('inject'), controlPlaneChart, ['proxy', 'inject'], { release: true });
    const dev = addValueFlags(new Command('inject'), controlPlaneChart, ['proxy', 'inject'], { release: false });
    const help = (c: Command) => c.helpInformation();
    expect(help(release)).not.toContain('--proxy-image');
    expect(help(dev)).toContain('--proxy-image');
    expect(help(dev)).not.toContain('--disable-identity');
    expect(help(release)).toContain('--opaque-ports');
    expect(help(release)).not.toContain('--no-ingress');
  });

  it('feeds applyFlags end to end', () => {
    const flags = parse(['installOnly', 'installUpgrade', 'proxy'], ['--ha', '--controller-replicas=2', '--identity-issuance-lifetime=48h']);
    const v = applyFlags(defaultValues(), flags);
    expect(v.controllerReplicas).toBe(2);
    expect(v.identity.issuer.issuanceLifetime).toBe('48h0m0s');
  });
});
