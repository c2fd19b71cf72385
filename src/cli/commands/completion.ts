import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { setArgumentChoices } from '../completion/complete.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
const ShellSchema = z.enum(SHELLS);

export function register(program: Command): Command {
  const cmd = program
    .command('completion')
    .argument('<shell>', 'bash, zsh or fish')
    .description('Output shell completion code for the specified shell (bash, zsh or fish)');
  setArgumentChoices(cmd, SHELLS);
  return cmd.action(async (shell: string) => {
    const { completionScript } = await import('../completion-script.js');
    const parsed = ShellSchema.safeParse(shell);
    if (!parsed.success) throw new UserError(`unsupported shell type (must be bash, zsh or fish): ${shell}`);
    process.stdout.write(completionScript(parsed.data));
  });
}
