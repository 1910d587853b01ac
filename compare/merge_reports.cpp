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

// What the numbers a merge adds up may be: a time of a summary (which may
// be 0 ns, unlike a percentile compared), a duration, a flow's rate
// (flow_rate_range) or a throughput, each short of what would overflow
// when summed over hosts.
constexpr number_range summary_us_range{0.0, time_us_range.most, "time", " us"};
constexpr number_range duration_s_range{0.0, 1e9, "duration", " s"};
constexpr number_range mb_per_s_range{0.0, 1e12, "throughput", " MB/s"};
// How late a client began against --start-at; early is negative.
constexpr number_range late_us_range{-time_us_range.most, time_us_range.most, "delay", " us"};

// A number of `object` (named `path` in messages, "summary" or "load"), 0
// when absent.
double number_of(const json& object, std::string_view path, std::string_view key,
                 const std::string& source, const number_range& range) {
    const auto it = object.is_object() ? object.find(key) : object.end();
    return optional_number(it == object.end() ? nullptr : &*it, fmt::format("{}.{}", path, key),
                           source, range)
        .value_or(0.0);
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
// stddev_us), named `path` in messages ("summary", "load.latency_corrected"),
// and its encoded histogram; `what` names both in messages.
latency_series series_of(const json& summary, std::string_view path, const json& encoded,
                         const std::string& what) {
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
        !series.histogram.restore_extremes(
            nanoseconds_of(number_of(summary, path, "min_us", what, summary_us_range)),
            nanoseconds_of(number_of(summary, path, "max_us", what, summary_us_range)))) {
        throw input_error(fmt::format(
            "{}: its summary's min_us {} and max_us {} do not lie in its hdr_histogram's lowest "
            "and highest buckets: the report was altered",
            what, min_us.dump(), max_us.dump()));
    }
    series.mean_us = number_of(summary, path, "mean_us", what, summary_us_range);
    series.stddev_us = number_of(summary, path, "stddev_us", what, summary_us_range);
    return series;
}

std::optional<latency_series> load_series(const json& load, std::string_view key,
                                          const std::string& source) {
    const json& latency = member_or_null(load, key);
    if (latency.is_null()) {
        return std::nullopt;  // load.latency_corrected outside rate mode
    }
    return series_of(latency, fmt::format("load.{}", key), member_or_null(latency, "hdr_histogram"),
                     fmt::format("{} (load.{})", source, key));
}

// A run whose flows lost connections (--reconnect) counts what it sent on
// them apart from what the servers account for, and its outages have no
// place in a merged report yet: summed with the others, its counts would
// show messages sent and never received, with no reason given.
void refuse_outages(const json& load, const std::string& source) {
    const json& lost = member_or_null(member_or_null(load, "reconnect"), "connections_lost");
    if (lost.is_number_unsigned() && lost.get<std::uint64_t>() > 0) {
        throw input_error(fmt::format(
            "{}: its flows lost {} connection{} and set them up again (--reconnect), and a merge "
            "does not add up outages: give runs without outages, or read this report alone",
            source, lost.get<std::uint64_t>(), lost.get<std::uint64_t>() == 1 ? "" : "s"));
    }
}

void read_load(const json& load, host_run& run) {
    refuse_outages(load, run.source);
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
    run.rate_asked_per_s =
        number_of(load, "load", "rate_asked_per_s", run.source, flow_rate_range) * run.flows;
    run.rate_achieved_per_s =
        number_of(load, "load", "rate_achieved_per_s", run.source, flow_rate_range) * run.flows;
    run.payload_mb_per_s_sent =
        number_of(load, "load", "payload_mb_per_s_sent", run.source, mb_per_s_range);
    run.payload_mb_per_s_received_by_server =
        number_of(load, "load", "payload_mb_per_s_received_by_server", run.source, mb_per_s_range);
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
    run.start_late_us = optional_number(&late_us, "start_at.late_us", run.source, late_us_range);
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
    run.content = doc.dump();
    run.config = config_of(doc, source);
    run.config_doc = doc["config"];
    run.program = text_or_empty(member_or_null(doc, "program"));
    const json& environment = member_or_null(doc, "environment");
    run.hostname = text_or_empty(member_or_null(environment, "hostname"));
    read_start(doc, run);
    const json& summary = member_or_null(doc, "summary");
    run.duration_s = number_of(summary, "summary", "duration_s", source, duration_s_range);
    if (run.measurement_began) {
        run.measurement_ended =
            *run.measurement_began + std::chrono::duration_cast<wall_time::duration>(
                                         std::chrono::duration<double>(run.duration_s));
    }
    run.percentiles = member_or_null(doc, "percentiles");
    run.headline = series_of(summary, "summary", member_or_null(doc, "hdr_histogram"), source);
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

namespace {

// Adding rates is right only for clients that measured at once: the
// latest start must come before the earliest end. The sentence that says
// they did not, naming the report that began last and the one that ended
// first; empty when they did, or when a report does not say when it
// measured (then nothing can be checked, and at_once stays unknown).
std::optional<std::string> apart_sentence(const std::vector<host_run>& hosts) {
    const host_run* last_start = nullptr;
    const host_run* first_end = nullptr;
    for (const auto& host : hosts) {
        if (!host.measurement_began || !host.measurement_ended) {
            return std::nullopt;
        }
        if (last_start == nullptr || *host.measurement_began > *last_start->measurement_began) {
            last_start = &host;
        }
        if (first_end == nullptr || *host.measurement_ended < *first_end->measurement_ended) {
            first_end = &host;
        }
    }
    if (last_start == nullptr || *last_start->measurement_began < *first_end->measurement_ended) {
        return std::nullopt;
    }
    const double gap_s = std::chrono::duration<double>(*last_start->measurement_began -
                                                       *first_end->measurement_ended)
                             .count();
    return fmt::format(
        "{} began to measure {:.3f} s after {} had finished (measurement_began_at plus "
        "summary.duration_s): the clients did not measure at once, so their rates do not add up",
        last_start->source, gap_s, first_end->source);
}

}  // namespace

merged_run merge_host_runs(std::vector<host_run> hosts, bool allow_different, bool allow_apart) {
    if (hosts.size() < 2) {
        throw input_error(
            fmt::format("--merge needs two or more reports to merge, not {}", hosts.size()));
    }
    std::vector<std::string_view> contents;
    for (const auto& host : hosts) {
        contents.push_back(host.content);
    }
    if (const auto repeated = find_repeated_input(contents)) {
        throw input_error(
            fmt::format("{}, or its counts would be added twice",
                        repeated_input_sentence(hosts[repeated->first].source,
                                                hosts[repeated->again].source, "report")));
    }
    merged_run merged;
    const auto apart = apart_sentence(hosts);
    if (apart && !allow_apart) {
        throw input_error(
            fmt::format("{} (--allow-apart merges their latencies, without a rate)", *apart));
    }
    const bool all_say_when = std::all_of(
        hosts.begin(), hosts.end(), [](const auto& h) { return h.measurement_ended.has_value(); });
    if (apart) {
        merged.at_once = false;
        merged.apart = *apart;
    } else if (all_say_when) {
        merged.at_once = true;
    }
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

merged_run merge_report_files(const std::vector<std::string>& paths, bool allow_different,
                              bool allow_apart) {
    std::vector<host_run> hosts;
    for (const auto& path : paths) {
        for (const auto& file : report_files_in(path)) {
            hosts.push_back(parse_host_run(read_whole_file(file), file));
        }
    }
    return merge_host_runs(std::move(hosts), allow_different, allow_apart);
}

}  // namespace sctp_perf::compare
