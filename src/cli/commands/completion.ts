import type { Command } from 'commander';
import * as z from 'zod';
import { UserError } from '../../core/errors.js';

const ShellSchema = z.enum(['bash', 'zsh', 'fish']);

export function register(program: Command): Command {
  return program
    .command('completion')
    .argument('<shell>', 'bash, zsh or fish')
    .description('Output shell completion code for the specified shell (bash, zsh or fish)')
    .action(async (shell: string) => {
      const { completionScript } = await import('../completion-script.js');
      const { loadAllCommands } = await import('../main.js');
      const parsed = ShellSchema.safeParse(shell);
      if (!parsed.success) throw new UserError(`unsupported shell type (must be bash, zsh or fish): ${shell}`);
      const full = await loadAllCommands();
      process.stdout.write(completionScript(full, parsed.data));
    });
}
