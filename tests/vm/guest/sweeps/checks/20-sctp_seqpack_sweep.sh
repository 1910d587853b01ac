# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 3600
# run_spectrum.pl over SOCK_SEQPACK (one-to-many SCTP), every payload size,
# sent back to the host as sample-results/sctp-seqpack-vm. The limit is only
# a ceiling: the VM's budget (run-vm-sweeps.sh --vm-timeout) bounds it.
# shellcheck shell=sh
# shellcheck source=../../lib.sh
. /sctp-perf/lib.sh
# shellcheck source=../sweep-lib.sh
. /sctp-perf/sweep-lib.sh

run_sweep sctp-seqpack-vm seqpack
