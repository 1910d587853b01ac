// The ACE histogram layout, kept so that existing readers go on working, with
// the original's flaws fixed: the Count column widens to fit any count,
// Fraction and Cumulative are both rounded from exact counts (so they agree),
// the outliers are the most extreme ones (with their iteration numbers), and
// one point has variance 0, not NaN.

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>
#include <string>

#include "report/load_report.hpp"
#include "report/run_report.hpp"
#include "report/sctp_report.hpp"
#include "version.hpp"

namespace sctp_perf {
namespace {

// "a,b,c", or "(unknown)" when the kernel could not say.
std::string join(const std::vector<std::string>& parts) {
    return parts.empty() ? "(unknown)" : fmt::format("{}", fmt::join(parts, ","));
}

void write_bins(std::ostream& out, const binned_histogram& bins) {
    const auto& layout = bins.layout();
    const std::uint64_t total = bins.total();
    std::uint64_t largest = std::max(bins.below(), bins.above());
    for (std::size_t i = 0; i < layout.bin_count; ++i) {
        largest = std::max(largest, bins.bin(i));
    }
    const auto width = std::max<std::size_t>(5, fmt::formatted_size("{}", largest));
    std::uint64_t cumulative = 0;
    const auto row = [&](const std::string& low, const std::string& high, std::uint64_t count) {
        cumulative += count;
        const double fraction = total ? static_cast<double>(count) / total : 0.0;
        const double cumulative_fraction = total ? static_cast<double>(cumulative) / total : 0.0;
        fmt::print(out, "\t{:>12}  -  {:>12}  :  {:>{}}    {:0.3f}    {:0.3f}\n", low, high, count,
                   width, fraction, cumulative_fraction);
    };

    fmt::print(out, "\t      Low     -          High     {:>{}}  Fraction  Cumulative\n", "Count",
               width);
    row("below   ", fmt::format("{:.3f}", layout.min_us), bins.below());
    for (std::size_t i = 0; i < layout.bin_count; ++i) {
        row(fmt::format("{:.3f}", bins.bin_low(i)), fmt::format("{:.3f}", bins.bin_high(i)),
            bins.bin(i));
    }
    row(fmt::format("{:.3f}", layout.max_us), "above   ", bins.above());
}

void write_run_description(std::ostream& out, const run_report& r) {
    const auto& o = r.options;
    const auto& env = r.environment;
    fmt::print(out, "run:\n");
    fmt::print(out, "\tprogram: {} (sctp-perf {})\n", r.program.name, version_string);
    fmt::print(out, "\ttransport: {} over SOCK_{}, Nagle {}\n", name_of(o.common.transport),
               r.program.service == "seqpack" ? "SEQPACKET" : "STREAM",
               o.common.nagle ? "on" : "off");
    fmt::print(out, "\tpayload: {} bytes (2^{}), reply {} bytes\n", o.payload_bytes(),
               o.payload_power, reply_bytes_of(o));
    if (r.load == nullptr) {
        fmt::print(out, "\titerations: {} measured, after 100 unrecorded primer iterations\n",
                   r.recorder->summary().count());
    } else {
        fmt::print(out, "\tprimer: 100 unrecorded round trips on each flow before the load\n");
    }
    if (r.server_settings.is_object()) {
        const auto& s = r.server_settings;
        fmt::print(
            out, "\tserver settings: {} {} on {}, Nagle {}, CPU affinity {}, sndbuf {} rcvbuf {}\n",
            s.value("program", "?"), s.value("tool_version", "?"), s.value("host", "?"),
            s.value("nagle", false) ? "on" : "off", s.value("cpu_affinity", "?"),
            s.value("sndbuf_bytes", 0), s.value("rcvbuf_bytes", 0));
    }
    if (r.client_buffers) {
        fmt::print(out, "\tclient socket buffers: sndbuf {} rcvbuf {} (read back)\n",
                   r.client_buffers->send_bytes, r.client_buffers->receive_bytes);
    }
    fmt::print(out, "\tserver: {} port {}, connected to {}\n", join(o.server_hosts), o.server_port,
               join(r.peer_addresses));
    fmt::print(out, "\tclient: {}\n", join(r.local_addresses));
    fmt::print(out, "\thost: {}, {}, {} CPUs online, client CPU affinity {}\n", env.hostname,
               env.kernel, env.cpu_count, env.client_cpu_affinity);
    if (r.sctp_rto_socket) {
        fmt::print(out, "\tsctp rto (ms): socket initial {} min {} max {}",
                   r.sctp_rto_socket->initial_ms, r.sctp_rto_socket->min_ms,
                   r.sctp_rto_socket->max_ms);
        if (r.sctp_rto_system) {
            fmt::print(out, "; system net.sctp.rto_initial {} rto_min {} rto_max {}",
                       r.sctp_rto_system->initial_ms, r.sctp_rto_system->min_ms,
                       r.sctp_rto_system->max_ms);
        }
        fmt::print(out, "\n");
    }
    write_sctp_and_transport_lines(out, r);
    fmt::print(out, "\tstarted: {}, measured for {:.3f} s\n", env.started_at, r.duration_s);
    fmt::print(out,
               "\tunits: microseconds of a full round trip (request out, reply back), not "
               "halved\n");
}

}  // namespace

void write_ace_report(std::ostream& out, const run_report& r) {
    if (r.load != nullptr) {
        write_load_summary(out, *r.load);
        write_run_description(out, r);
        return;
    }
    const latency_recorder& rec = *r.recorder;
    const auto& summary = rec.summary();
    const auto& bins = rec.bins();
    fmt::print(out, "\n\n\t\t\t\tHistogram ACE Unmarshalled Msg Synchronous Latency Test\n");
    fmt::print(out, "\t\t\t\t\t(Message Size {}, Message Type octet)\n", r.options.payload_bytes());
    if (summary.count() == 0) {
        fmt::print(out, "Histogram ACE Unmarshalled Msg Synchronous Latency Test is empty\n");
        return;
    }
    fmt::print(out, "version: 1.1\n");
    fmt::print(out, "minimum: {:.3f}\n", summary.min());
    fmt::print(out, "maximum: {:.3f}\n", summary.max());
    fmt::print(out, "mean: {:.3f}\n", summary.mean());
    fmt::print(out, "variance: {:.9g}\n", summary.sample_variance());
    fmt::print(out, "num_points: {}\n", summary.count());
    fmt::print(out, "num_bins: {} {:g} {:g}\n\n", bins.layout().bin_count, bins.layout().min_us,
               bins.layout().max_us);
    write_bins(out, bins);
    fmt::print(out, "\noutliers:\n");
    for (const auto& o : bins.outliers()) {
        fmt::print(out, "\t{:12.3f}  (iteration {})\n", o.value_us, o.iteration);
    }
    fmt::print(out, "\npercentiles:\n");
    for (const auto& p : reported_percentiles) {
        fmt::print(out, "\t{:<8}{:12.3f}\n", p.label,
                   rec.percentiles().percentile_ns(p.parts_per_million) / 1000.0);
    }
    fmt::print(out, "\t{:<8}{:12.3f}\n\n", "max", summary.max());
    write_run_description(out, r);
}

}  // namespace sctp_perf
