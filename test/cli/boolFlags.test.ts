import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { acceptGoBools, addBoolFlag } from '../../src/cli/flags/boolFlags.js';

function command(): Command {
  const cmd = new Command('inject').exitOverride().configureOutput({ writeErr: () => undefined });
  addBoolFlag(cmd, '--manual', 'full spec', { default: false });
  addBoolFlag(cmd, '--linkerd-cni-enabled', 'cni');
  cmd.option('--crds', 'a plain boolean, without a --no- twin', false);
  return acceptGoBools(cmd);
}

describe('pflag-style booleans', () => {
  it('take --name, --name=<bool> in any strconv.ParseBool spelling, and --no-name', () => {
    expect(command().parse(['--manual'], { from: 'user' }).opts()).toMatchObject({ manual: true });
    expect(command().parse(['--manual=false'], { from: 'user' }).opts()).toMatchObject({ manual: false });
    expect(command().parse(['--manual=T'], { from: 'user' }).opts()).toMatchObject({ manual: true });
    expect(command().parse(['--manual', '--no-manual'], { from: 'user' }).opts()).toMatchObject({ manual: false });
  });

  it('leave a boolean without a default unset until given, and mark it as given by the user', () => {
    const unset = command().parse([], { from: 'user' });
    expect(unset.opts().linkerdCniEnabled).toBeUndefined();
    const set = command().parse(['--linkerd-cni-enabled=0'], { from: 'user' });
    expect(set.opts().linkerdCniEnabled).toBe(false);
    expect(set.getOptionValueSource('linkerdCniEnabled')).toBe('cli');
  });

  it('reject a malformed value with pflag’s words', () => {
    expect(() => command().parse(['--manual=maybe'], { from: 'user' })).toThrow(
      'invalid argument "maybe" for "--manual" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });

  it('rewrite only booleans declared with a --no- twin', () => {
    expect(() => command().parse(['--crds=false'], { from: 'user' })).toThrow("unknown option '--crds=false'");
  });

  it('hide the --no- twin from help', () => {
    const help = command().helpInformation();
    expect(help).toContain('--manual');
    expect(help).not.toContain('--no-manual');
  });
});
