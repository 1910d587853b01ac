// SPDX-License-Identifier: Apache-2.0
// The figures of a client's report that a merge of several clients reads:
// each latency series with its histogram, the load counts, and when the
// client measured (client_report.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/client_report.hpp"
#include "report/histogram_log_reader.hpp"
#include "report/report_json_reader.hpp"

namespace sctp_perf {
namespace {

const parsed_json& member_or_null(const parsed_json& object, std::string_view key) {
    static const parsed_json null_value;
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
double number_of(const parsed_json& object, std::string_view path, std::string_view key,
                 const std::string& source, const number_range& range) {
    const auto it = object.is_object() ? object.find(key) : object.end();
    return optional_number(it == object.end() ? nullptr : &*it, fmt::format("{}.{}", path, key),
                           source, range)
        .value_or(0.0);
}

std::string text_or_empty(const parsed_json& value) {
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
latency_series series_of(const parsed_json& summary, std::string_view path,
                         const parsed_json& encoded, const std::string& what) {
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
    const parsed_json& points = member_or_null(summary, "num_points");
    if (!points.is_number_unsigned() || points.get<std::uint64_t>() != series.histogram.count()) {
        throw input_error(fmt::format(
            "{}: its hdr_histogram holds {} values, its summary num_points says {}: the report "
            "was altered",
            what, series.histogram.count(), points.dump()));
    }
    if (series.histogram.count() == 0) {
        return series;
    }
    const parsed_json& min_us = member_or_null(summary, "min_us");
    const parsed_json& max_us = member_or_null(summary, "max_us");
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

std::optional<latency_series> load_series(const parsed_json& load, std::string_view key,
                                          const std::string& source) {
    const parsed_json& latency = member_or_null(load, key);
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
void refuse_outages(const parsed_json& load, const std::string& source) {
    const parsed_json& lost = member_or_null(member_or_null(load, "reconnect"), "connections_lost");
    if (lost.is_number_unsigned() && lost.get<std::uint64_t>() > 0) {
        throw input_error(fmt::format(
            "{}: its flows lost {} connection{} and set them up again (--reconnect), and a merge "
            "does not add up outages: give runs without outages, or read this report alone",
            source, lost.get<std::uint64_t>(), lost.get<std::uint64_t>() == 1 ? "" : "s"));
    }
}

reported_load read_load(const parsed_json& load, const std::string& source) {
    refuse_outages(load, source);
    reported_load figures;
    for (const auto& key : load_count_keys()) {
        const bool server = key.starts_with("server_");
        const parsed_json& value =
            server ? member_or_null(member_or_null(load, "server"), key.substr(7))
                   : member_or_null(load, key);
        if (!value.is_number_unsigned()) {
            throw input_error(fmt::format("{} has no load.{} (a whole number)", source,
                                          server ? "server." + key.substr(7) : key));
        }
        figures.counts[key] = value.get<std::uint64_t>();
    }
    const parsed_json& flows = member_or_null(load, "flows");
    figures.flows = flows.is_number_unsigned() ? flows.get<unsigned>() : 1;
    figures.rate_asked_per_flow_s =
        number_of(load, "load", "rate_asked_per_s", source, flow_rate_range);
    figures.rate_achieved_per_flow_s =
        number_of(load, "load", "rate_achieved_per_s", source, flow_rate_range);
    figures.payload_mb_per_s_sent =
        number_of(load, "load", "payload_mb_per_s_sent", source, mb_per_s_range);
    figures.payload_mb_per_s_received_by_server =
        number_of(load, "load", "payload_mb_per_s_received_by_server", source, mb_per_s_range);
    figures.corrected = load_series(load, "latency_corrected", source);
    figures.uncorrected = load_series(load, "latency_uncorrected", source);
    return figures;
}

// When the client began to measure, and how far that was from its
// --start-at; a time that is not one is refused, since the hosts' rows are
// aligned on it.
void read_start(const parsed_json& doc, const std::string& source, report_figures& figures) {
    const parsed_json& began =
        member_or_null(member_or_null(doc, "environment"), "measurement_began_at");
    if (began.is_string()) {
        figures.measurement_began_at = began.get<std::string>();
        figures.measurement_began = parse_start_time(figures.measurement_began_at).time;
        if (!figures.measurement_began) {
            throw input_error(
                fmt::format("{}: environment.measurement_began_at '{}' is not a time such as "
                            "2026-11-26T14:05:00.000021Z: the report was altered",
                            source, figures.measurement_began_at));
        }
    }
    const parsed_json& start_at = member_or_null(doc, "start_at");
    figures.start_at_requested = text_or_empty(member_or_null(start_at, "requested"));
    const parsed_json& late_us = member_or_null(start_at, "late_us");
    figures.start_late_us = optional_number(&late_us, "start_at.late_us", source, late_us_range);
}

}  // namespace

const std::vector<std::string>& load_count_keys() {
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

report_figures read_report_figures(const client_report& report) {
    const parsed_json& doc = report.document;
    const std::string& source = report.source;
    report_figures figures;
    figures.hostname =
        text_or_empty(member_or_null(member_or_null(doc, "environment"), "hostname"));
    read_start(doc, source, figures);
    const parsed_json& summary = member_or_null(doc, "summary");
    figures.duration_s = number_of(summary, "summary", "duration_s", source, duration_s_range);
    figures.percentiles = member_or_null(doc, "percentiles");
    figures.headline = series_of(summary, "summary", member_or_null(doc, "hdr_histogram"), source);
    if (const parsed_json& load = member_or_null(doc, "load"); load.is_object()) {
        figures.load = read_load(load, source);
    }
    return figures;
}

}  // namespace sctp_perf
