import type { CommandBody } from '../kit/command.js';

export const command: CommandBody = {
  run: async ({ io }) => {
    // Every command's module, as `help <command>` and the reference need them (main.ts is loaded already).
    const [{ loadAllCommands }, { commandDocYaml }] = await Promise.all([import('../main.js'), import('../kit/reference.js')]);
    io.stdout.write(commandDocYaml(await loadAllCommands()));
  },
};
