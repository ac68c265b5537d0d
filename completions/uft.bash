# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for uft, installed as share/bash-completion/completions/uft.
# The subcommands and their options are read from the command itself (`uft
# help` and `uft COMMAND -h`), so they follow it without a list to keep here;
# only what kind of value an option takes is written below.

# The subcommands `uft help` lists.
_uft_commands() {
	"$1" help 2>/dev/null | awk '/^commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# The options `uft COMMAND -h` names: in its usage line ([-x, (-x, | -x),
# at the start of a description line, or as a long alias (-x, --xyz).
_uft_options() {
	"$1" "$2" -h 2>&1 | grep -oE '(^ {1,6}|[[(|] ?)--?[a-zA-Z][a-zA-Z0-9_-]*|, --[a-zA-Z][a-zA-Z0-9_-]*' |
		grep -oE -- '--?[a-zA-Z][a-zA-Z0-9_-]*$' | sort -u
}

# The processes uft can reach (`uft ctl --list` prints PID COMM).
_uft_pids() {
	"$1" ctl --list 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { print $1 }'
}

_uft() {
	local uft=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_uft_commands "$uft")" -- "$cur")
		return
	fi
	local cmd=${COMP_WORDS[1]} i
	# After `--` (record, stream, ns) the rest is a command line of its own.
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			if declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			elif [ $((i + 1)) -eq "$COMP_CWORD" ]; then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
			else
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			fi
			return
		fi
	done
	# The value of the option before the cursor.
	case "$cmd:$prev" in
	record:-p | stream:-p)
		mapfile -t COMPREPLY < <(compgen -W "function function_graph" -- "$cur")
		return
		;;
	attach:-p)
		# Any process: it has no control socket yet.
		mapfile -t COMPREPLY < <(compgen -W "$(cd /proc && printf '%s\n' [0-9]*)" -- "$cur")
		return
		;;
	*:-p)
		mapfile -t COMPREPLY < <(compgen -W "$(_uft_pids "$uft")" -- "$cur")
		return
		;;
	*:-C)
		local clocks
		clocks=$("$uft" record -h 2>&1 | sed -n 's/.*trace clock: //p')
		mapfile -t COMPREPLY < <(compgen -W "$clocks" -- "$cur")
		return
		;;
	record:-M | stream:-M)
		mapfile -t COMPREPLY < <(compgen -W "overwrite discard" -- "$cur")
		return
		;;
	*:-o | *:-i | *:-S | sqlhist:-f | attach:-l)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	sqlhist:-t)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_uft_options "$uft" "$cmd")" -- "$cur")
		return
	fi
	case $cmd in
	ctl)
		# The first word after the options is what to do (ls, cat, ...).
		local words
		words=$("$uft" ctl -h 2>&1 | awk '/^  [a-z]+ / { print $1 }')
		local w seen=
		for ((i = 2; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			[[ " $words " == *" $w "* ]] && seen=1
		done
		[ -z "$seen" ] && mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		;;
	mount) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	list) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	esac
}
complete -F _uft uft
