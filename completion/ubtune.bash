# bash completion for ubtune; commands and options come from the binary.
_ubtune() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(ubtune __complete 2>/dev/null) --help --version --color=" -- "$cur"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(ubtune __complete "$cmd" 2>/dev/null)" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _ubtune ubtune
