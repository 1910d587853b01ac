#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Writes a bash completion for one program from the program's own --help, so
# that the completion knows every option the program does and stays in step
# with it: it is made again whenever the program is built.
#
# Usage: make-completion.pl NAME OUTPUT -- COMMAND...   (COMMAND prints the help)
#
# An option line of the help starts (indented by at most 6 spaces) with the
# option's names, then perhaps a value name, then the description after two
# or more spaces. Both layouts in use are read: Boost's
#   "  -t [ --test-transport-protocol ] arg (=sctp)   transport protocol ..."
# and Pod::Usage's
#   "    --service stream|seqpack"  or  "    --host HOST, --port PORT".
# An option followed by a value name takes a value; a value name of words
# joined by '|' (stream|seqpack) lists the values to complete (an upper-case
# word among them, MS in MS|off, stands for a value and is left out), and IFACE
# completes the host's network interfaces (/sys/class/net). Other values
# get bash's default completion (file names), which also suits the paths.
# A value name in brackets ("--help [GROUP]") may be left out: the option
# completes as a switch.
use v5.36;

my ($name, $output, $dashes, @command) = @ARGV;
die "usage: $0 NAME OUTPUT -- COMMAND...\n" unless defined $dashes && $dashes eq '--' && @command;

open my $help, '-|', @command or die "$0: cannot run @command: $!\n";
my @lines = <$help>;
close $help or die "$0: '@command' failed (status $?)\n";

my $option_re = qr/^--?[A-Za-z0-9][\w-]*$/;
my (@options, %takes_value, %choices, %interface);
for my $line (@lines) {
    next unless $line =~ /^ {0,6}(-\S.*)$/;
    my ($head) = split /\s{2,}/, $1;
    # An optional value ("--help [GROUP]") completes as a switch: the word
    # after it is as likely another option.
    my @tokens = grep { length } map { s/^[\[(]+|[\],)]+$//gr }
                 grep { !/^\[[A-Z][A-Z_]*\]$/ } split ' ', $head;
    my @group;    # options named together, before their value name
    for my $token (@tokens) {
        if ($token =~ $option_re) {
            push @group, $token;
        } elsif ($token =~ /^--\[no-\]([\w-]+)$/) {
            push @options, "--$1", "--no-$1";
        } elsif (@group && $token !~ /^[=(]/ && $token ne 'also') {
            $takes_value{$_} = 1 for @group;
            if ($token =~ /^\w[\w-]*(?:\|\w[\w-]*)+$/) {
                # An upper-case word is a placeholder (MS in MS|off): only
                # the words to type are completed.
                my @words = grep { $_ ne uc } split /\|/, $token;
                $choices{$_} = [@words] for @words ? @group : ();
            }
            if ($token eq 'IFACE') {
                $interface{$_} = 1 for @group;
            }
            push @options, @group;
            @group = ();
        }
    }
    push @options, @group;
}
my %seen;
@options = grep { !$seen{$_}++ } @options;
die "$0: no options found in the output of '@command'\n" unless @options;

(my $function = "_sctp_perf_$name") =~ s/\W/_/g;
my @with_values = grep { $takes_value{$_} && !$choices{$_} && !$interface{$_} } @options;
my @interfaces = grep { $interface{$_} } @options;
my %by_choices;
push @{ $by_choices{ join ' ', @{ $choices{$_} } } }, $_ for grep { $choices{$_} } @options;

open my $out, '>', "$output.tmp" or die "$0: cannot write $output.tmp: $!\n";
print $out <<"END";
# bash completion for $name, generated from its --help by sctp-perf's
# completion/make-completion.pl when $name was built. Do not edit.
$function() {
    local cur=\${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=\${COMP_WORDS[COMP_CWORD - 1]}
    # --option=value: bash splits the word at '='.
    if [[ \$prev == = ]] && ((COMP_CWORD > 1)); then
        prev=\${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ \$cur == = ]]; then
        prev=\${COMP_WORDS[COMP_CWORD - 1]} cur=
    fi
    COMPREPLY=()
    case \$prev in
END
for my $values (sort keys %by_choices) {
    printf $out "        %s)\n            mapfile -t COMPREPLY < <(compgen -W '%s' -- \"\$cur\")\n            return\n            ;;\n",
        join('|', @{ $by_choices{$values} }), $values;
}
if (@interfaces) {
    # An interface name (value name IFACE): the host's interfaces.
    printf $out "        %s)\n            mapfile -t COMPREPLY < <(compgen -W \"\$(ls /sys/class/net 2>/dev/null)\" -- \"\$cur\")\n            return\n            ;;\n",
        join('|', @interfaces);
}
if (@with_values) {
    # A value of its own: numbers, hosts, paths; bash's default completion.
    printf $out "        %s)\n            return\n            ;;\n", join('|', @with_values);
}
printf $out <<'END', join(' ', @options), $function, $name;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W '%s' -- "$cur")
    fi
}
complete -o default -F %s %s
END
close $out or die "$0: cannot write $output.tmp: $!\n";
rename "$output.tmp", $output or die "$0: cannot rename $output.tmp: $!\n";
