// SPDX-License-Identifier: Apache-2.0
#include "report/run_notes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "protocol/server_settings_blob.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/interrupt.hpp"

namespace sctp_perf {
namespace {

end_placement placement_of(std::string affinity, unsigned cpu_count) {
    const auto allowed = count_cpus(affinity);
    return {std::move(affinity), cpu_count, allowed > 0 && allowed < cpu_count};
}

// What a server states of itself, without what it samples per connection:
// the gap between its clocks is read anew for each (--one-way), and is a
// measurement of the moment, not a setting; its primary path is the
// client's address on that association.
protocol::server_settings_blob stated_settings(const nlohmann::json& settings) {
    auto s = protocol::decode_server_settings(settings);
    s.realtime_minus_monotonic_ns.reset();
    if (s.sctp_paths) {
        s.sctp_paths->primary.clear();
    }
    return s;
}

}  // namespace

end_placement client_placement(const run_report& r) {
    return placement_of(r.environment.client_cpu_affinity, r.environment.cpu_count);
}

std::optional<end_placement> server_placement(const run_report& r) {
    return server_placement(r.server_settings);
}

std::optional<end_placement> server_placement(const nlohmann::json& settings) {
    const auto s = protocol::decode_server_settings(settings);
    if (!s.cpu_affinity || !s.cpu_count) {
        return std::nullopt;
    }
    return placement_of(*s.cpu_affinity, *s.cpu_count);
}

bool server_settings_differ(const run_report& r) {
    const auto first = stated_settings(r.servers.front().settings);
    for (const auto& server : r.servers) {
        if (stated_settings(server.settings) != first) {
            return true;
        }
    }
    return false;
}

std::optional<double> loop_overhead_ns(const run_report& r) {
    if (r.load != nullptr || r.recorder == nullptr || r.recorder->percentiles().count() == 0) {
        return std::nullopt;
    }
    const auto& rtts = r.recorder->percentiles();
    const double count = static_cast<double>(rtts.count());
    return (r.duration_s * 1e9 - rtts.mean_ns() * count) / count;
}

std::string percentile_json_key(const percentile_point& point) {
    std::string key = point.label;
    std::replace(key.begin(), key.end(), '.', '_');
    return key + "_us";
}

std::optional<std::string> interruption_note(const run_report& r) {
    if (r.interrupted_by == 0) {
        return std::nullopt;
    }
    if (r.repeats != nullptr) {
        const auto& runs = r.repeats->runs;
        if (!runs.empty() && runs.back().interrupted) {
            return fmt::format(
                "INTERRUPTED by {} in run {} of the {} asked, after {:.3f} s of it: every figure "
                "below covers only what was measured before it",
                signal_name(r.interrupted_by), runs.size(), r.repeats->asked,
                runs.back().duration_s);
        }
        return fmt::format(
            "INTERRUPTED by {} after run {} of the {} asked: every figure below covers only the "
            "runs done",
            signal_name(r.interrupted_by), runs.size(), r.repeats->asked);
    }
    const auto& o = r.options;
    std::string done = fmt::format("{:.3f} s", r.duration_s);
    if (o.duration) {
        done +=
            fmt::format(" of the {:g} s asked", std::chrono::duration<double>(*o.duration).count());
    } else if (r.load == nullptr) {
        done += fmt::format(", {} of the {} round trips asked", r.recorder->summary().count(),
                            o.iterations);
    }
    return fmt::format(
        "INTERRUPTED by {} after {}: every figure below covers only what was measured before it",
        signal_name(r.interrupted_by), done);
}

std::optional<std::string> repeat_failure_note(const run_report& r) {
    if (r.repeats == nullptr || r.repeats->failure.empty()) {
        return std::nullopt;
    }
    const auto done = r.repeats->runs.size();
    return fmt::format(
        "FAILED in run {} of the {} asked: {}: every figure below covers the {} run{} done before "
        "it",
        done + 1, r.repeats->asked, r.repeats->failure, done, done == 1 ? "" : "s");
}

std::optional<std::string> repeat_failure(const run_report& r) {
    if (r.repeats == nullptr || r.repeats->failure.empty()) {
        return std::nullopt;
    }
    return fmt::format("run {} of the {} asked failed: {}", r.repeats->runs.size() + 1,
                       r.repeats->asked, r.repeats->failure);
}

std::string measured_latency_name(const run_report& r) {
    if (r.load == nullptr) {
        return "round-trip time";
    }
    return r.load->mode == protocol::test_mode::rate
               ? "the headline latency, corrected (from each message's due time),"
               : "the headline latency, uncorrected (from each message's send),";
}

// The bounds, and why (run_notes.hpp declares them):
//  - slip p99 above 100 us. A punctual worker sends within a few
//    microseconds of each due time: it sleeps until 50 us before it and
//    spins the rest, and a timer's wake-up is late by tens of microseconds.
//    The maximum alone says little (one preemption makes milliseconds of
//    it), but a p99 above 100 us, more than a loopback round trip, means 1 %
//    of the messages left later than any punctual wake-up explains, and each
//    of them carries that lateness into its corrected latency. The bound has
//    no term in the period: the slip adds to a latency whatever the rate, so
//    10,000 flows at 1 message per second need the same bound as one flow at
//    10,000.
//  - a worker busy above 90 % of its time (sending and reading, see
//    sample_sink::busy): it has no slack left, so a burst of due times or a
//    preemption queues messages behind each other.
//  - above 90 % of the CPUs the workers can run on, and late: the threads
//    take the CPUs from each other. CPU time alone says nothing, as a
//    worker spins up to 50 us before each due time (a whole CPU at 20,000
//    messages per second) and --spin spins always, so it only says which
//    of the two sentences a late client gets.
std::optional<std::string> client_saturation_warning(const load_result& l, unsigned client_cpus) {
    if (l.mode != protocol::test_mode::rate) {
        return std::nullopt;  // only rate mode has a schedule to keep
    }
    const auto& slip = l.schedule_slip;
    const double slip_p99_us = slip.count() > 0 ? slip.percentile_ns(990'000) / 1000.0 : 0.0;
    const double busiest_percent =
        l.worker_busy_percent.empty()
            ? 0.0
            : *std::max_element(l.worker_busy_percent.begin(), l.worker_busy_percent.end());
    const bool late = slip_p99_us > slip_p99_bound_us;
    if (!late && busiest_percent <= worker_busy_bound_percent) {
        return std::nullopt;
    }
    const unsigned usable_cpus = std::max(1u, std::min(l.threads, client_cpus));
    const double cpu_share_percent = l.client_cpu_percent / usable_cpus;
    const double total_rate = l.rate_asked_per_s * static_cast<double>(l.flows);
    // The sentence names one bound for the two shares.
    static_assert(worker_busy_bound_percent == client_cpu_bound_percent);
    const std::string evidence = fmt::format(
        "its schedule slip p99 was {:.1f} us (bound {:g} us), its busiest worker thread was busy "
        "{:.1f} % of the time and it used {:.1f} % of the {} CPU{} its threads can run on (bound "
        "{:g} % each)",
        slip_p99_us, slip_p99_bound_us, busiest_percent, cpu_share_percent, usable_cpus,
        usable_cpus == 1 ? "" : "s", worker_busy_bound_percent);
    if (busiest_percent > worker_busy_bound_percent ||
        cpu_share_percent > client_cpu_bound_percent) {
        return fmt::format(
            "the client could not keep up: {}, so the latencies include the client's own "
            "queueing and {:.10g} messages per second in all are beyond this client: give it "
            "more --threads (now {}) and the CPUs to run them, or ask for a lower rate",
            evidence, total_rate, l.threads);
    }
    // Late with time and CPU to spare: the workers were not running when
    // messages fell due (other work on their CPUs, the server's too).
    return fmt::format(
        "the client could not keep its schedule: {}, so it was often not running when messages "
        "fell due, the latencies include the client's own lateness, and {:.10g} messages per "
        "second in all are beyond this client as it ran: give it CPUs of its own (--cpu, and "
        "others to the server) and more --threads (now {}), or ask for a lower rate",
        evidence, total_rate, l.threads);
}

std::vector<std::string> run_warnings(const run_report& r) {
    std::vector<std::string> warnings;
    const auto client = client_placement(r);
    const auto server = server_placement(r);
    // Nothing to compare with when the server sent none: every member missing.
    const auto settings = protocol::decode_server_settings(r.server_settings);
    // Workers pinned one each (--cpu with several threads) place their end
    // even when its process may run on every CPU.
    const bool client_placed = client.pinned || (r.load != nullptr && !r.load->worker_cpus.empty());
    const bool server_placed = (server && server->pinned) || settings.worker_cpus;
    if (!client_placed && !server_placed && client.cpu_count > 1) {
        warnings.push_back(fmt::format(
            "neither end is pinned to a CPU: on this {}-CPU machine the scheduler decides from "
            "run to run whether both ends share a CPU, which can change loopback latency by tens "
            "of "
            "percent; pin both ends with --cpu (the manual's 'CPU placement' shows the effect)",
            client.cpu_count));
    }
    if (const auto nagle = settings.nagle; nagle && *nagle != r.options.common.nagle) {
        warnings.push_back(fmt::format(
            "Nagle differs between the ends: client {}, server {}; small replies may wait for "
            "the delayed ACK at one end only (give -n to both programs or to neither)",
            r.options.common.nagle ? "on" : "off", *nagle ? "on" : "off"));
    }
    if (const auto held = settings.test_reply_delay_us) {
        warnings.push_back(fmt::format(
            "the server held every ping-pong reply {} us before sending it (its test hook "
            "--test-reply-delay): these round trips measure that wait, not the transport",
            *held));
    }
    if (const auto late = settings.test_wake_delay_us) {
        warnings.push_back(fmt::format(
            "the server took every request {} us after reading it (its test hook "
            "--test-wake-delay): these round trips measure that wait, not the transport",
            *late));
    }
    if (r.load != nullptr) {
        const auto allowed = count_cpus(r.environment.client_cpu_affinity);
        const auto client_cpus =
            allowed > 0 ? static_cast<unsigned>(allowed) : r.environment.cpu_count;
        if (auto saturated = client_saturation_warning(*r.load, client_cpus)) {
            warnings.push_back(std::move(*saturated));
        }
    }
    return warnings;
}

}  // namespace sctp_perf
