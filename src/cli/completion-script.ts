import type { Command } from 'commander';

interface CommandWords {
  name: string;
  flags: string[];
}

/** Subcommands and their long/short flags, read from the commander tree itself so they never drift. */
function words(program: Command): { global: string[]; commands: CommandWords[] } {
  const flagsOf = (c: Command) => c.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
  return {
    global: flagsOf(program),
    commands: program.commands.filter((c) => c.name() !== 'help').map((c) => ({ name: c.name(), flags: flagsOf(c) })),
  };
}

export function completionScript(program: Command, shell: 'bash' | 'zsh' | 'fish'): string {
  const w = words(program);
  const names = w.commands.map((c) => c.name).join(' ');
  if (shell === 'fish') {
    const lines = [`complete -c linkerd -f -n '__fish_use_subcommand' -a '${names}'`];
    for (const f of w.global.filter((f) => f.startsWith('--'))) lines.push(`complete -c linkerd -l ${f.slice(2)}`);
    for (const c of w.commands) {
      for (const f of c.flags.filter((f) => f.startsWith('--'))) {
        lines.push(`complete -c linkerd -n '__fish_seen_subcommand_from ${c.name}' -l ${f.slice(2)}`);
      }
    }
    return lines.join('\n') + '\n';
  }
  const cases = w.commands.map((c) => `    ${c.name}) opts="${[...c.flags, ...w.global].join(' ')}" ;;`).join('\n');
  const bash = `_linkerd_completions() {
  local cur cmd opts i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  case "$cmd" in
${cases}
    *) opts="${names} ${w.global.join(' ')}" ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _linkerd_completions linkerd
`;
  if (shell === 'bash') return bash;
  // zsh runs the bash function through its bash-completion compatibility layer.
  return `#compdef linkerd\nautoload -U +X bashcompinit && bashcompinit\n${bash}`;
}
