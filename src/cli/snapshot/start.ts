/*
 * The `start` V8 start-up snapshot's entry (see ./run.ts): the program, the kit, every family's
 * declaration and `version`, with a `version --client` and a `--help` run compiled. Its heap is
 * small, so commands that render little (version, help, completion, a family's `--help`) start
 * nearly as fast as node itself; bin/linkerd starts every command not routed to another snapshot
 * from here, and what this one does not hold is handed to the bundle.
 */
import { command as completion } from '../commands/completion.js';
import { command as version } from '../commands/version.js';
import { startFromSnapshot, warmUp } from './run.js';

/** The command modules this snapshot holds (the build keeps the families' loaders of these). */
const HELD = [version, completion];

startFromSnapshot();
warmUp(HELD, [['version', '--client'], ['--help'], ['viz', '--help']]);
