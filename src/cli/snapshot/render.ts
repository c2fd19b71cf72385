/*
 * The `render` V8 start-up snapshot's entry (see ./run.ts): the commands that render the
 * control plane and the extensions (install, upgrade, viz install, multicluster install), with a
 * run of install compiled, so x509, zod's value schemas, js-yaml and the templates are read from
 * the saved heap instead of being parsed and run on every call. bin/linkerd starts the commands the
 * build routes here (src/build/snapshots.ts) from this snapshot.
 */
import { command as install } from '../commands/install.js';
import { command as upgrade } from '../commands/upgrade.js';
import { command as multicluster } from '../../families/multicluster/command.js';
import { command as vizInstall } from '../../families/viz/commands/install.js';
import { startFromSnapshot, warmUp } from './run.js';

/** The command modules this snapshot holds (the build keeps the families' loaders of these). */
const HELD = [install, upgrade, multicluster, vizInstall];

startFromSnapshot();
// Held but not run here: viz and multicluster install load node:http, which node 20's snapshot
// builder cannot load (http sorts its methods with toSorted, which V8 adds only after the
// builder's context exists), and a second install (-o json) leaves code V8 cannot serialise (the
// builder aborts). Their modules are loaded, their functions compiled on first use.
warmUp(HELD, [['install', '--ignore-cluster']]);
