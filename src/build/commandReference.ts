/*
 * `npm run docs` (after tsc): writes docs/reference/linkerd*.md from the command declarations
 * (src/cli/kit/reference.ts), removing pages of commands that no longer exist. A test compares
 * the committed pages with what this writes, so they cannot go stale.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commandReference } from '../cli/kit/reference.js';
import { loadAllCommands } from '../cli/main.js';

const dir = path.join('docs', 'reference');
const pages = commandReference(await loadAllCommands());
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (/^linkerd.*\.md$/.test(f) && !pages.has(f)) rmSync(path.join(dir, f));
for (const [name, text] of pages) writeFileSync(path.join(dir, name), text);
console.log(`${pages.size} pages in ${dir}`);
