# SPDX-License-Identifier: Apache-2.0
# The client's check of its own options (--check-lines), before the first run.
package SctpPerf::RunSpectrum::ClientCheck;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Basename qw(basename);
use File::Spec;
use JSON::PP ();

use SctpPerf::RunSpectrum::Children qw(spawn wait_child stop_child describe_status read_text tail_lines);
use SctpPerf::RunSpectrum::Commands qw(client_command);
use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME usage_error runtime_error);
use SctpPerf::RunSpectrum::Failures qw(in_script_terms);
use SctpPerf::RunSpectrum::Options qw(size_text);
use SctpPerf::RunSpectrum::Writers qw(write_file_atomically);

our @EXPORT_OK = qw(check_client_commands);

use constant CLIENT_CHECK_TIMEOUT_S => 30;    # for the client's answer to --check-lines, which connects nowhere

# The limits of the client's options are the client's. Before the first run, and
# before a server is started, every command line the sweep or the comparison will
# run goes to the client, which checks each exactly as a run would (the descriptor
# and port limits included) and answers without connecting or resolving a host. A
# mistake is found at once and said in the client's words, not at the first size
# or the seventeenth, and the script keeps no copy of the client's rules to drift
# from them. Every size is checked, since the client's rules depend on the payload
# (-s 0..16, 16 bytes or more under load, --echo of 2 or more), and every one by
# a single client (--check-lines, one command line a line): a client's start
# costs more than its check, and a client started for each size was most of the
# time a sweep spent outside its measurements before it ran anything.

sub check_client_commands($s, $programs, $work_dir) {
    my (@labels, @lines, %seen);
    for my $planned (planned_client_commands($s, $programs, $work_dir)) {
        my ($label, $cmd) = @$planned;
        my (undef, @args) = @$cmd;
        next if $seen{ join "\0", @args }++;
        push @labels, $label;
        push @lines, \@args;
    }
    check_command_lines($programs->{client}, \@labels, \@lines, $work_dir);
    return;
}

# Each client command line the sweep or the comparison will run, as [ label,
# command ], in the order they run. A server the script starts listens on
# loopback, on a port known once it has started: until then the client's default
# port stands in, as no rule depends on it. The JSON file's name, which differs
# from run to run, is one name for every check: a check opens no file.
sub planned_client_commands($s, $programs, $work_dir) {
    my @sides = $s->{compare} ? @{ $s->{sides} } : ({ settings => $s });
    my $json = File::Spec->catfile($work_dir, 'client-check.json');
    my @planned;
    for my $size (@{ $s->{sizes} }) {
        for my $side (@sides) {
            my %settings = %{ $side->{settings} };
            $settings{host} //= '127.0.0.1' if $s->{start_server};
            my $label = size_text($size) . (defined $side->{name} ? " in $side->{name}" : '');
            push @planned, [ $label, [ client_command(\%settings, $programs->{client}, $size, $json) ] ];
        }
    }
    return @planned;
}

# Asks the client whether it takes each command line of @$lines (their words
# after the program's name), in order, in one run (--check-lines). It answers
# with the number of each line it takes, and stops at the first it does not with
# exit status 2 and --check's sentences. Returns when it takes them all; dies with
# a usage error in the client's words, naming the first refused line's label.
sub check_command_lines($client, $labels, $lines, $work_dir) {
    my $name = basename($client);
    my %file = map { $_ => File::Spec->catfile($work_dir, "client-check.$_") } qw(lines out err);
    # Words as JSON strings, numbers too (-s 4 is ["-s", "4"]), as a command line has them.
    my $encoder = JSON::PP->new->utf8;
    write_file_atomically($file{lines}, join '', map { $encoder->encode([ map { "$_" } @$_ ]) . "\n" } @$lines);
    my $pid = spawn([ $client, '--check-lines' ], stdin => $file{lines}, stdout => $file{out}, stderr => $file{err});
    my $status = wait_child($pid, CLIENT_CHECK_TIMEOUT_S);
    if (!defined $status) {
        stop_child($pid);
        die runtime_error("$name --check-lines did not answer within ${\ CLIENT_CHECK_TIMEOUT_S} s for the "
                          . scalar(@$lines) . ' command lines of the run');
    }
    my @taken = read_text($file{out}) =~ /^([0-9]+)$/mg;
    return if $status == 0 && "@taken" eq join ' ', 1 .. @$lines;
    my $said = read_text($file{err});
    die runtime_error("$client takes no $1: it is older than $SCRIPT_NAME; use the programs of the same "
                      . 'sctp-perf release (--bin-dir)')
        if $said =~ /unrecognised option '(--check[a-z_-]*)'/;
    my $label = $labels->[ scalar @taken ] // 'its command lines';
    die runtime_error("$name --check-lines for $label " . describe_status($status) . ', having taken '
                      . scalar(@taken) . ' of ' . scalar(@$lines) . " command lines; its stderr:\n" . tail_lines($said))
        unless ($status & 127) == 0 && $status >> 8 == 2;
    # One sentence a line, each after the program's name, then a pointer to its --help.
    my @sentences = map { in_script_terms($_) } $said =~ /^\Q$name\E: (.+)$/mg;
    die usage_error("$name refuses the options of $label, before any run: "
                    . (@sentences ? join('; ', @sentences) : "its stderr:\n" . tail_lines($said)));
}

1;
