# SPDX-License-Identifier: Apache-2.0
# run_spectrum.pl's errors and its one voice on stderr. A usage error exits with
# 2, a runtime failure with 1; an interrupt re-raises its signal once the
# children are stopped (run_spectrum.pl's main).
package SctpPerf::RunSpectrum::Errors;

use strict;
use warnings;
use feature qw(signatures);
no warnings qw(experimental::signatures);

use Exporter qw(import);

our @EXPORT_OK = qw($SCRIPT_NAME usage_error runtime_error interrupted rethrow_interrupt note bytes_text);

# The name every message starts with, whatever the file is called.
our $SCRIPT_NAME = 'run_spectrum.pl';

sub usage_error($message)   { return bless { status => 2, message => $message }, 'SctpPerf::RunSpectrum::Error' }
sub runtime_error($message) { return bless { status => 1, message => $message }, 'SctpPerf::RunSpectrum::Error' }
sub interrupted($signal)    { return bless { signal => $signal }, 'SctpPerf::RunSpectrum::Interrupted' }

# An eval that handles a failure of its own must not swallow an interrupt that
# happened to arrive inside it: the sweep would record a garbled failure and
# go on (with --keep-going, Ctrl-C would be ignored altogether).
sub rethrow_interrupt($error) {
    die $error if ref $error eq 'SctpPerf::RunSpectrum::Interrupted';
    return;
}

sub note($message) {
    $message =~ s/\n+\z//;
    print STDERR "$SCRIPT_NAME: $message\n";
    return;
}

sub bytes_text($bytes) { return $bytes == 1 ? '1 byte' : "$bytes bytes" }

1;
