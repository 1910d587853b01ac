// SPDX-License-Identifier: Apache-2.0
// The text report. First what a reader needs at a glance: the percentiles,
// how the run was made at both ends, and any warning about how far to trust
// it. Then ACE's histogram report, last and in ACE's layout, so that a reader
// of ACE's output finds its lines where it expects them and nothing after
// the outlier values.
//
// ACE's flaws are fixed in that block: the Count column widens to fit any
// count, Fraction and Cumulative are both rounded from exact counts (so they
// agree), the outliers are the most extreme ones, and one point has variance
// 0, not NaN. Bins with a count of 0 are left out unless --all-bins is given
// (the Cumulative column of the rows kept is unchanged by that).

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include "protocol/server_settings_blob.hpp"
#include "report/load_report.hpp"
#include "report/one_way_report.hpp"
#include "report/round_trip_split_report.hpp"
#include "report/run_notes.hpp"
#include "report/run_report.hpp"
#include "report/sctp_report.hpp"
#include "transport/socket_setup.hpp"
#include "version.hpp"

namespace sctp_perf {
namespace {

// "a,b,c", or "(unknown)" when the kernel could not say.
std::string join(const std::vector<std::string>& parts) {
    return parts.empty() ? "(unknown)" : fmt::format("{}", fmt::join(parts, ","));
}

std::string describe_placement(const end_placement& p) {
    if (p.cpu_affinity.empty()) {
        return "CPU affinity unknown";
    }
    return fmt::format("CPU affinity {} of {} online ({})", p.cpu_affinity, p.cpu_count,
                       p.pinned ? "pinned" : "not pinned");
}

// An end's waiting policy: "spin on", "spin off" (sleeps at once) or "spin
// off, polls 50 us before sleeping" (--poll-before-sleep).
std::string describe_waiting(bool spin, std::chrono::microseconds poll_before_sleep) {
    if (spin || poll_before_sleep.count() == 0) {
        return spin ? "spin on" : "spin off";
    }
    return fmt::format("spin off, polls {} us before sleeping", poll_before_sleep.count());
}

void write_bins(std::ostream& out, const binned_histogram& bins, bool all_bins) {
    const auto& layout = bins.layout();
    const std::uint64_t total = bins.total();
    std::uint64_t largest = std::max(bins.below(), bins.above());
    for (std::size_t i = 0; i < layout.bin_count; ++i) {
        largest = std::max(largest, bins.bin(i));
    }
    // ACE's %5u, widened when a count needs more.
    const auto width = std::max<std::size_t>(5, fmt::formatted_size("{}", largest));
    std::uint64_t cumulative = 0;
    const auto row = [&](const std::string& range, std::uint64_t count) {
        cumulative += count;
        const double fraction = total ? static_cast<double>(count) / total : 0.0;
        const double cumulative_fraction = total ? static_cast<double>(cumulative) / total : 0.0;
        fmt::print(out, "\t{}  :  {:>{}}    {:0.3f}    {:0.3f}\n", range, count, width, fraction,
                   cumulative_fraction);
    };

    fmt::print(out, "\t      Low     -          High     {:>{}}  Fraction  Cumulative\n", "Count",
               width);
    // The labels sit where ACE put them: "below" under "Low", "above" under "High".
    row(fmt::format("     below    -  {:12.3f}", layout.min_us), bins.below());
    for (std::size_t i = 0; i < layout.bin_count; ++i) {
        if (bins.bin(i) != 0 || all_bins) {
            row(fmt::format("{:12.3f}  -  {:12.3f}", bins.bin_low(i), bins.bin_high(i)),
                bins.bin(i));
        }
    }
    row(fmt::format("{:12.3f}  -       above  ", layout.max_us), bins.above());
}

void write_ace_histogram(std::ostream& out, const run_report& r) {
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
    write_bins(out, bins, r.options.all_bins);
    fmt::print(out, "\noutliers:\n");
    for (const auto& o : bins.outliers()) {
        fmt::print(out, "\t{:12.3f}\n", o.value_us);
    }
}

void write_percentiles(std::ostream& out, const latency_recorder& rec) {
    const auto& summary = rec.summary();
    fmt::print(out, "percentiles (microseconds):\n");
    fmt::print(out, "\t{:<8}{:12.3f}\n", "min", summary.min());
    for (const auto& p : reported_percentiles) {
        fmt::print(out, "\t{:<8}{:12.3f}\n", p.label,
                   rec.percentiles().percentile_ns(p.parts_per_million) / 1000.0);
    }
    fmt::print(out, "\t{:<8}{:12.3f}\n", "max", summary.max());
    const auto beyond = rec.percentiles().beyond_range_count();
    if (beyond != 0) {
        fmt::print(out,
                   "\t({} round trips took longer than the percentile range, {:.0f} s: they are "
                   "counted at its top)\n",
                   beyond, log_linear_histogram::highest_trackable_ns() / 1e9);
    }
}

// The kept outliers with their iteration numbers, which ACE's block cannot
// carry (a reader of it takes every line after "outliers:" as a value).
// With --repeat, each with its run too.
void write_outlier_iterations(std::ostream& out, const binned_histogram& bins,
                              const repeat_account* repeats) {
    const auto kept = bins.outliers();
    if (kept.empty()) {
        return;
    }
    fmt::print(out,
               "\noutliers ({} below {:g} us, {} at or above {:g} us; the {} most extreme, "
               "with their {}):\n",
               bins.below(), bins.layout().min_us, bins.above(), bins.layout().max_us, kept.size(),
               repeats != nullptr ? "runs, counted from 1, and iteration numbers in the run, from 0"
                                  : "iteration numbers counted from 0");
    for (const auto& o : kept) {
        if (repeats != nullptr) {
            const auto where = locate_iteration(*repeats, o.iteration);
            fmt::print(out, "\t{:12.3f}  run {}, iteration {}\n", o.value_us, where.run,
                       where.iteration);
        } else {
            fmt::print(out, "\t{:12.3f}  iteration {}\n", o.value_us, o.iteration);
        }
    }
}

void write_clock_line(std::ostream& out, const run_report& r) {
    if (!r.clock) {
        return;
    }
    const auto& c = *r.clock;
    fmt::print(out, "\tclock: CLOCK_MONOTONIC from {}, resolution {} ns, one read {:.1f} ns",
               c.source.empty() ? "an unnamed source" : c.source, c.resolution_ns, c.read_cost_ns);
    if (r.recorder != nullptr && r.load == nullptr) {
        if (const auto overhead = loop_overhead_ns(r)) {
            fmt::print(out, "; the loop spends {:.1f} ns per round trip outside the timed window",
                       *overhead);
        }
    }
    fmt::print(out, "\n");
}

// "1000 bytes asked, 988 in use (TCP_MAXSEG read back: ...)": a segment
// size the kernel lowered is said to be lower, never rounded to the ask.
std::string describe_segment(std::optional<std::uint64_t> asked, std::uint64_t in_use,
                             transport_protocol transport) {
    const bool tcp = transport == transport_protocol::tcp;
    std::string text = asked ? fmt::format("{} bytes asked, {} in use", *asked, in_use)
                             : fmt::format("not asked, {} bytes in use", in_use);
    text += tcp ? " (TCP_MAXSEG read back" : " (SCTP_MAXSEG read back";
    if (asked && in_use < *asked) {
        text += tcp ? ": the kernel lowered it; TCP options such as timestamps take their "
                      "bytes, and the peer's MSS or the path's MTU may allow less)"
                    : ": the kernel lowered it; the fragmentation point is a multiple of 4 "
                      "and the path's MTU may allow less)";
    } else if (asked && in_use > *asked) {
        text += ": more than asked)";
    } else {
        text += ")";
    }
    return text;
}

// --bind-device and --max-seg at the server's end, as it read them back; the
// segment line also when only the client asked, since the server's end of
// the connection takes the client's MSS too.
void write_server_device_lines(std::ostream& out, const run_report& r,
                               const protocol::server_settings_blob& s) {
    if (s.bind_device && !s.bind_device->empty()) {
        fmt::print(out, "\tdevice: {} (SO_BINDTODEVICE, read back)\n", *s.bind_device);
    }
    if (s.max_seg_bytes && (s.max_seg_requested_bytes || r.options.common.max_seg_bytes)) {
        fmt::print(out, "\tsegment size: {}\n",
                   describe_segment(s.max_seg_requested_bytes, *s.max_seg_bytes,
                                    r.options.common.transport));
    }
}

// What a server said of itself, under its heading.
void write_server_lines(std::ostream& out, const run_report& r, const nlohmann::json& settings) {
    if (!settings.is_object()) {
        fmt::print(out, "\tsent no description of itself\n");
        return;
    }
    const auto s = protocol::decode_server_settings(settings);
    fmt::print(out, "\tprogram: {} (sctp-perf {}) on {}, {}\n", s.program.value_or("?"),
               s.version.value_or("?"), s.host.value_or("?"), s.kernel.value_or("?"));
    const auto placement = server_placement(settings);
    // Its worker threads and data path, where a server says (older ones do not).
    std::string sessions;
    if (s.threads) {
        sessions = fmt::format(", sessions on {} worker thread{} ({})", *s.threads,
                               *s.threads == 1 ? "" : "s", s.data_path.value_or("?"));
    }
    if (s.worker_cpus) {
        sessions +=
            fmt::format(" pinned one each to CPUs {} (--cpu)", fmt::join(*s.worker_cpus, ", "));
    }
    fmt::print(out, "\tNagle {}, {}, {}{}\n", s.nagle.value_or(false) ? "on" : "off",
               describe_waiting(s.spin.value_or(false),
                                std::chrono::microseconds(s.poll_before_sleep_us.value_or(0))),
               placement ? describe_placement(*placement) : "CPU affinity unknown", sessions);
    fmt::print(out, "\tsocket buffers: sndbuf {} rcvbuf {} (read back)\n",
               s.sndbuf_bytes.value_or(0), s.rcvbuf_bytes.value_or(0));
    write_server_device_lines(out, r, s);
    if (s.sctp_rto) {
        fmt::print(out, "\tsctp rto (ms): socket initial {} min {} max {}\n",
                   s.sctp_rto->initial_ms, s.sctp_rto->min_ms, s.sctp_rto->max_ms);
    }
    if (r.load == nullptr) {  // a load run's is in the load summary, from the server's account
        fmt::print(out, "\tcpu: {}\n", plain_ping_pong_server_cpu);
    }
}

// The server's block; with fan-out, once when every server states the
// same, else each server's under its address.
void write_server_block(std::ostream& out, const run_report& r) {
    if (r.servers.size() <= 1) {
        fmt::print(out, "server:\n");
        write_server_lines(out, r, r.server_settings);
        return;
    }
    if (!server_settings_differ(r)) {
        fmt::print(out, "servers: the {} state the same\n", r.servers.size());
        write_server_lines(out, r, r.servers.front().settings);
        return;
    }
    for (std::size_t s = 0; s < r.servers.size(); ++s) {
        fmt::print(out, "server {} of {}, {} (the servers differ):\n", s + 1, r.servers.size(),
                   r.servers[s].address);
        write_server_lines(out, r, r.servers[s].settings);
    }
}

// "server address: ..., connected to ...", or with fan-out every server's.
void write_server_address_line(std::ostream& out, const run_report& r) {
    const auto& o = r.options;
    std::vector<std::string> asked;
    std::vector<std::string> connected;
    if (r.servers.size() > 1) {
        for (const auto& server : r.servers) {
            asked.push_back(server.address);
            connected.push_back(join(server.peer_addresses));
        }
        fmt::print(out,
                   "\tserver addresses: {} (flows dealt over them, flow k to server k modulo {}), "
                   "connected to {}\n",
                   join(asked), r.servers.size(), join(connected));
        return;
    }
    for (const auto& host : o.server_hosts) {
        asked.push_back(host_and_port(host, o.server_port));
    }
    fmt::print(out, "\tserver address: {}, connected to {}\n", join(asked), join(r.peer_addresses));
}

// --start-at: the instant asked for, and when measuring began (section 9.5).
void write_start_at_line(std::ostream& out, const run_report& r) {
    if (!r.options.start_at) {
        return;
    }
    const auto late_us = start_late_us(r);
    fmt::print(out, "\tstart at: {} asked, {}\n", utc_iso_text(*r.options.start_at),
               late_us ? fmt::format("measuring began {} ({:.1f} us {})",
                                     utc_iso_text(*r.measurement_began), std::abs(*late_us),
                                     *late_us < 0 ? "early" : "late")
                       : std::string("interrupted before measuring began"));
}

// --warmup: the seconds run before measuring, and what ran in them.
void write_warmup_line(std::ostream& out, const run_report& r) {
    if (r.options.warmup.count() == 0) {
        return;
    }
    const double warmup_s = std::chrono::duration<double>(r.options.warmup).count();
    const char* each = r.repeats != nullptr ? " in each run" : "";
    const char* all = r.repeats != nullptr ? " in all" : "";
    if (r.load != nullptr) {
        fmt::print(out,
                   "\twarm-up: {:.3f} s of load{} after the primer, not recorded: {} messages "
                   "sent in it{}, in no other count\n",
                   warmup_s, each, r.load->warmup_messages, all);
    } else {
        fmt::print(out, "\twarm-up: {:.3f} s{} after the primer, not recorded: {} round trips{}\n",
                   warmup_s, each, r.warmup_round_trips, all);
    }
}

// What kind of test it was: the closed loop's iterations, or the primer
// before the load; then the warm-up.
void write_test_lines(std::ostream& out, const run_report& r) {
    if (r.load != nullptr) {
        fmt::print(out, "\tprimer: {} unrecorded round trips on each flow before the load{}\n",
                   r.options.primer_iterations, r.repeats != nullptr ? " of each run" : "");
        write_warmup_line(out, r);
        return;
    }
    fmt::print(out,
               "\ttest: closed loop: each round trip waits for the one before it, so a stall "
               "counts once; --rate N shows what an open-loop sender would see\n");
    if (r.repeats != nullptr) {
        fmt::print(out,
                   "\titerations: {} measured in {} runs, each after its own {} unrecorded "
                   "primer iterations\n",
                   r.recorder->summary().count(), r.repeats->runs.size(),
                   r.options.primer_iterations);
    } else {
        fmt::print(out, "\titerations: {} measured, after {} unrecorded primer iterations\n",
                   r.recorder->summary().count(), r.options.primer_iterations);
    }
    write_warmup_line(out, r);
}

// When the run started and how long it measured (over how many runs).
void write_started_line(std::ostream& out, const run_report& r) {
    const auto& o = r.options;
    const auto& started_at = r.environment.started_at;
    if (r.repeats == nullptr) {
        fmt::print(out, "\tstarted: {}, measured for {:.3f} s\n", started_at, r.duration_s);
        return;
    }
    fmt::print(out, "\tstarted: {}, measured for {:.3f} s in {} runs{}\n", started_at, r.duration_s,
               r.repeats->runs.size(),
               o.pause.count() > 0
                   ? fmt::format(", {:g} s apart", std::chrono::duration<double>(o.pause).count())
                   : "");
}

void write_client_block(std::ostream& out, const run_report& r) {
    const auto& o = r.options;
    fmt::print(out, "client:\n");
    fmt::print(out, "\thost: {}, {}\n", r.environment.hostname, r.environment.kernel);
    fmt::print(out, "\tNagle {}, {}, {}\n", o.common.nagle ? "on" : "off",
               describe_waiting(o.common.spin, o.common.poll_before_sleep),
               describe_placement(client_placement(r)));
    if (r.client_buffers) {
        fmt::print(out, "\tsocket buffers: sndbuf {} rcvbuf {} (read back)\n",
                   r.client_buffers->send_bytes, r.client_buffers->receive_bytes);
    }
    if (r.client_bind_device) {
        fmt::print(out, "\tdevice: {} (SO_BINDTODEVICE, read back)\n",
                   r.client_bind_device->empty() ? "none" : *r.client_bind_device);
    }
    if (r.client_max_seg_bytes) {
        fmt::print(
            out, "\tsegment size: {}\n",
            describe_segment(o.common.max_seg_bytes, *r.client_max_seg_bytes, o.common.transport));
    }
    for (const auto& device : r.client_interfaces) {
        fmt::print(out, "\tinterface {} (-i): {}\n", device.name,
                   device.addresses.empty() ? "no address" : device.hosts());
    }
    fmt::print(out, "\taddresses: {}\n", join(r.local_addresses));
    if (r.load == nullptr) {  // the load summary gives a load run's
        const double user = client_cpu_percent(r.client_cpu_user_s, r);
        const double system = client_cpu_percent(r.client_cpu_system_s, r);
        fmt::print(out,
                   "\tcpu: {:.1f} % of one CPU while measuring (user {:.1f} %, system {:.1f} %)\n",
                   user + system, user, system);
    }
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
}

void write_warnings(std::ostream& out, const run_report& r) {
    const auto warnings = run_warnings(r);
    if (!warnings.empty()) {
        fmt::print(out, "warnings:\n");
        for (const auto& w : warnings) {
            fmt::print(out, "\t{}\n", w);
        }
    }
}

// How the run was made, at both ends, and how far to trust it.
void write_run_description(std::ostream& out, const run_report& r) {
    const auto& o = r.options;
    fmt::print(out, "run:\n");
    fmt::print(out, "\tprogram: {} (sctp-perf {})\n", r.program.name, version_string);
    write_test_lines(out, r);
    fmt::print(out, "\ttransport: {} over SOCK_{}, Nagle {}\n", name_of(o.common.transport),
               r.program.service == socket_service::seqpack ? "SEQPACKET" : "STREAM",
               o.common.nagle ? "on" : "off");
    fmt::print(out, "\tpayload: {} bytes{}, reply {} bytes{}{}\n", o.payload_bytes(),
               o.payload_power_of_2() ? fmt::format(" (2^{})", o.payload_power) : "",
               reply_bytes_of(o), o.echo ? " (an echo of the request)" : "",
               o.server_transmit_stamps()
                   ? ", the server's 32 bytes of timestamps in it (--one-way --timestamps, TCP)"
               : o.server_receive_stamps()
                   ? ", the server's 24 bytes of timestamps in it (--one-way --timestamps)"
               : o.one_way ? ", the server's 16 bytes of timestamps in it (--one-way)"
                           : "");
    write_server_address_line(out, r);
    write_started_line(out, r);
    write_start_at_line(out, r);
    write_sctp_and_transport_lines(out, r);
    if (r.path_failure) {
        write_path_settings_lines(out, *r.path_failure, r.server_settings);
    }
    write_clock_line(out, r);
    fmt::print(out,
               "\tunits: microseconds of a full round trip (request out, reply back), not "
               "halved\n");
    write_client_block(out, r);
    write_server_block(out, r);
    write_warnings(out, r);
}

// --one-way, --timestamps and --half-rtt: after the round trip's own figures.
void write_split_blocks(std::ostream& out, const run_report& r, const log_linear_histogram& rtt) {
    if (r.one_way != nullptr) {
        write_one_way_block(out, *r.one_way, r.load != nullptr);
        fmt::print(out, "\n");
    }
    if (r.kernel_split != nullptr) {
        write_round_trip_split_block(out, *r.kernel_split);
        fmt::print(out, "\n");
    }
    if (r.options.half_rtt) {
        write_half_rtt_block(out, rtt);
        fmt::print(out, "\n");
    }
}

}  // namespace

void write_ace_report(std::ostream& out, const run_report& r) {
    if (const auto note = repeat_failure_note(r)) {
        fmt::print(out, "{}\n", *note);
    }
    if (const auto note = interruption_note(r)) {
        fmt::print(out, "{}\n", *note);
    }
    if (r.load != nullptr) {
        write_load_summary(out, *r.load);
        write_split_blocks(out, r, r.load->headline());
        if (r.path_failure) {
            write_paths_blocks(out, *r.path_failure);
        }
        if (r.repeats != nullptr) {
            write_runs_section(out, *r.repeats, measured_latency_name(r));
            fmt::print(out, "\n");
        }
        write_run_description(out, r);
        return;
    }
    const latency_recorder& rec = *r.recorder;
    if (rec.summary().count() != 0) {
        write_percentiles(out, rec);
        fmt::print(out, "\n");
    }
    write_split_blocks(out, r, rec.percentiles());
    if (r.path_failure) {
        write_paths_blocks(out, *r.path_failure);
    }
    if (r.repeats != nullptr) {
        write_runs_section(out, *r.repeats, measured_latency_name(r));
        fmt::print(out, "\n");
    }
    write_run_description(out, r);
    write_outlier_iterations(out, rec.bins(), r.repeats);
    write_ace_histogram(out, r);
}

}  // namespace sctp_perf
