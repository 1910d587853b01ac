// SPDX-License-Identifier: Apache-2.0
#pragma once
// The unit conversion every report shares: the histograms and recorders
// hold nanoseconds, the reports state microseconds.

namespace sctp_perf {

// Microseconds, from nanoseconds.
inline double us_of_ns(double ns) {
    return ns / 1000.0;
}

}  // namespace sctp_perf
