import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import type { CommandBody } from '../kit/command.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
const ShellSchema = z.enum(SHELLS);

export const command: CommandBody = {
  args: [{ name: 'shell', help: 'bash, zsh or fish', required: true, choices: SHELLS }],
  run: async ({ args, io }) => {
    const { completionScript } = await import('../completion-script.js');
    const shell = String(args[0]);
    const parsed = ShellSchema.safeParse(shell);
    if (!parsed.success) throw new UserError(`unsupported shell type (must be bash, zsh or fish): ${shell}`);
    io.stdout.write(completionScript(parsed.data));
  },
};
