# SPDX-License-Identifier: Apache-2.0
# vm-check-timeout: 3600
# run_spectrum.pl over SOCK_STREAM SCTP, every payload size, sent back to the
# host as sample-results/sctp-stream-vm. The limit is only a ceiling: the
# VM's budget (run-vm-sweeps.sh --vm-timeout) is what bounds it.
# shellcheck shell=sh
# shellcheck source=../../lib.sh
. /sctp-perf/lib.sh
# shellcheck source=../sweep-lib.sh
. /sctp-perf/sweep-lib.sh

run_sweep sctp-stream-vm stream
