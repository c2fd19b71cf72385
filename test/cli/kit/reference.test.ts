import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllCommands } from '../../../src/cli/main.js';
import { commandReference } from '../../../src/cli/kit/reference.js';
import { REPO_ROOT, runCli } from '../../support/cli.js';

/*
 * docs/reference/ is generated from the command declarations (`npm run docs`); the committed
 * pages must be what the generator writes now, so a changed flag or command fails here until
 * the pages are regenerated.
 */

const dir = path.join(REPO_ROOT, 'docs', 'reference');

describe('the generated command reference', () => {
  it('is up to date: the committed pages are exactly what `npm run docs` writes', async () => {
    const pages = commandReference(await loadAllCommands());
    const committed = readdirSync(dir).filter((f) => /^linkerd.*\.md$/.test(f));
    expect(committed.sort()).toEqual([...pages.keys()].sort());
    for (const [name, text] of pages) expect(readFileSync(path.join(dir, name), 'utf8'), name).toBe(text);
  });

  it('has a page for every command help lists, with the flags help shows', async () => {
    const pages = commandReference(await loadAllCommands());
    const help = (await runCli(['--help'])).stdout;
    const listed = [...(help.split('Available Commands:\n')[1]?.split('\n\n')[0] ?? '').matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] ?? '');
    for (const c of listed.filter((c) => c !== 'help')) expect(pages.has(`linkerd_${c}.md`), c).toBe(true);
    const install = pages.get('linkerd_install.md') ?? '';
    const installHelp = (await runCli(['install', '--help'])).stdout;
    const flags = installHelp.split('\nFlags:\n')[1]?.split('\n\n')[0] ?? '';
    expect(install).toContain(`### Options\n\n\`\`\`\n${flags}\n\`\`\``);
    expect(install).toContain('### Examples\n\n```\n  # Install CRDs first.\n');
    expect(install).toContain('* [linkerd](linkerd.md)\t - linkerd manages the Linkerd service mesh.');
  });
});
