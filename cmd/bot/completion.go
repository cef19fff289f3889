package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// completionCommand is `bot completion SHELL`.
func completionCommand() command {
	return command{
		name:    "completion",
		summary: "print a shell completion script for bash, zsh or fish",
		usage:   "bash|zsh|fish",
		args:    completeArgs{words: shells},
		about: "The script completes the commands, each command's flags and, where they take one, files. " +
			"It is generated from the same table as help, so it knows every flag help shows.",
		examples: []example{
			{"source <(bot completion bash)", "bash, for this shell; add the line to ~/.bashrc to keep it"},
			{"bot completion zsh > \"${fpath[1]}/_bot\"", "zsh: a file in $fpath, read by compinit in new shells"},
			{"bot completion fish > ~/.config/fish/completions/bot.fish", "fish"},
		},
		exits: []exit{{exitOK, "printed"}, {exitBadInput, "no shell, or one it does not know"}},
		flags: func(_ *flag.FlagSet, sio stdio) runFunc {
			return func(_ context.Context, args []string) int {
				if len(args) != 1 {
					fmt.Fprintln(sio.err, "bot completion: name one shell: bot completion bash, zsh or fish.")
					return exitBadInput
				}
				write, ok := map[string]func(io.Writer, []completionSpec){"bash": writeBash, "zsh": writeZsh, "fish": writeFish}[args[0]]
				if !ok {
					fmt.Fprintf(sio.err, "bot completion: %q is not a shell it writes for; give bash, zsh or fish.\n", args[0])
					return exitBadInput
				}
				write(sio.out, completionSpecs(sio))
				return exitOK
			}
		},
	}
}

// shells are the shells bot completion writes for.
var shells = []string{"bash", "zsh", "fish"}

// completionSpec is what a shell needs to know of one command.
type completionSpec struct {
	name, summary string
	flags         []flagSpec
	args          completeArgs
}

// flagSpec is one flag: its name, its help text, and whether it takes a
// value and whether that value is a file.
type flagSpec struct {
	name, text string
	value      bool
	file       bool
}

// completionSpecs reads every command's flags from its FlagSet, with the
// command names filled in where a command completes them (help).
func completionSpecs(sio stdio) []completionSpec {
	var out []completionSpec
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
		fs, _ := c.flagSet(sio)
		out = append(out, completionSpec{name: c.name, summary: c.summary, flags: flagSpecs(fs), args: c.args})
	}
	for i := range out {
		if out[i].args.commands {
			out[i].args.words = names
		}
	}
	return out
}

// flagSpecs lists fs's flags, and --help, which every command takes.
func flagSpecs(fs *flag.FlagSet) []flagSpec {
	var out []flagSpec
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		bf, isBool := f.Value.(interface{ IsBoolFlag() bool })
		value := !isBool || !bf.IsBoolFlag()
		file := false
		for _, w := range []string{"FILE", "PATH", "DIR"} {
			file = file || strings.Contains(arg, w)
		}
		out = append(out, flagSpec{name: f.Name, text: text, value: value, file: value && file})
	})
	out = append(out, flagSpec{name: "help", text: "this help"})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// shortText is a flag's or command's text cut to its first clause, for
// the one line a shell shows beside it.
func shortText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > 60 {
		if i := strings.LastIndex(s[:60], " "); i > 0 {
			s = s[:i] + "…"
		}
	}
	return s
}

// names joins the flags' names as --a --b, those that match keep.
func flagNames(fs []flagSpec, keep func(flagSpec) bool) string {
	var out []string
	for _, f := range fs {
		if keep(f) {
			out = append(out, "--"+f.name)
		}
	}
	return strings.Join(out, " ")
}

// writeBash writes a bash completion function for bot: the command at the
// first word that is not a flag or a flag's value, then its flags, the
// files a file flag takes, and its arguments.
func writeBash(w io.Writer, specs []completionSpec) {
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	all := func(f flagSpec) bool { return true }
	valued := func(f flagSpec) bool { return f.value }
	files := func(f flagSpec) bool { return f.file }
	fmt.Fprint(w, `# bash completion for bot (kepbot), written by "bot completion bash".
# Load it with: source <(bot completion bash)

_bot_flags() {
    case $1 in
`)
	// The default command (no name) takes serve's flags.
	for _, s := range specs {
		label := s.name
		if s.name == "serve" {
			label = "serve|''"
		}
		fmt.Fprintf(w, "        %s) echo %q ;;\n", label, flagNames(s.flags, all))
	}
	fmt.Fprintf(w, "    esac\n}\n\n_bot_valued() {\n    case $1 in\n")
	for _, s := range specs {
		label := s.name
		if s.name == "serve" {
			label = "serve|''"
		}
		fmt.Fprintf(w, "        %s) echo %q ;;\n", label, flagNames(s.flags, valued))
	}
	fmt.Fprintf(w, "    esac\n}\n\n_bot_files() {\n    case $1 in\n")
	for _, s := range specs {
		label := s.name
		if s.name == "serve" {
			label = "serve|''"
		}
		fmt.Fprintf(w, "        %s) echo %q ;;\n", label, flagNames(s.flags, files))
	}
	fmt.Fprintf(w, "    esac\n}\n\n_bot_args() {\n    case $1 in\n")
	for _, s := range specs {
		switch {
		case s.args.files:
			fmt.Fprintf(w, "        %s) echo @files ;;\n", s.name)
		case len(s.args.words) > 0:
			fmt.Fprintf(w, "        %s) echo %q ;;\n", s.name, strings.Join(s.args.words, " "))
		}
	}
	fmt.Fprintf(w, `    esac
}

_bot() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd='' i word name skip=''
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -n $skip ]]; then skip=''; continue; fi
        case $word in
            --*=*|-*=*) ;;
            -*) name=${word#-}; [[ " $(_bot_valued "$cmd") " == *" --${name#-} "* ]] && skip=1 ;;
            *) if [[ -z $cmd ]]; then cmd=$word; fi ;;
        esac
    done
    name=${prev#-}; name=--${name#-}
    if [[ $prev == -* && " $(_bot_valued "$cmd") " == *" $name "* ]]; then
        if [[ " $(_bot_files "$cmd") " == *" $name "* ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        else
            COMPREPLY=()
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        local extra=''
        [[ -z $cmd ]] && extra='--version'
        COMPREPLY=($(compgen -W "$(_bot_flags "$cmd") $extra" -- "$cur"))
        return
    fi
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
        return
    fi
    local args
    args=$(_bot_args "$cmd")
    if [[ $args == @files ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ -n $args ]]; then
        COMPREPLY=($(compgen -W "$args" -- "$cur"))
    fi
}

complete -o filenames -F _bot bot
`, strings.Join(names, " "))
}

// zshQuote escapes s for a description inside _arguments' [...] or
// _describe's name:description, in single quotes.
func zshQuote(s string) string {
	r := strings.NewReplacer("'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`)
	return r.Replace(shortText(s))
}

// zshFlags writes one _arguments spec a flag.
func zshFlags(w io.Writer, fs []flagSpec, indent string) {
	for _, f := range fs {
		switch {
		case f.name == "help":
			fmt.Fprintf(w, "%s'(-h --help)'{-h,--help}'[this help]' \\\n", indent)
		case f.file:
			fmt.Fprintf(w, "%s'--%s=[%s]:%s:_files' \\\n", indent, f.name, zshQuote(f.text), f.name)
		case f.value:
			fmt.Fprintf(w, "%s'--%s=[%s]:%s: ' \\\n", indent, f.name, zshQuote(f.text), f.name)
		default:
			fmt.Fprintf(w, "%s'--%s[%s]' \\\n", indent, f.name, zshQuote(f.text))
		}
	}
}

// writeZsh writes a zsh completion function for bot (#compdef bot), with
// each command's summary and each flag's text beside it.
func writeZsh(w io.Writer, specs []completionSpec) {
	fmt.Fprint(w, `#compdef bot
# zsh completion for bot (kepbot), written by "bot completion zsh".
# Save it as _bot in a folder of $fpath, before compinit runs.

_bot() {
    local curcontext=$curcontext state line
    local -a commands
    commands=(
`)
	var serve completionSpec
	for _, s := range specs {
		fmt.Fprintf(w, "        '%s:%s'\n", s.name, zshQuote(s.summary))
		if s.name == "serve" {
			serve = s
		}
	}
	fmt.Fprint(w, "    )\n    _arguments -C \\\n        '--version[the version and commit]' \\\n")
	zshFlags(w, serve.flags, "        ")
	fmt.Fprint(w, `        '1: :->command' \
        '*:: :->args'
    case $state in
    command)
        _describe -t commands 'bot command' commands
        ;;
    args)
        case $line[1] in
`)
	for _, s := range specs {
		fmt.Fprintf(w, "        %s)\n            _arguments \\\n", s.name)
		zshFlags(w, s.flags, "                ")
		switch {
		case s.args.files:
			fmt.Fprint(w, "                '*:file:_files'\n")
		case len(s.args.words) > 0:
			fmt.Fprintf(w, "                '*:argument:(%s)'\n", strings.Join(s.args.words, " "))
		default:
			fmt.Fprint(w, "                '*: :'\n")
		}
		fmt.Fprint(w, "            ;;\n")
	}
	fmt.Fprint(w, `        esac
        ;;
    esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _bot "$@"
else
    compdef _bot bot
fi
`)
}

// fishQuote quotes s for fish, in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(shortText(s)) + "'"
}

// writeFish writes fish completions for bot: the commands while none is
// given, then each command's flags and arguments.
func writeFish(w io.Writer, specs []completionSpec) {
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	list := strings.Join(names, " ")
	fmt.Fprint(w, "# fish completion for bot (kepbot), written by \"bot completion fish\".\n")
	fmt.Fprint(w, "# Save it as ~/.config/fish/completions/bot.fish\n\n")
	fmt.Fprint(w, "complete -c bot -f\n")
	fmt.Fprintf(w, "complete -c bot -n 'not __fish_seen_subcommand_from %s' -l version -d 'the version and commit'\n", list)
	for _, s := range specs {
		fmt.Fprintf(w, "complete -c bot -n 'not __fish_seen_subcommand_from %s' -a %s -d %s\n", list, s.name, fishQuote(s.summary))
	}
	for _, s := range specs {
		cond := fmt.Sprintf("'__fish_seen_subcommand_from %s'", s.name)
		if s.name == "serve" { // bot with no command takes serve's flags
			cond = fmt.Sprintf("'__fish_seen_subcommand_from serve; or not __fish_seen_subcommand_from %s'", list)
		}
		for _, f := range s.flags {
			opt := "-l " + f.name
			if f.name == "help" {
				opt = "-s h -l help"
			}
			switch {
			case f.file:
				opt += " -r -F"
			case f.value:
				opt += " -x"
			}
			fmt.Fprintf(w, "complete -c bot -n %s %s -d %s\n", cond, opt, fishQuote(f.text))
		}
		switch {
		case s.args.files:
			fmt.Fprintf(w, "complete -c bot -n %s -F\n", cond)
		case len(s.args.words) > 0:
			fmt.Fprintf(w, "complete -c bot -n %s -a '%s'\n", cond, strings.Join(s.args.words, " "))
		}
	}
}
