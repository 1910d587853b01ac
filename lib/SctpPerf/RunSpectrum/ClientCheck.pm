# SPDX-License-Identifier: Apache-2.0
# The client's check of its own options (--check), before the first run.
package SctpPerf::RunSpectrum::ClientCheck;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Basename qw(basename);
use File::Spec;

use SctpPerf::RunSpectrum::Children qw(spawn wait_child stop_child describe_status read_text tail_lines);
use SctpPerf::RunSpectrum::Commands qw(client_command);
use SctpPerf::RunSpectrum::Errors qw($SCRIPT_NAME usage_error runtime_error);
use SctpPerf::RunSpectrum::Failures qw(in_script_terms);
use SctpPerf::RunSpectrum::Options qw(size_text);

our @EXPORT_OK = qw(check_client_commands);

use constant CLIENT_CHECK_TIMEOUT_S => 30;    # for the client's answer to --check, which connects nowhere

# The limits of the client's options are the client's. Before the first run, and
# before a server is started, each command line the sweep or the comparison will
# run goes to the client with --check, which validates it exactly as a run would
# (the descriptor and port limits included) and exits 0, or 2 with the run's own
# sentences, without connecting or resolving a host. A mistake is found at once
# and said in the client's words, not at the first size or the seventeenth, and
# the script keeps no copy of the client's rules to drift from them. Every size is
# checked, since the client's rules depend on the payload (-s 0..16, 16 bytes or
# more under load, --echo of 2 or more); a check costs milliseconds, a run seconds.

sub check_client_commands($s, $programs, $work_dir) {
    my %checked;
    for my $planned (planned_client_commands($s, $programs, $work_dir)) {
        my ($label, $cmd) = @$planned;
        check_client_command($label, $cmd, $work_dir) unless $checked{ join "\0", @$cmd }++;
    }
    return;
}

# Each client command line the sweep or the comparison will run, as [ label,
# command ], in the order they run. A server the script starts listens on
# loopback, on a port known once it has started: until then the client's default
# port stands in, as no rule depends on it. The JSON file's name, which differs
# from run to run, is one name for every check: --check opens no file.
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

# Asks the client whether it takes one command line (--check). Returns when it
# does; dies with a usage error in the client's words when it does not.
sub check_client_command($label, $cmd, $work_dir) {
    my ($client, @args) = @$cmd;
    my $name = basename($client);
    my $err = File::Spec->catfile($work_dir, 'client-check.err');
    my $pid = spawn([ $client, '--check', @args ], stdout => File::Spec->devnull, stderr => $err);
    my $status = wait_child($pid, CLIENT_CHECK_TIMEOUT_S);
    if (!defined $status) {
        stop_child($pid);
        die runtime_error("$name --check did not answer within ${\ CLIENT_CHECK_TIMEOUT_S} s for $label");
    }
    return if $status == 0;
    my $said = read_text($err);
    die runtime_error("$client takes no --check: it is older than $SCRIPT_NAME; use the programs of the same "
                      . 'sctp-perf release (--bin-dir)')
        if $said =~ /unrecognised option '--check'/;
    die runtime_error("$name --check for $label " . describe_status($status) . "; its stderr:\n" . tail_lines($said))
        unless ($status & 127) == 0 && $status >> 8 == 2;
    # One sentence a line, each after the program's name, then a pointer to its --help.
    my @sentences = map { in_script_terms($_) } $said =~ /^\Q$name\E: (.+)$/mg;
    die usage_error("$name refuses the options of $label, before any run: "
                    . (@sentences ? join('; ', @sentences) : "its stderr:\n" . tail_lines($said)));
}
1;
