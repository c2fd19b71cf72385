/*
 * The `render` V8 start-up snapshot's entry (see ./run.ts): the commands that render manifests
 * (install, upgrade, inject, uninject, analyze, viz install, multicluster install), with a run of
 * install, uninject and analyze compiled, so x509, zod's value schemas, js-yaml, yaml and the templates are read from the
 * saved heap instead of being parsed and run on every call. bin/linkerd starts the commands the
 * build routes here (src/build/snapshots.ts) from this snapshot.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { command as install } from '../commands/install.js';
import { command as inject } from '../commands/inject.js';
import { command as uninject } from '../commands/uninject.js';
import { command as upgrade } from '../commands/upgrade.js';
import { command as analyze } from '../../families/analyze/command.js';
import { command as multicluster } from '../../families/multicluster/command.js';
import { command as vizInstall } from '../../families/viz/commands/install.js';
import { startFromSnapshot, warmUp } from './run.js';

/** The command modules this snapshot holds (the build keeps the families' loaders of these). */
const HELD = [install, upgrade, inject, uninject, analyze, multicluster, vizInstall];
void HELD;

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 8080
`;

startFromSnapshot();
// Held but not run here: viz and multicluster install load node:http, which node 20's snapshot
// builder cannot load (http sorts its methods with toSorted, which V8 adds only after the
// builder's context exists); a second install (-o json) or an inject run leaves code V8 cannot
// serialise (the builder aborts). Their modules are loaded, their functions compiled on first use.
const dir = mkdtempSync(path.join(tmpdir(), 'linkerd-snapshot-'));
const file = path.join(dir, 'web.yaml');
writeFileSync(file, WORKLOAD);
warmUp(
  [
    ['install', '--ignore-cluster'],
    ['uninject', file],
    ['analyze', file],
  ],
  () => rmSync(dir, { recursive: true, force: true }),
);
