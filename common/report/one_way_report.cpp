// SPDX-License-Identifier: Apache-2.0
#include "report/one_way_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "report/load_report.hpp"
#include "report/run_notes.hpp"
#include "report/units.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

// One row of figures: min, the reported percentiles, max, in ns.
template <typename Each>
void for_each_figure(const log_linear_histogram& h, Each each) {
    each("min", "min_us", static_cast<double>(h.min_ns()));
    for (const auto& p : reported_percentiles) {
        each(p.label, percentile_json_key(p),
             static_cast<double>(h.percentile_ns(p.parts_per_million)));
    }
    each("max", "max_us", static_cast<double>(h.max_ns()));
}

std::string clock_sentence(const server_clock_mapping& clocks) {
    if (clocks.same_host) {
        return "one host (the same boot id at both ends): both ends' CLOCK_MONOTONIC, so the "
               "split is exact to the clock's resolution";
    }
    if (!clocks.offset) {
        return "two hosts: no round trip to estimate the clocks' offset from";
    }
    const auto& o = *clocks.offset;
    return fmt::format(
        "two hosts: each end's CLOCK_MONOTONIC put on its CLOCK_REALTIME; the server's clock "
        "is {:+.3f} us from the client's, +- {:.3f} us (estimated as NTP does, from the round "
        "trip of least delay, {:.3f} us, before measuring); the split is only as good as the "
        "clocks' synchronization",
        us_of_ns(static_cast<double>(o.offset_ns)),
        us_of_ns(static_cast<double>(o.uncertainty_ns())),
        us_of_ns(static_cast<double>(o.delay_ns)));
}

}  // namespace

json part_json(const log_linear_histogram& h) {
    return {{"summary", latency_summary_json(h)}, {"percentiles", latency_percentiles_json(h)}};
}

void write_percentile_columns(std::ostream& out, std::span<const percentile_column> columns) {
    fmt::print(out, "\t{:<8}", "");
    for (const auto& c : columns) {
        fmt::print(out, "{:>{}}", c.title, std::max<std::size_t>(16, c.title.size() + 2));
    }
    fmt::print(out, "\n");
    if (columns.empty() || columns.front().part->count() == 0) {
        fmt::print(out, "\t(no measured round trip)\n");
        return;
    }
    std::vector<std::string> rows;
    for_each_figure(*columns.front().part, [&](const char* label, const std::string&, double) {
        rows.push_back(fmt::format("\t{:<8}", label));
    });
    for (const auto& c : columns) {
        std::size_t row = 0;
        const auto width = std::max<std::size_t>(16, c.title.size() + 2);
        for_each_figure(*c.part, [&](const char*, const std::string&, double ns) {
            rows[row++] += fmt::format("{:{}.3f}", us_of_ns(ns), width);
        });
    }
    for (const auto& r : rows) {
        fmt::print(out, "{}\n", r);
    }
}

void write_one_way_block(std::ostream& out, const one_way_split& split, bool from_send) {
    fmt::print(out,
               "one way (microseconds, from the server's stamps; client->server + server "
               "turnaround + server->client = the round trip{}):\n",
               from_send ? " from each message's send (uncorrected)" : "");
    const percentile_column columns[] = {{"client->server", &split.client_to_server()},
                                         {"turnaround", &split.turnaround()},
                                         {"server->client", &split.server_to_client()}};
    write_percentile_columns(out, columns);
    fmt::print(out, "\tclock: {}\n", clock_sentence(split.clocks));
    if (split.negative_parts() != 0) {
        fmt::print(out,
                   "\t{} parts came out below 0 (the clocks' offset is off by more than them) "
                   "and are counted as 0\n",
                   split.negative_parts());
    }
}

json one_way_json(const one_way_split& split) {
    const auto& clocks = split.clocks;
    const bool offset = !clocks.same_host && clocks.offset;
    return {
        {"units", "microseconds"},
        {"clock", clocks.same_host ? "CLOCK_MONOTONIC, one host" : "CLOCK_REALTIME, two hosts"},
        {"same_host", clocks.same_host},
        {"clock_offset_us",
         offset ? json(us_of_ns(static_cast<double>(clocks.offset->offset_ns))) : json(nullptr)},
        {"clock_offset_uncertainty_us",
         offset ? json(us_of_ns(static_cast<double>(clocks.offset->uncertainty_ns())))
                : json(nullptr)},
        {"clock_offset_delay_us",
         offset ? json(us_of_ns(static_cast<double>(clocks.offset->delay_ns))) : json(nullptr)},
        {"note", clock_sentence(clocks)},
        {"negative_parts", split.negative_parts()},
        {"client_to_server", part_json(split.client_to_server())},
        {"server_turnaround", part_json(split.turnaround())},
        {"server_to_client", part_json(split.server_to_client())},
    };
}

void write_half_rtt_block(std::ostream& out, const log_linear_histogram& rtt) {
    fmt::print(out, "{} (RTT/2, microseconds; not a one-way measurement):\n", half_rtt_label);
    if (rtt.count() == 0) {
        fmt::print(out, "\t(no measured round trip)\n");
        return;
    }
    for_each_figure(rtt, [&](const char* label, const std::string&, double ns) {
        fmt::print(out, "\t{:<8}{:12.3f}  {}\n", label, us_of_ns(ns) / 2, half_rtt_label);
    });
}

json half_rtt_json(const log_linear_histogram& rtt) {
    json doc = json::object();
    if (rtt.count() == 0) {
        return doc;
    }
    doc["units"] = "microseconds, half of the round trip";
    for_each_figure(
        rtt, [&](const char*, const std::string& key, double ns) { doc[key] = us_of_ns(ns) / 2; });
    return doc;
}

}  // namespace sctp_perf
