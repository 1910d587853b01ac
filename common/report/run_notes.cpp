#include "report/run_notes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/cpu_affinity.hpp"
#include "runtime/interrupt.hpp"

namespace sctp_perf {
namespace {

end_placement placement_of(std::string affinity, unsigned cpu_count) {
    const auto allowed = count_cpus(affinity);
    return {std::move(affinity), cpu_count, allowed > 0 && allowed < cpu_count};
}

}  // namespace

end_placement client_placement(const run_report& r) {
    return placement_of(r.environment.client_cpu_affinity, r.environment.cpu_count);
}

std::optional<end_placement> server_placement(const run_report& r) {
    const auto& s = r.server_settings;
    if (!s.is_object()) {
        return std::nullopt;
    }
    const auto affinity = s.find("cpu_affinity");
    const auto cpus = s.find("cpu_count");
    if (affinity == s.end() || !affinity->is_string() || cpus == s.end() ||
        !cpus->is_number_integer() || cpus->get<long long>() < 0) {
        return std::nullopt;
    }
    return placement_of(affinity->get<std::string>(), cpus->get<unsigned>());
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

std::vector<std::string> run_warnings(const run_report& r) {
    std::vector<std::string> warnings;
    const auto client = client_placement(r);
    const auto server = server_placement(r);
    if (!client.pinned && (!server || !server->pinned) && client.cpu_count > 1) {
        warnings.push_back(fmt::format(
            "neither end is pinned to a CPU: on this {}-CPU machine the scheduler decides from "
            "run to run whether both ends share a CPU, which can change loopback latency by tens "
            "of "
            "percent; pin both ends with --cpu (the manual's 'CPU placement' shows the effect)",
            client.cpu_count));
    }
    const auto nagle = r.server_settings.find("nagle");  // end() when the server sent none
    if (nagle != r.server_settings.end() && nagle->is_boolean() &&
        nagle->get<bool>() != r.options.common.nagle) {
        warnings.push_back(fmt::format(
            "Nagle differs between the ends: client {}, server {}; small replies may wait for "
            "the delayed ACK at one end only (give -n to both programs or to neither)",
            r.options.common.nagle ? "on" : "off", nagle->get<bool>() ? "on" : "off"));
    }
    return warnings;
}

}  // namespace sctp_perf
