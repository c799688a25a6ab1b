# bash completion for ubtune. The words come from the binary (ubtune
# __complete), which makes them from each command's option table: the
# options, the values an option takes (profiles, test ids, result ids,
# choices) and the operands. "@file" and "@dir" ask for file names here.
# The binary asked is the one typed (build/ubtune, ~/src/ubtune/build/ubtune),
# so that a build that is not installed completes too: `source
# completion/ubtune.bash` in a shell, then `build/ubtune <TAB>`.
_ubtune_offer() {
	local cur=$1 prefix="" line
	local -a words=()
	# a comma-separated list (--tests): complete its last member
	if [[ $2 == list && $cur == *,* ]]; then
		prefix=${cur%,*},
		cur=${cur##*,}
	fi
	while IFS= read -r line; do
		case $line in
		@file) mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
		@dir) mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur") ;;
		*) words+=("$line") ;;
		esac
	done
	if ((${#words[@]})); then
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
	fi
	if [[ -n $prefix ]]; then
		local i
		for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=$prefix${COMPREPLY[i]}; done
		compopt -o nospace 2>/dev/null
	fi
}

_ubtune() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd="" i values
	local self=${COMP_WORDS[0]}
	# the command as typed; a leading ~ is the shell's to expand
	[[ $self == "~/"* ]] && self=$HOME/${self#"~/"}
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--color | --width) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $prev == --color || $prev == --width ]]; then
			_ubtune_offer "$cur" < <("$self" __complete --value "$prev" 2>/dev/null)
		elif [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version --color --width" -- "$cur"))
		else
			_ubtune_offer "$cur" < <("$self" __complete 2>/dev/null)
		fi
		return
	fi
	# the value of the option before the cursor
	if [[ $prev == -* && $cur != -* ]]; then
		values=$("$self" __complete --value "$prev" "$cmd" 2>/dev/null)
		if [[ -n $values ]]; then
			local kind=word
			[[ $prev == --tests ]] && kind=list
			_ubtune_offer "$cur" "$kind" <<<"$values"
			return
		fi
	fi
	if [[ $cur == -* ]]; then
		_ubtune_offer "$cur" < <("$self" __complete "$cmd" 2>/dev/null)
	else
		_ubtune_offer "$cur" < <("$self" __complete --operands "$cmd" 2>/dev/null)
	fi
}
# bash finds this for "ubtune" and for any path ending in /ubtune
complete -F _ubtune ubtune
