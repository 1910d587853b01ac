// SPDX-License-Identifier: Apache-2.0
// Writes a small HdrHistogram interval log of known values, for a check with
// HdrHistogram's own reader (hdr_log_reader.sh), and prints what our
// histogram says about the same values:
//   untagged count=N p99_us=X
//   uncorrected count=N p99_us=X
// Usage: hdr_log_sample LOG_FILE

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string_view>

#include "report/histogram_log.hpp"
#include "stats/log_linear_histogram.hpp"

namespace {

using sctp_perf::log_linear_histogram;

// Interval i (0 or 1) holds the round trips k * 1009 * (i + 1) ns for k in
// 1..1000, spanning the exact buckets' neighbourhood up to about 2 ms. The
// corrected series adds, as coordinated-omission correction would, 20
// samples of 5 ms + k µs per interval. Totals: 2000 uncorrected, 2040
// corrected samples.
void fill_interval(int interval, log_linear_histogram& uncorrected,
                   log_linear_histogram& corrected) {
    for (std::uint64_t k = 1; k <= 1000; ++k) {
        const std::uint64_t rtt_ns = k * 1009 * static_cast<std::uint64_t>(interval + 1);
        uncorrected.record(rtt_ns);
        corrected.record(rtt_ns);
    }
    for (std::uint64_t k = 1; k <= 20; ++k) {
        corrected.record(5'000'000 + k * 1000);
    }
}

void print_summary(std::string_view name, const log_linear_histogram& h) {
    std::cout << fmt::format("{} count={} p99_us={:.3f}\n", name, h.count(),
                             h.percentile_ns(990'000) / 1000.0);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: hdr_log_sample LOG_FILE\n";
        return 2;
    }
    std::ofstream file(argv[1]);
    if (!file) {
        std::cerr << "hdr_log_sample: cannot create " << argv[1] << "\n";
        return 1;
    }
    sctp_perf::histogram_log_writer writer(file, std::chrono::system_clock::now());
    log_linear_histogram all_uncorrected;
    log_linear_histogram all_corrected;
    for (int interval = 0; interval < 2; ++interval) {
        log_linear_histogram uncorrected;
        log_linear_histogram corrected;
        fill_interval(interval, uncorrected, corrected);
        const std::chrono::seconds start(interval);
        writer.write_interval(start, std::chrono::seconds(1), corrected);
        writer.write_interval(start, std::chrono::seconds(1), uncorrected, "uncorrected");
        all_uncorrected.merge(uncorrected);
        all_corrected.merge(corrected);
    }
    file.close();
    if (!file) {
        std::cerr << "hdr_log_sample: cannot write " << argv[1] << "\n";
        return 1;
    }
    print_summary("untagged", all_corrected);
    print_summary("uncorrected", all_uncorrected);
    return 0;
}
