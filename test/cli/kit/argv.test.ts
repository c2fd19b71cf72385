import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { normalizeArgs, setDashDashRewrite } from '../../../src/cli/kit/argv.js';
import { addFlags } from '../../../src/cli/kit/flags.js';

/** A root with a global boolean and a value flag, and `inject` with booleans of its own. */
function program(): Command {
  const root = addFlags(new Command('linkerd').exitOverride().configureOutput({ writeErr: () => undefined }), [
    { name: 'verbose', type: 'bool', default: false, help: 'debug logging' },
    { name: 'context', type: 'string', help: 'kubeconfig context' },
  ]);
  const inject = root
    .command('inject')
    .argument('[files...]')
    .action(() => undefined);
  addFlags(inject, [
    { name: 'manual', type: 'bool', default: false, help: 'full spec' },
    { name: 'linkerd-cni-enabled', type: 'bool', help: 'cni' },
    { name: 'force', short: 'f', type: 'bool', default: false, help: 'force' },
    { name: 'output', short: 'o', type: 'string', help: 'format' },
  ]);
  return root;
}

function parsed(args: string[]): Command {
  const root = program();
  root.parse(normalizeArgs(root, args), { from: 'user' });
  return root.commands[0] as Command;
}

describe('the kit’s argv rewriting', () => {
  it('takes --name, --name=<bool> in any strconv.ParseBool spelling, and --no-name', () => {
    expect(parsed(['inject', '--manual']).opts()).toMatchObject({ manual: true });
    expect(parsed(['inject', '--manual=false']).opts()).toMatchObject({ manual: false });
    expect(parsed(['inject', '--manual=T']).opts()).toMatchObject({ manual: true });
    expect(parsed(['inject', '--manual', '--no-manual']).opts()).toMatchObject({ manual: false });
    expect(parsed(['inject', '-f=true']).opts()).toMatchObject({ force: true });
  });

  it('rewrites the booleans of the ancestors too, wherever they stand', () => {
    const root = program();
    root.parse(normalizeArgs(root, ['inject', 'a.yaml', '--verbose=true']), { from: 'user' });
    expect(root.opts()).toMatchObject({ verbose: true });
  });

  it('leaves a boolean without a default unset until given, and marks it as given by the user', () => {
    expect(parsed(['inject']).opts().linkerdCniEnabled).toBeUndefined();
    const set = parsed(['inject', '--linkerd-cni-enabled=0']);
    expect(set.opts().linkerdCniEnabled).toBe(false);
    expect(set.getOptionValueSource('linkerdCniEnabled')).toBe('cli');
  });

  it('rejects a malformed value with pflag’s words, naming the shorthand as pflag does', () => {
    const root = program();
    expect(() => normalizeArgs(root, ['inject', '--manual=maybe'])).toThrow(
      'invalid argument "maybe" for "--manual" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => normalizeArgs(root, ['inject', '--force=maybe'])).toThrow('invalid argument "maybe" for "-f, --force" flag:');
    expect(() => normalizeArgs(root, ['inject', '-f=\t'])).toThrow(
      'invalid argument "\\t" for "-f, --force" flag: strconv.ParseBool: parsing "\\t": invalid syntax',
    );
  });

  it('leaves the value of a value flag, the operands after --, and other commands’ flags alone', () => {
    const root = program();
    expect(normalizeArgs(root, ['inject', '-o', '--manual=x'])).toEqual(['inject', '-o', '--manual=x']);
    expect(normalizeArgs(root, ['inject', '--', '--manual=x'])).toEqual(['inject', '--', '--manual=x']);
    expect(normalizeArgs(root, ['--manual=x', 'inject'])).toEqual(['--manual=x', 'inject']);
  });

  it('lets a command say how its operands after -- are passed', () => {
    const root = program();
    setDashDashRewrite(root.commands[0] as Command, (ops) => ops.map((o) => `pod/${o}`));
    expect(normalizeArgs(root, ['inject', '-o', 'json', '--', 'rotate', '-n'])).toEqual(['inject', '-o', 'json', 'pod/rotate', 'pod/-n']);
  });

  it('hides the --no- twin from help', () => {
    const help = program().commands[0]?.helpInformation() ?? '';
    expect(help).toContain('--manual');
    expect(help).not.toContain('--no-manual');
  });
});
