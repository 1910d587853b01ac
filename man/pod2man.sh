#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run_spectrum.pl's man page from its own POD (the text of its --manual), with
# the sections that POD lacks added from EXTRA_POD: a section of EXTRA_POD
# whose =head1 the script already has is left out, so that the script's own
# text wins once it has one. Compressed with gzip -9n, as Debian wants.
#
# Usage: man/pod2man.sh SCRIPT EXTRA_POD VERSION OUTPUT.1.gz
set -euo pipefail

usage="usage: $0 SCRIPT EXTRA_POD VERSION OUTPUT.1.gz"
script=${1:?$usage}
extra=${2:?$usage}
version=${3:?$usage}
output=${4:?$usage}
name=$(basename "$script")

perl -e '
    my ($script, $extra) = @ARGV;
    local $/;
    open my $s, "<", $script or die "$script: $!\n";
    open my $e, "<", $extra or die "$extra: $!\n";
    my ($pod, $more) = (<$s>, <$e>);
    my %have = map { $_ => 1 } $pod =~ /^=head1\s+(.+?)\s*$/mg;
    print $pod, "\n";
    for my $section (split /^(?==head1\s)/m, $more) {
        my ($title) = $section =~ /^=head1\s+(.+?)\s*$/m;
        print $section, "\n" unless defined $title && $have{$title};
    }
' "$script" "$extra" |
    pod2man --errors=die --utf8 --section=1 --name="$name" --center="sctp-perf" \
        --release="sctp-perf $version" >"$output.tmp"
gzip -9n <"$output.tmp" >"$output.tmp.gz"
rm -f "$output.tmp"
mv "$output.tmp.gz" "$output"
