import type { Command, Option } from 'commander';
import yaml from 'js-yaml';
import { commandPath } from '../help/cobraErrors.js';
import { examplesOfCommand, flagUsageTexts, shortOf, useLine } from '../help/cobraHelp.js';
import { ANNOTATION_DOCS } from './annotationDocs.js';

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

/** The subcommands cobra documents (its IsAvailableCommand): not hidden, not help, sorted by name. */
function documented(cmd: Command): Command[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => !c.name().startsWith('__') && c.name() !== 'help')
    .sort((a, b) => (a.name() < b.name() ? -1 : 1));
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

/*
 * `linkerd doc`: the same tree as YAML, as linkerd's doc command writes it. It reads cobra's
 * GenYaml output back into a struct whose field names do not match cobra's snake_case keys for
 * `default_value`, `inherited_options` and `see_also`, so those come out empty (`""`, null, null)
 * in the real command's output too; the keys are the struct's field names, sorted.
 */

interface CmdOption {
  Name: string;
  Shorthand: string;
  DefaultValue: string;
  Usage: string;
}

interface CmdDoc {
  Name: string;
  Synopsis: string;
  Description: string;
  Options: CmdOption[];
  InheritedOptions: null;
  Example: string;
  SeeAlso: null;
}

/** cobra's forceMultiLine: a long one-line text gets a newline, so YAML prints it as a block. */
function forceMultiLine(s: string): string {
  return s.length > 60 && !s.includes('\n') ? `${s}\n` : s;
}

/** `--no-x` exists only so `--x=false` parses (bools.ts): not a flag of the real command. */
function isBoolNegation(o: Option, all: readonly Option[]): boolean {
  return o.negate && all.some((p) => p !== o && p.attributeName() === o.attributeName() && !p.negate);
}

function options(cmd: Command): CmdOption[] {
  const rows: CmdOption[] = cmd.options
    .filter((o) => o.long !== '--help' && !isBoolNegation(o, cmd.options))
    .map((o) => ({
      Name: (o.long ?? '').replace(/^--/, ''),
      Shorthand: (o.short ?? '').replace(/^-/, ''),
      DefaultValue: '',
      Usage: forceMultiLine(o.description),
    }));
  rows.push({ Name: 'help', Shorthand: 'h', DefaultValue: '', Usage: `help for ${cmd.name()}` });
  return rows.sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
}

function cmdDoc(cmd: Command): CmdDoc {
  const long = cmd.description().trim();
  return {
    Name: commandPath(cmd).replace(/^linkerd /, ''),
    Synopsis: forceMultiLine(shortOf(cmd)),
    Description: forceMultiLine(long),
    Options: options(cmd),
    InheritedOptions: null,
    Example: examplesOfCommand(cmd),
    SeeAlso: null,
  };
}

/** Every documented command below `root`, children before their parent, siblings by name (cobra's walk). */
function docList(root: Command): CmdDoc[] {
  const out: CmdDoc[] = [];
  const visit = (cmd: Command) => {
    for (const c of documented(cmd)) visit(c);
    if (cmd !== root) out.push(cmdDoc(cmd));
  };
  visit(root);
  return out;
}

/** What `linkerd doc` prints: the commands and the proxy annotations, as one YAML document. */
export function commandDocYaml(root: Command): string {
  const references = { CLIReference: docList(root), AnnotationsReference: ANNOTATION_DOCS };
  const text = yaml.dump(references, { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true, quotingType: '"' });
  return `# Automatically generated by the linkerd doc command, do not manually edit\n\n${text}\n`;
}
