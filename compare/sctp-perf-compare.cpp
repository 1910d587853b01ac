// SPDX-License-Identifier: Apache-2.0
// sctp-perf-compare: compares two sets of client reports, percentile by
// percentile, and can act as a regression gate. Glue only.

#include "compare/compare_main.hpp"

int main(int argc, char** argv) {
    return sctp_perf::compare::compare_main(argc, argv);
}
