// SPDX-License-Identifier: Apache-2.0
#include "report/interval_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

#include "options/start_time.hpp"
#include "report/defined_statistics.hpp"

namespace sctp_perf {
namespace {

constexpr std::uint32_t p50_ppm = 500'000;
constexpr std::uint32_t p99_ppm = 990'000;

// A rate over a zero-length interval has no meaning; 0 keeps the output a number.
double mb_per_s(std::uint64_t bytes, double length_s) {
    return length_s > 0 ? static_cast<double>(bytes) / length_s / 1e6 : 0.0;
}

bool has_latency(const interval_sample& s) {
    return s.latency != nullptr && s.latency->count() > 0;
}

// percentile_ns requires a non-empty histogram; callers check has_latency first.
std::string percentile_us(const log_linear_histogram& h, std::uint32_t ppm) {
    return fmt::format("{:.3f}", h.percentile_ns(ppm) / 1000.0);
}

std::string max_us(const log_linear_histogram& h) {
    return fmt::format("{:.3f}", static_cast<double>(h.max_ns()) / 1000.0);
}

std::string min_us(const log_linear_histogram& h) {
    return fmt::format("{:.3f}", static_cast<double>(h.min_ns()) / 1000.0);
}

std::string mean_us(const log_linear_histogram& h) {
    return fmt::format("{:.3f}", h.mean_ns() / 1000.0);
}

// The sample standard deviation (n - 1), or `undefined` with fewer than two
// samples (defined_statistics.hpp).
std::string stddev_us(const interval_sample& s, const char* undefined) {
    const auto sd = s.latency != nullptr ? defined_stddev_us(*s.latency) : std::nullopt;
    return sd ? fmt::format("{:.3f}", *sd) : undefined;
}

// How many timed replies the interval's latency figures come from.
std::uint64_t latency_samples(const interval_sample& s) {
    return s.latency != nullptr ? s.latency->count() : 0;
}

std::string ends_at(const interval_sample& s, const char* unknown) {
    return s.ends_at ? utc_iso_text(*s.ends_at) : unknown;
}

const char* latency_kind(const interval_sample& s) {
    return s.latency_corrected ? "corrected" : "uncorrected";
}

// " | primary ADDR events N | ADDR STATE srtt S rto R cwnd C, ..."
std::string paths_text(const interval_paths_sample& p) {
    std::string text =
        fmt::format(" | primary {} events {} |", p.primary.empty() ? "-" : p.primary, p.events);
    for (std::size_t k = 0; k < p.paths.size(); ++k) {
        const auto& path = p.paths[k];
        text += fmt::format("{} {} {} srtt {} rto {} cwnd {}", k == 0 ? "" : ",", path.address,
                            path.state, path.srtt_ms, path.rto_ms, path.cwnd_bytes);
    }
    return text;
}

}  // namespace

std::string format_interval_line(const interval_sample& s) {
    const bool latency = has_latency(s);
    const std::string p50 = latency ? percentile_us(*s.latency, p50_ppm) : "-";
    const std::string p99 = latency ? percentile_us(*s.latency, p99_ppm) : "-";
    const std::string max = latency ? max_us(*s.latency) : "-";
    const std::string min = latency ? min_us(*s.latency) : "-";
    const std::string mean = latency ? mean_us(*s.latency) : "-";
    const std::string sd = stddev_us(s, "-");
    return fmt::format(
               "[{:8.3f} s] sent {:>8} recv {:>8} | {:9.3f} MB/s out {:9.3f} MB/s in | "
               "{:<11} p50 {:>10} p99 {:>10} max {:>10} us | cpu {:5.1f} % rss {:8.1f} MiB | "
               "min {:>10} mean {:>10} sd {:>10} us | {:<27}",
               s.elapsed_s, s.messages_sent, s.messages_received,
               mb_per_s(s.bytes_sent, s.length_s), mb_per_s(s.bytes_received, s.length_s),
               latency_kind(s), p50, p99, max, s.cpu_percent,
               static_cast<double>(s.rss_kib) / 1024.0, min, mean, sd, ends_at(s, "-")) +
           (s.paths != nullptr ? paths_text(*s.paths) : std::string());
}

void interval_csv_writer::write(const interval_sample& s) {
    if (!header_written_) {
        out_ << "elapsed_s,length_s,messages_sent,messages_received,mb_per_s_sent,"
                "mb_per_s_received,p50_us,p99_us,max_us,latency_kind,cpu_percent,rss_kib,"
                "utc,min_us,mean_us,stddev_us,latency_samples";
        if (s.paths != nullptr) {
            out_ << ",primary_path,path_events";
            path_columns_ = s.paths->paths.size();
            for (std::size_t k = 1; k <= path_columns_; ++k) {
                out_ << fmt::format(
                    ",path{0}_address,path{0}_state,path{0}_srtt_ms,path{0}_rto_ms,"
                    "path{0}_cwnd_bytes",
                    k);
            }
        }
        out_ << '\n';
        header_written_ = true;
    }
    const bool latency = has_latency(s);
    out_ << fmt::format(
        "{:.3f},{:.3f},{},{},{:.6f},{:.6f},{},{},{},{},{:.1f},{}", s.elapsed_s, s.length_s,
        s.messages_sent, s.messages_received, mb_per_s(s.bytes_sent, s.length_s),
        mb_per_s(s.bytes_received, s.length_s), latency ? percentile_us(*s.latency, p50_ppm) : "",
        latency ? percentile_us(*s.latency, p99_ppm) : "", latency ? max_us(*s.latency) : "",
        latency_kind(s), s.cpu_percent, s.rss_kib);
    out_ << fmt::format(",{},{},{},{},{}", ends_at(s, ""), latency ? min_us(*s.latency) : "",
                        latency ? mean_us(*s.latency) : "", stddev_us(s, ""), latency_samples(s));
    if (s.paths != nullptr) {
        out_ << fmt::format(",{},{}", s.paths->primary, s.paths->events);
        // As many paths as the header named: one added later is left out,
        // one gone leaves its columns empty.
        for (std::size_t k = 0; k < path_columns_; ++k) {
            if (k < s.paths->paths.size()) {
                const auto& path = s.paths->paths[k];
                out_ << fmt::format(",{},{},{},{},{}", path.address, path.state, path.srtt_ms,
                                    path.rto_ms, path.cwnd_bytes);
            } else {
                out_ << ",,,,,";
            }
        }
    }
    out_ << '\n';
    out_.flush();
}

}  // namespace sctp_perf
