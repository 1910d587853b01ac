// SPDX-License-Identifier: Apache-2.0
#include "compare/merge_reports.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "compare/report_reader.hpp"
#include "report/histogram_log_reader.hpp"

namespace sctp_perf::compare {
namespace {

using json = nlohmann::json;

const json& member_or_null(const json& object, std::string_view key) {
    static const json null_value;
    if (!object.is_object()) {
        return null_value;
    }
    const auto it = object.find(key);
    return it == object.end() ? null_value : *it;
}

double number_or(const json& value, double otherwise) {
    return value.is_number() ? value.get<double>() : otherwise;
}

std::string text_or_empty(const json& value) {
    return value.is_string() ? value.get<std::string>() : std::string();
}

// A time in microseconds as the reports round it (to the nanosecond), back
// into the nanoseconds the histogram counts.
std::uint64_t nanoseconds_of(double us) {
    return static_cast<std::uint64_t>(std::llround(std::max(us, 0.0) * 1000.0));
}

// One latency series from its summary (num_points, min_us, max_us, mean_us,
// stddev_us) and its encoded histogram; `what` names both in messages.
latency_series series_of(const json& summary, const json& encoded, const std::string& what) {
    if (!encoded.is_string()) {
        throw input_error(fmt::format(
            "{} has no hdr_histogram, the full histogram a merge adds up: it was written by an "
            "older client; run the client of this release again",
            what));
    }
    latency_series series;
    try {
        series.histogram = decode_compressed_histogram(encoded.get<std::string>());
    } catch (const histogram_decode_error& e) {
        throw input_error(fmt::format("{}: its hdr_histogram cannot be read: {}", what, e.what()));
    }
    const json& points = member_or_null(summary, "num_points");
    if (!points.is_number_unsigned() || points.get<std::uint64_t>() != series.histogram.count()) {
        throw input_error(fmt::format(
            "{}: its hdr_histogram holds {} values, its summary num_points says {}: the report "
            "was altered",
            what, series.histogram.count(), points.dump()));
    }
    if (series.histogram.count() == 0) {
        return series;
    }
    const json& min_us = member_or_null(summary, "min_us");
    const json& max_us = member_or_null(summary, "max_us");
    if (!min_us.is_number() || !max_us.is_number() ||
        !series.histogram.restore_extremes(nanoseconds_of(min_us.get<double>()),
                                           nanoseconds_of(max_us.get<double>()))) {
        throw input_error(fmt::format(
            "{}: its summary's min_us {} and max_us {} do not lie in its hdr_histogram's lowest "
            "and highest buckets: the report was altered",
            what, min_us.dump(), max_us.dump()));
    }
    series.mean_us = number_or(member_or_null(summary, "mean_us"), 0.0);
    series.stddev_us = number_or(member_or_null(summary, "stddev_us"), 0.0);
    return series;
}

std::optional<latency_series> load_series(const json& load, std::string_view key,
                                          const std::string& source) {
    const json& latency = member_or_null(load, key);
    if (latency.is_null()) {
        return std::nullopt;  // load.latency_corrected outside rate mode
    }
    return series_of(latency, member_or_null(latency, "hdr_histogram"),
                     fmt::format("{} (load.{})", source, key));
}

void read_load(const json& load, host_run& run) {
    for (const auto& key : summed_load_counts()) {
        const bool server = key.starts_with("server_");
        const json& value = server ? member_or_null(member_or_null(load, "server"), key.substr(7))
                                   : member_or_null(load, key);
        if (!value.is_number_unsigned()) {
            throw input_error(fmt::format("{} has no load.{} (a whole number)", run.source,
                                          server ? "server." + key.substr(7) : key));
        }
        run.counts[key] = value.get<std::uint64_t>();
    }
    const json& flows = member_or_null(load, "flows");
    run.flows = flows.is_number_unsigned() ? flows.get<unsigned>() : 1;
    // The client reports its rates per flow: this client's are for all its flows.
    run.rate_asked_per_s = number_or(member_or_null(load, "rate_asked_per_s"), 0.0) * run.flows;
    run.rate_achieved_per_s =
        number_or(member_or_null(load, "rate_achieved_per_s"), 0.0) * run.flows;
    run.payload_mb_per_s_sent = number_or(member_or_null(load, "payload_mb_per_s_sent"), 0.0);
    run.payload_mb_per_s_received_by_server =
        number_or(member_or_null(load, "payload_mb_per_s_received_by_server"), 0.0);
    run.corrected = load_series(load, "latency_corrected", run.source);
    run.uncorrected = load_series(load, "latency_uncorrected", run.source);
}

// When the client began to measure, and how far that was from its
// --start-at; a time that is not one is refused, since the hosts' rows are
// aligned on it.
void read_start(const json& doc, host_run& run) {
    const json& began = member_or_null(member_or_null(doc, "environment"), "measurement_began_at");
    if (began.is_string()) {
        run.measurement_began_at = began.get<std::string>();
        run.measurement_began = parse_start_time(run.measurement_began_at).time;
        if (!run.measurement_began) {
            throw input_error(
                fmt::format("{}: environment.measurement_began_at '{}' is not a time such as "
                            "2026-11-26T14:05:00.000021Z: the report was altered",
                            run.source, run.measurement_began_at));
        }
    }
    const json& start_at = member_or_null(doc, "start_at");
    run.start_at_requested = text_or_empty(member_or_null(start_at, "requested"));
    const json& late_us = member_or_null(start_at, "late_us");
    if (late_us.is_number()) {
        run.start_late_us = late_us.get<double>();
    }
}

}  // namespace

const std::vector<std::string>& summed_load_counts() {
    static const std::vector<std::string> keys = {
        "messages_sent",
        "messages_received_by_server",
        "messages_echo_requested",
        "messages_replied",
        "messages_lost",
        "messages_abandoned",
        "messages_duplicated",
        "requests_abandoned_by_client_kernel",
        "replies_abandoned_by_server_kernel",
        "server_messages_received",
        "server_bytes_received",
        "server_replies_sent",
    };
    return keys;
}

host_run parse_host_run(std::string_view text, const std::string& source) {
    const json doc = checked_report(text, source);
    host_run run;
    run.source = source;
    run.config = config_of(doc, source);
    run.config_doc = doc["config"];
    run.program = text_or_empty(member_or_null(doc, "program"));
    const json& environment = member_or_null(doc, "environment");
    run.hostname = text_or_empty(member_or_null(environment, "hostname"));
    read_start(doc, run);
    const json& summary = member_or_null(doc, "summary");
    run.duration_s = number_or(member_or_null(summary, "duration_s"), 0.0);
    run.percentiles = member_or_null(doc, "percentiles");
    run.headline = series_of(summary, member_or_null(doc, "hdr_histogram"), source);
    const json& load = member_or_null(doc, "load");
    if (load.is_object()) {
        read_load(load, run);
    } else {
        run.flows = 1;
        run.rate_achieved_per_s =
            run.duration_s > 0.0
                ? static_cast<double>(run.headline.histogram.count()) / run.duration_s
                : 0.0;
    }
    return run;
}

latency_series merge_series(const latency_series& a, const latency_series& b) {
    latency_series sum;
    sum.histogram.merge(a.histogram);
    sum.histogram.merge(b.histogram);
    const auto na = static_cast<double>(a.histogram.count());
    const auto nb = static_cast<double>(b.histogram.count());
    const double n = na + nb;
    if (n == 0.0) {
        return sum;
    }
    sum.mean_us = (na * a.mean_us + nb * b.mean_us) / n;
    // Each part's squared deviations about its own mean, (n_i - 1) s_i^2,
    // plus n_i times the square of its mean's distance from the pooled mean.
    const auto part = [&](double count, const latency_series& s) {
        if (count == 0.0) {
            return 0.0;
        }
        const double away = s.mean_us - sum.mean_us;
        return (count - 1.0) * s.stddev_us * s.stddev_us + count * away * away;
    };
    if (n > 1.0) {
        sum.stddev_us = std::sqrt(std::max(0.0, (part(na, a) + part(nb, b)) / (n - 1.0)));
    }
    return sum;
}

merged_run merge_host_runs(std::vector<host_run> hosts, bool allow_different) {
    if (hosts.size() < 2) {
        throw input_error(
            fmt::format("--merge needs two or more reports to merge, not {}", hosts.size()));
    }
    merged_run merged;
    const auto& first = hosts.front();
    for (const auto& host : hosts) {
        const auto differences =
            config_differences(first.config, host.config, first.source, host.source);
        merged.differences.insert(merged.differences.end(), differences.begin(), differences.end());
    }
    if (!merged.differences.empty() && !allow_different) {
        throw input_error(
            fmt::format("the reports measure different things, so adding them up would mislead: {} "
                        "(--allow-different merges them anyway)",
                        fmt::join(merged.differences, "; ")));
    }
    const bool all_corrected = std::all_of(hosts.begin(), hosts.end(),
                                           [](const auto& h) { return h.corrected.has_value(); });
    const bool all_uncorrected = std::all_of(
        hosts.begin(), hosts.end(), [](const auto& h) { return h.uncorrected.has_value(); });
    if (all_corrected) {
        merged.corrected.emplace();
    }
    if (all_uncorrected) {
        merged.uncorrected.emplace();
    }
    for (const auto& host : hosts) {
        merged.headline = merge_series(merged.headline, host.headline);
        if (all_corrected) {
            merged.corrected = merge_series(*merged.corrected, *host.corrected);
        }
        if (all_uncorrected) {
            merged.uncorrected = merge_series(*merged.uncorrected, *host.uncorrected);
        }
        for (const auto& [key, count] : host.counts) {
            merged.counts[key] += count;
        }
        merged.flows += host.flows;
        merged.duration_s = std::max(merged.duration_s, host.duration_s);
        merged.rate_asked_per_s += host.rate_asked_per_s;
        merged.rate_achieved_per_s += host.rate_achieved_per_s;
        merged.payload_mb_per_s_sent += host.payload_mb_per_s_sent;
        merged.payload_mb_per_s_received_by_server += host.payload_mb_per_s_received_by_server;
    }
    merged.hosts = std::move(hosts);
    return merged;
}

merged_run merge_report_files(const std::vector<std::string>& paths, bool allow_different) {
    std::vector<host_run> hosts;
    for (const auto& path : paths) {
        for (const auto& file : report_files_in(path)) {
            hosts.push_back(parse_host_run(read_whole_file(file), file));
        }
    }
    return merge_host_runs(std::move(hosts), allow_different);
}

}  // namespace sctp_perf::compare
