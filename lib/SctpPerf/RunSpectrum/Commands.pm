# SPDX-License-Identifier: Apache-2.0
# The programs a sweep runs and their command lines: the client's for one size,
# the server's for --start-server.
package SctpPerf::RunSpectrum::Commands;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);

our @EXPORT_OK = qw(program_names client_command server_command COMPARE_PROGRAM);

use constant {
    SERVER_MAX_CLIENTS => 10000,                 # the server's own default for --max-clients
    COMPARE_PROGRAM    => 'sctp-perf-compare',   # what --compare runs on each size's reports
};

sub program_names($service) {
    my $prefix = $service eq 'seqpack' ? 'SOCK_SEQPACK' : 'SOCK_STREAM';
    return ("${prefix}_clt", "${prefix}_srv");
}

# The client's command line for one size. JSON goes to $json_path, the ACE report to stdout.
sub client_command($s, $client, $size, $json_path) {
    my @cmd = ($client, $s->{by_bytes} ? ('--payload-bytes', $size->{bytes}) : ('-s', $size->{power}),
               '--json-file', $json_path);
    push @cmd, '-t', $s->{protocol} if $s->{service} eq 'stream';
    push @cmd, '-c', $s->{iterations} if defined $s->{iterations};
    push @cmd, '--rate', $s->{rate} if defined $s->{rate};
    push @cmd, '--throughput' if $s->{throughput};
    push @cmd, '--duration', $s->{duration} if defined $s->{duration};
    push @cmd, '--flows', $s->{flows} if defined $s->{flows};
    push @cmd, '-H', $s->{host} if defined $s->{host};
    push @cmd, '-p', $s->{port} if defined $s->{port};
    push @cmd, '--cpu', $s->{client_cpu} if defined $s->{client_cpu};
    return (@cmd, @{ $s->{config_args} }, @{ $s->{client_args} });
}

# The server's command line for --start-server. It binds to loopback unless --host
# was given, and mirrors the client's -n: Nagle is set on each end's own socket, so a
# test of Nagle needs it on both. Every flow is a client of the server, and the flows
# of one size may still be closing there when those of the next size connect, so with
# many --flows the server admits twice as many clients as one run opens.
sub server_command($s, $server) {
    my @cmd = ($server, '-p', $s->{port} // 0);
    push @cmd, '-a', '127.0.0.1' unless defined $s->{host};
    push @cmd, '-t', $s->{protocol} if $s->{service} eq 'stream';
    push @cmd, '-n' if grep { /\A(?:-n|--test[-_]enable[-_]nagle)\z/ } @{ $s->{config_args} }, @{ $s->{client_args} };
    push @cmd, '--max-clients', 2 * $s->{flows} if defined $s->{flows} && 2 * $s->{flows} > SERVER_MAX_CLIENTS;
    push @cmd, '--cpu', $s->{server_cpu} if defined $s->{server_cpu};
    return @cmd;
}
1;
