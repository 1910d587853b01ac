// SPDX-License-Identifier: Apache-2.0
#include "compare/merged_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <chrono>
#include <optional>
#include <ostream>

#include "compare/compare_report.hpp"
#include "report/histogram_log.hpp"
#include "report/json_numbers.hpp"
#include "report/load_report.hpp"
#include "report/run_notes.hpp"
#include "report/run_report.hpp"
#include "stats/latency_recorder.hpp"
#include "version.hpp"

namespace sctp_perf::compare {
namespace {

using ordered_json = nlohmann::ordered_json;

constexpr const char* latency_scope =
    "the merged latency is the distribution over every timed message of every client, as if one "
    "client had timed them all; it is not an average of the clients' percentiles";

// Each host's measurement start after the earliest host's, in
// microseconds, from measurement_began_at, which the clients truncate to
// the microsecond: two starts 0.02 us apart can be 1 us apart here. nullopt
// for a host whose report does not say when it began.
std::vector<std::optional<std::int64_t>> start_offsets_us(const merged_run& merged) {
    std::optional<wall_time> earliest;
    for (const auto& host : merged.hosts) {
        if (host.measurement_began) {
            earliest =
                std::min(earliest.value_or(*host.measurement_began), *host.measurement_began);
        }
    }
    std::vector<std::optional<std::int64_t>> offsets;
    for (const auto& host : merged.hosts) {
        offsets.emplace_back();
        if (host.measurement_began) {
            offsets.back() = std::chrono::duration_cast<std::chrono::microseconds>(
                                 *host.measurement_began - *earliest)
                                 .count();
        }
    }
    return offsets;
}

ordered_json text_or_null(const std::string& text) {
    return text.empty() ? ordered_json(nullptr) : ordered_json(text);
}

ordered_json number_or_null(const nlohmann::json& value) {
    return value.is_number() ? ordered_json(value.get<double>()) : ordered_json(nullptr);
}

ordered_json host_json(const host_run& host, const std::optional<std::int64_t>& offset_us) {
    const auto& p = host.percentiles;
    const auto percentile = [&](const char* key) {
        return p.is_object() && p.contains(key) ? number_or_null(p[key]) : ordered_json(nullptr);
    };
    return {
        {"report", host.source},
        {"hostname", host.hostname},
        {"program", host.program},
        {"num_points", host.headline.histogram.count()},
        {"p50_us", percentile("p50_us")},
        {"p99_us", percentile("p99_us")},
        {"max_us", percentile("max_us")},
        {"measurement_began_at", text_or_null(host.measurement_began_at)},
        {"start_offset_us", offset_us ? ordered_json(*offset_us) : ordered_json(nullptr)},
        {"start_at_requested", text_or_null(host.start_at_requested)},
        {"start_late_us",
         host.start_late_us ? ordered_json(*host.start_late_us) : ordered_json(nullptr)},
        {"duration_s", host.duration_s},
        {"rate_per_s", host.rate_achieved_per_s},
    };
}

// A series as a client's report writes it, from the merged histogram, with
// the pooled mean and deviation in place of the histogram's bucket-middle
// ones.
ordered_json series_json(const latency_series& series) {
    ordered_json doc = latency_json(series.histogram);
    if (series.histogram.count() > 0) {
        doc["mean_us"] = series.mean_us;
        doc["stddev_us"] = series.stddev_us;
    }
    return doc;
}

// A summed rate, or null where the clients did not measure at once and the
// sum would be a rate no moment saw.
ordered_json summed_rate(const merged_run& merged, double rate) {
    return merged.apart.empty() ? ordered_json(rate) : ordered_json(nullptr);
}

ordered_json load_totals_json(const merged_run& merged) {
    const bool rate = merged.rate_asked_per_s > 0.0;
    ordered_json load = {
        {"mode", merged.hosts.front().config.mode},
        {"flows", merged.flows},
        {"duration_s", merged.duration_s},
        {"rate_asked_total_per_s",
         rate ? summed_rate(merged, merged.rate_asked_per_s) : ordered_json(nullptr)},
        {"rate_achieved_total_per_s", summed_rate(merged, merged.rate_achieved_per_s)},
        {"payload_mb_per_s_sent", summed_rate(merged, merged.payload_mb_per_s_sent)},
        {"payload_mb_per_s_received_by_server",
         summed_rate(merged, merged.payload_mb_per_s_received_by_server)},
    };
    ordered_json server = ordered_json::object();
    for (const auto& key : load_count_keys()) {
        const auto it = merged.counts.find(key);
        const ordered_json value =
            it == merged.counts.end() ? ordered_json(nullptr) : ordered_json(it->second);
        if (key.starts_with("server_")) {
            server[key.substr(7)] = value;
        } else {
            load[key] = value;
        }
    }
    load["server"] = server;
    load["latency_corrected"] =
        merged.corrected ? series_json(*merged.corrected) : ordered_json(nullptr);
    load["latency_uncorrected"] =
        merged.uncorrected ? series_json(*merged.uncorrected) : ordered_json(nullptr);
    return load;
}

}  // namespace

ordered_json merged_report_json(const merged_run& merged) {
    const auto& first = merged.hosts.front();
    const auto& h = merged.headline.histogram;
    ordered_json hosts = ordered_json::array();
    const auto offsets = start_offsets_us(merged);
    for (std::size_t i = 0; i < merged.hosts.size(); ++i) {
        hosts.push_back(host_json(merged.hosts[i], offsets[i]));
    }
    ordered_json summary = latency_summary_json(h);
    if (h.count() > 0) {
        summary["mean_us"] = merged.headline.mean_us;
        summary["stddev_us"] = merged.headline.stddev_us;
    }
    summary["duration_s"] = merged.duration_s;
    ordered_json doc = {
        {"tool", "sctp-perf"},
        {"tool_version", version_string},
        {"format_version", json_format_version},
        {"program", first.program},
        {"merged_by", "sctp-perf-compare"},
        {"latency_scope", latency_scope},
        {"units", "microseconds"},
        {"interrupted", false},
        {"config", ordered_json::parse(first.config_doc.dump())},
        {"differences", merged.differences},
        {"measured_at_once",
         merged.at_once ? ordered_json(*merged.at_once) : ordered_json(nullptr)},
        {"apart", merged.apart.empty() ? ordered_json(nullptr) : ordered_json(merged.apart)},
        {"hosts", hosts},
        {"summary", summary},
        {"percentiles", latency_percentiles_json(h)},
        {"hdr_histogram", encode_compressed_histogram(h)},
    };
    if (merged.corrected || merged.uncorrected) {
        doc["load"] = load_totals_json(merged);
    } else {
        doc["ping_pong"] = {{"round_trips", h.count()},
                            {"round_trips_per_s", summed_rate(merged, merged.rate_achieved_per_s)}};
    }
    round_json_floats(doc);
    return doc;
}

void write_json_merged(std::ostream& out, const merged_run& merged) {
    out << merged_report_json(merged).dump(2) << '\n';
}

namespace {

std::string us_text(const ordered_json& value) {
    return value.is_number() ? fmt::format("{:.3f}", value.get<double>()) : std::string("-");
}

// A text as it is, a number as a whole one, "-" for null.
std::string text_or_dash(const ordered_json& value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    return value.is_number() ? fmt::format("{:.0f}", value.get<double>()) : std::string("-");
}

// A rate with one decimal, "-" for null (clients that did not measure at
// once have no summed rate).
std::string rate_text(const ordered_json& value) {
    return value.is_number() ? fmt::format("{:.1f}", value.get<double>()) : std::string("-");
}

void write_host_table(std::ostream& out, const ordered_json& doc) {
    std::vector<std::vector<std::string>> rows = {{"host", "program", "measuring began (UTC)",
                                                   "offset_us", "late_us", "count", "rate/s",
                                                   "p50_us", "p99_us", "max_us", "report"}};
    for (const auto& host : doc["hosts"]) {
        rows.push_back(
            {host["hostname"].get<std::string>(), host["program"].get<std::string>(),
             text_or_dash(host["measurement_began_at"]), text_or_dash(host["start_offset_us"]),
             us_text(host["start_late_us"]), host["num_points"].dump(),
             fmt::format("{:.1f}", host["rate_per_s"].get<double>()), us_text(host["p50_us"]),
             us_text(host["p99_us"]), us_text(host["max_us"]), host["report"].get<std::string>()});
    }
    const auto& p = doc["percentiles"];
    rows.push_back({"merged", "", "", "", "", doc["summary"]["num_points"].dump(),
                    rate_text(doc.contains("load") ? doc["load"]["rate_achieved_total_per_s"]
                                                   : doc["ping_pong"]["round_trips_per_s"]),
                    us_text(p.value("p50_us", ordered_json())),
                    us_text(p.value("p99_us", ordered_json())),
                    us_text(p.value("max_us", ordered_json())), ""});
    write_table(out, rows,
                {align::left, align::left, align::left, align::right, align::right, align::right,
                 align::right, align::right, align::right, align::right, align::left});
}

}  // namespace

void write_text_merged(std::ostream& out, const merged_run& merged) {
    const ordered_json doc = merged_report_json(merged);
    fmt::print(out, "{} client reports merged: {}\n", merged.hosts.size(),
               describe_config(merged.hosts.front().config));
    for (const auto& difference : merged.differences) {
        fmt::print(out, "differs: {}\n", difference);
    }
    fmt::print(out, "Note: {}.\n", latency_scope);
    if (!merged.apart.empty()) {
        fmt::print(out, "Not at once (--allow-apart): {}; no rate is given in all.\n",
                   merged.apart);
    } else if (!merged.at_once) {
        fmt::print(out,
                   "Note: a report does not say when it measured, so whether the clients ran "
                   "at once is not known: the rates in all assume they did.\n");
    }
    fmt::print(out, "\n");
    write_host_table(out, doc);
    fmt::print(out, "\nmerged latency, microseconds{}:\n",
               merged.corrected ? " (corrected: from each message's due time)" : "");
    const auto& p = doc["percentiles"];
    for (const auto& point : reported_percentiles) {
        fmt::print(out, "\t{:<8}{:>12}\n", point.label,
                   us_text(p.value(percentile_json_key(point), ordered_json())));
    }
    fmt::print(out, "\t{:<8}{:>12}\n", "max", us_text(p.value("max_us", ordered_json())));
    if (doc.contains("load")) {
        const auto& load = doc["load"];
        const bool summed = merged.apart.empty();
        fmt::print(out,
                   "totals: sent {}, received by the server {}, replied {}, lost {}, duplicated "
                   "{}; {} msg/s achieved in all{}\n",
                   load["messages_sent"].dump(), load["messages_received_by_server"].dump(),
                   load["messages_replied"].dump(), load["messages_lost"].dump(),
                   load["messages_duplicated"].dump(), rate_text(load["rate_achieved_total_per_s"]),
                   summed && merged.rate_asked_per_s > 0.0
                       ? fmt::format(" (asked {:g})", merged.rate_asked_per_s)
                       : std::string());
    } else {
        fmt::print(out, "totals: {} round trips, {} round trips/s in all\n",
                   merged.headline.histogram.count(),
                   rate_text(doc["ping_pong"]["round_trips_per_s"]));
    }
}

}  // namespace sctp_perf::compare
