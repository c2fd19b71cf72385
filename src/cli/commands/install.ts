import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';

// Placeholder while the command is being built; replaced by its real module.
export function register(program: Command): Command {
  return program.command('install').allowUnknownOption(true).action(() => {
    throw new UserError('install is not available yet');
  });
}
