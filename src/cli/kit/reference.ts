import type { Command } from 'commander';
import { commandPath } from '../help/cobraErrors.js';
import { examplesOfCommand, flagUsageTexts, shortOf, useLine } from '../help/cobraHelp.js';

/*
 * The command reference in docs/reference/, one Markdown page per command, laid out as cobra's
 * doc.GenMarkdownTree lays it out (title, short, synopsis, usage, examples, options, inherited
 * options, see also), from the same declarations help prints. No generation date: the pages
 * change only when a command does.
 */

/** `linkerd_identity_rotate.md` for `linkerd identity rotate`. */
export function referenceFileName(cmd: Command): string {
  return `${commandPath(cmd).replace(/ /g, '_')}.md`;
}

function documented(cmd: Command): Command[] {
  return cmd.commands.filter((c) => !c.name().startsWith('__') && c.name() !== 'help').sort((a, b) => (a.name() < b.name() ? -1 : 1));
}

function fence(text: string): string {
  return `\`\`\`\n${text.replace(/\n?$/, '\n')}\`\`\`\n\n`;
}

/** One page, as cobra's GenMarkdown writes it. */
export function referencePage(cmd: Command): string {
  const subcommands = documented(cmd);
  const long = cmd.description().trim();
  const short = shortOf(cmd);
  let page = `## ${commandPath(cmd)}\n\n${short}\n\n`;
  if (long !== '' && long !== short) page += `### Synopsis\n\n${long}\n\n`;
  // cobra shows the usage of a command that runs; a pure group only lists its commands.
  if (subcommands.length === 0 || cmd.registeredArguments.length > 0) page += fence(useLine(cmd));
  const examples = examplesOfCommand(cmd);
  if (examples !== '') page += `### Examples\n\n${fence(examples)}`;
  const flags = flagUsageTexts(cmd);
  page += `### Options\n\n${fence(flags.local)}`;
  if (flags.inherited !== '') page += `### Options inherited from parent commands\n\n${fence(flags.inherited)}`;
  const seeAlso: string[] = [];
  if (cmd.parent) seeAlso.push(`* [${commandPath(cmd.parent)}](${referenceFileName(cmd.parent)})\t - ${shortOf(cmd.parent)}`);
  for (const c of subcommands) seeAlso.push(`* [${commandPath(c)}](${referenceFileName(c)})\t - ${shortOf(c)}`);
  if (seeAlso.length > 0) page += `### SEE ALSO\n\n${seeAlso.join('\n')}\n`;
  return page;
}

/** Every page of the tree under `root` (the root's own included), by file name. */
export function commandReference(root: Command): Map<string, string> {
  const pages = new Map<string, string>();
  const visit = (cmd: Command) => {
    pages.set(referenceFileName(cmd), referencePage(cmd));
    for (const c of documented(cmd)) visit(c);
  };
  visit(root);
  return pages;
}
