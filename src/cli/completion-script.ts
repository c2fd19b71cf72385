/*
 * The shell side of completion: each script hands the words typed so far to
 * `linkerd __complete` (src/cli/completion/complete.ts) and offers what it prints, one candidate
 * per line. An empty answer lets the shell complete file names (manifests, values files).
 * Candidates are data (context and namespace names come from files and API servers): no script
 * expands, globs or evaluates them, and what is inserted on the command line is quoted, as
 * cobra's scripts do.
 */

// bash: `compgen -W` would expand each candidate ($(…), backticks, globs), so candidates are
// matched against the word as a literal prefix instead. A list is shown as it is; a single
// candidate is inserted, so it is quoted with printf %q first. A description (after a tab, as
// cobra's __complete gives one) is not shown.
const BASH = `_linkerd_completions() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" out candidate
  COMPREPLY=()
  out=$("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  [ "$cur" = "=" ] && cur=""
  while IFS='' read -r candidate; do
    candidate=\${candidate%%$'\t'*}
    [ -n "$candidate" ] && [[ "$candidate" == "$cur"* ]] && COMPREPLY+=("$candidate")
  done <<<"$out"
  if [ \${#COMPREPLY[@]} -eq 1 ]; then
    COMPREPLY[0]=$(printf '%q' "\${COMPREPLY[0]}")
  fi
}
complete -o default -F _linkerd_completions linkerd
`;

// zsh: native, not through bashcompinit (whose compgen -W globs candidates): compadd takes each
// candidate as a literal string and quotes it when inserting. The words typed are passed with
// their quoting removed (never evaluated). Sourced or autoloaded, like cobra's.
const ZSH = `#compdef linkerd
_linkerd() {
  local out candidate
  local -a candidates
  out=$("\${words[1]}" __complete "\${(@Q)words[2,CURRENT]}" 2>/dev/null)
  for candidate in "\${(@f)out}"; do
    candidate=\${candidate%%$'\t'*}
    [[ -n $candidate ]] && candidates+=("$candidate")
  done
  if (( \${#candidates} )); then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
if [ "$funcstack[1]" = "_linkerd" ]; then
  _linkerd "$@"
else
  compdef _linkerd linkerd
fi
`;

// fish: the output of a command substitution is not expanded again, and fish quotes what it
// inserts. The word being typed is passed unescaped, and passed even when empty. Files are
// offered only when there are no candidates, as bash's `-o default` does.
const FISH = `function __linkerd_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l current (commandline -ct | string unescape)
    set -l candidates (linkerd __complete $words "$current" 2>/dev/null)
    if test (count $candidates) -gt 0
        printf '%s\n' $candidates
    else
        __fish_complete_path "$current"
    end
end
complete -c linkerd -f -a '(__linkerd_complete)'
`;

export function completionScript(shell: 'bash' | 'zsh' | 'fish'): string {
  if (shell === 'fish') return FISH;
  if (shell === 'bash') return BASH;
  return ZSH;
}
