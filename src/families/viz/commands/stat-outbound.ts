import { statTrafficCommand } from './statTrafficCommand.js';

export const command = statTrafficCommand('outbound');
