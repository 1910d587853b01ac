// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a report must point out about how a run was made, for both formats:
// whether each end was pinned to CPUs, and settings that differ between the
// ends. Loopback latency depends on whether both ends share a CPU (about
// 17 us against 27 us p50 on one 2-CPU machine), and an unpinned run lets the
// scheduler choose from one run to the next.

#include <optional>
#include <string>
#include <vector>

#include "report/run_report.hpp"

namespace sctp_perf {

// One end's CPU placement. Pinned means its affinity allows fewer CPUs than
// are online, whether by --cpu or by taskset.
struct end_placement {
    std::string cpu_affinity;  // e.g. "0" or "0-1"; empty when unknown
    unsigned cpu_count = 0;    // online CPUs on its machine
    bool pinned = false;
};

end_placement client_placement(const run_report& report);
// nullopt when the server did not describe itself.
std::optional<end_placement> server_placement(const run_report& report);
// The same, of a server that said `settings` (fan-out: each server's).
std::optional<end_placement> server_placement(const nlohmann::json& settings);

// Fan-out: whether the servers differ in what their settings state
// (version, kernel, host, CPUs, Nagle, buffers, SCTP ...), so that the
// reports give each one's; false with one server.
bool server_settings_differ(const run_report& report);

// What the ping-pong loop spends per measured round trip outside its timed
// window (making the request, checking the reply, recording the sample): the
// measured wall time less the sum of the round trips, per round trip.
// nullopt for a load run or one without samples.
std::optional<double> loop_overhead_ns(const run_report& report);

// The JSON key of a reported percentile: "p99.9" gives "p99_9_us", so that
// no key needs quoting in jq.
std::string percentile_json_key(const percentile_point& point);

// The sentence that opens the report of a run a signal ended early;
// nullopt for a run that ran to its end. With --repeat, it says in which run
// or after which the signal came.
std::optional<std::string> interruption_note(const run_report& report);

// With --repeat: the sentence that opens the report of runs that a failure
// ended, naming the run that failed and why; nullopt when none failed.
std::optional<std::string> repeat_failure_note(const run_report& report);
// The same failure in a few words for the JSON's "error", e.g. "run 3 of the
// 5 asked failed: cannot connect to ..."; nullopt when none failed.
std::optional<std::string> repeat_failure(const run_report& report);

// What the latency of a report is, for the sentence that introduces its
// figures over runs ("over the runs, NAME in microseconds"): "round-trip
// time" in ping-pong, the headline latency (corrected in rate mode) in a
// load mode.
std::string measured_latency_name(const run_report& report);

// Rate mode only: when the client itself could not keep the schedule, the
// sentence that says so, nullopt otherwise. It could not when the p99 of
// its schedule slip exceeds slip_p99_bound_us, or when a worker thread was
// busy more than worker_busy_bound_percent of its time. The sentence calls
// it saturated when a worker was that busy or, late, the client used more
// than client_cpu_bound_percent of the CPUs its threads can run on (the
// fewer of its threads and `client_cpus`, the CPUs its affinity allows);
// late but neither, it was not running when messages fell due.
inline constexpr double slip_p99_bound_us = 100.0;
inline constexpr double worker_busy_bound_percent = 90.0;
inline constexpr double client_cpu_bound_percent = 90.0;
std::optional<std::string> client_saturation_warning(const load_result& load, unsigned client_cpus);

// One sentence per thing the reader must know before trusting the figures:
// neither end pinned on a multi-CPU machine, Nagle on at one end only, a
// client that could not keep up with the rate asked.
std::vector<std::string> run_warnings(const run_report& report);

}  // namespace sctp_perf
