/*
 * The `edit` V8 start-up snapshot's entry (see ./run.ts): the commands that read the user's
 * manifests (inject, uninject, analyze), with a run of uninject and analyze compiled, so yaml,
 * the values and the proxy templates are read from the saved heap. bin/linkerd starts the
 * commands the build routes here (src/build/snapshots.ts) from this snapshot.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { command as inject } from '../commands/inject.js';
import { command as uninject } from '../commands/uninject.js';
import { command as analyze } from '../../families/analyze/command.js';
import { startFromSnapshot, warmUp } from './run.js';

/** The command modules this snapshot holds (the build keeps the families' loaders of these). */
const HELD = [inject, uninject, analyze];

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
// inject is held but not run here: its run leaves code V8 cannot serialise (the builder aborts).
const dir = mkdtempSync(path.join(tmpdir(), 'linkerd-snapshot-'));
const file = path.join(dir, 'web.yaml');
writeFileSync(file, WORKLOAD);
warmUp(
  HELD,
  [
    ['uninject', file],
    ['analyze', file],
  ],
  () => rmSync(dir, { recursive: true, force: true }),
);
