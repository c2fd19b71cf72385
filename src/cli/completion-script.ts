/*
 * The shell side of completion: each script hands the words typed so far to
 * `linkerd __complete` (src/cli/completion/complete.ts) and offers what it prints, one candidate
 * per line. An empty answer lets the shell complete file names (manifests, values files).
 */

const BASH = `_linkerd_completions() {
  local IFS=$'\\n' cur="\${COMP_WORDS[COMP_CWORD]}"
  local out
  out=$("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  [ "$cur" = "=" ] && cur=""
  COMPREPLY=($(compgen -W "$out" -- "$cur"))
}
complete -o default -F _linkerd_completions linkerd
`;

const FISH = `function __linkerd_complete
    set -l words (commandline -opc)
    set -e words[1]
    linkerd __complete $words (commandline -ct) 2>/dev/null
end
complete -c linkerd -a '(__linkerd_complete)'
`;

export function completionScript(shell: 'bash' | 'zsh' | 'fish'): string {
  if (shell === 'fish') return FISH;
  if (shell === 'bash') return BASH;
  // zsh runs the bash function through its bash-completion compatibility layer.
  return `#compdef linkerd\nautoload -U +X bashcompinit && bashcompinit\n${BASH}`;
}
