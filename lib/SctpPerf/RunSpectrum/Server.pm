# SPDX-License-Identifier: Apache-2.0
# The server run_spectrum.pl starts for --start-server: started, its port read
# from its log, stopped.
package SctpPerf::RunSpectrum::Server;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);
use File::Basename qw(basename);
use File::Spec;
use Time::HiRes ();

use SctpPerf::RunSpectrum::Children qw(spawn wait_child stop_child describe_status read_text tail_lines CHILD_POLL_S);
use SctpPerf::RunSpectrum::Commands qw(server_command);
use SctpPerf::RunSpectrum::Errors qw(runtime_error note);

our @EXPORT_OK = qw(parse_server_port start_server stop_server);

use constant SERVER_PORT_WAIT_S => 10;    # for the server's "starting server at port P" line

# The port from the server's log line `(pid|tid) starting server at port P`, or undef.
# Newer servers put a timestamp before the `(pid|tid)`: `2026-01-02T03:04:05.678Z (pid|tid) ...`.
sub parse_server_port($log_text) {
    return $log_text =~ /^(?:\S+[ \t]+)?\([^)]*\)[ \t]*starting server at port ([1-9][0-9]*)[ \t]*$/m ? $1 + 0 : undef;
}

sub start_server($s, $server, $work_dir, $log_name = 'server.log') {
    my @cmd = server_command($s, $server);
    my $log = File::Spec->catfile($work_dir, $log_name);
    my $pid = spawn(\@cmd, stdout => $log);
    my $deadline = Time::HiRes::time() + SERVER_PORT_WAIT_S;
    while (1) {
        my $port = parse_server_port(read_text($log));
        if (defined $port) {
            note("started " . basename($server) . " (pid $pid) on port $port");
            return { pid => $pid, port => $port, log => $log, name => basename($server) };
        }
        my $status = wait_child($pid, 0);
        die runtime_error(basename($server) . " " . describe_status($status)
                          . " before reporting its port; its log:\n" . tail_lines(read_text($log)))
            if defined $status;
        if (Time::HiRes::time() >= $deadline) {
            stop_child($pid);
            die runtime_error(basename($server) . " did not report its port within ${\ SERVER_PORT_WAIT_S} s"
                              . " (expected a line 'starting server at port P'); its log:\n"
                              . tail_lines(read_text($log)));
        }
        Time::HiRes::sleep(CHILD_POLL_S);
    }
}

sub stop_server($server) {
    my $status = wait_child($server->{pid}, 0);
    if (defined $status) {
        note("$server->{name} had stopped by itself during the sweep: it " . describe_status($status)
             . "; its log:\n" . tail_lines(read_text($server->{log})));
        return;
    }
    stop_child($server->{pid});
    return;
}
1;
