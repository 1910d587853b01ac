// SPDX-License-Identifier: Apache-2.0
// The client's report read back (client_report.hpp): its identity and
// format, configuration, settings and each run's percentiles, each checked
// where it is read.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/client_report.hpp"
#include "report/histogram_log_reader.hpp"
#include "report/report_json_reader.hpp"
#include "report/run_notes.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf {
namespace {

// The oldest report format whose keys this reader knows (format 1 named the
// percentiles p50 ... max, without their unit).
constexpr int oldest_format_version = 2;

std::string text_member(const parsed_json& config, std::string_view key,
                        const std::string& source) {
    const auto* value = member_of(config, key);
    if (value == nullptr || !value->is_string()) {
        throw input_error(
            fmt::format("{} has no config.{} (a text): is it a client's report?", source, key));
    }
    return value->get<std::string>();
}

unsigned long long count_member(const parsed_json& config, std::string_view key,
                                const std::string& source) {
    const auto* value = member_of(config, key);
    if (value == nullptr || !value->is_number_unsigned()) {
        throw input_error(fmt::format(
            "{} has no config.{} (a whole number): is it a client's report?", source, key));
    }
    return value->get<unsigned long long>();
}

run_config config_of(const parsed_json& doc, const std::string& source) {
    const auto* config = member_of(doc, "config");
    if (config == nullptr || !config->is_object()) {
        throw input_error(fmt::format("{} has no config object: is it a client's report?", source));
    }
    run_config result;
    result.service = text_member(*config, "service", source);
    result.transport = text_member(*config, "transport", source);
    result.mode = text_member(*config, "mode", source);
    result.payload_bytes = count_member(*config, "payload_bytes", source);
    result.reply_bytes = count_member(*config, "reply_bytes", source);
    const auto* nagle = member_of(*config, "nagle");
    result.nagle = nagle != nullptr && nagle->is_boolean() && nagle->get<bool>();
    return result;
}

// A setting as a report states it, nullopt when it does not (absent or
// null); one of the wrong type is refused, as it would be read as "unstated".
std::optional<bool> optional_flag(const parsed_json* value, std::string_view key,
                                  const std::string& source) {
    if (value == nullptr || value->is_null()) {
        return std::nullopt;
    }
    if (!value->is_boolean()) {
        throw input_error(
            fmt::format("{} has {} = {}, not true or false", source, key, value->dump()));
    }
    return value->get<bool>();
}

std::optional<unsigned long long> optional_count(const parsed_json* value, std::string_view key,
                                                 const std::string& source) {
    if (value == nullptr || value->is_null()) {
        return std::nullopt;
    }
    if (!value->is_number_unsigned()) {
        throw input_error(
            fmt::format("{} has {} = {}, not a whole number", source, key, value->dump()));
    }
    return value->get<unsigned long long>();
}

std::optional<std::string> optional_text(const parsed_json* value, std::string_view key,
                                         const std::string& source) {
    if (value == nullptr || value->is_null()) {
        return std::nullopt;
    }
    if (!value->is_string()) {
        throw input_error(fmt::format("{} has {} = {}, not a text", source, key, value->dump()));
    }
    return value->get<std::string>();
}

const parsed_json* nested(const parsed_json& doc, std::string_view object, std::string_view key) {
    const auto* outer = member_of(doc, object);
    return outer != nullptr ? member_of(*outer, key) : nullptr;
}

run_settings settings_of(const parsed_json& doc, const std::string& source) {
    run_settings settings;
    settings.spin = optional_flag(nested(doc, "config", "spin"), "config.spin", source);
    settings.server_spin = optional_flag(nested(doc, "server", "spin"), "server.spin", source);
    settings.poll_before_sleep_us = optional_count(nested(doc, "config", "poll_before_sleep_us"),
                                                   "config.poll_before_sleep_us", source);
    settings.server_poll_before_sleep_us = optional_count(
        nested(doc, "server", "poll_before_sleep_us"), "server.poll_before_sleep_us", source);
    settings.timestamps =
        optional_flag(nested(doc, "config", "timestamps"), "config.timestamps", source)
            .value_or(false);
    settings.streams =
        optional_count(nested(doc, "sctp", "streams_used"), "sctp.streams_used", source);
    settings.unordered = optional_flag(nested(doc, "sctp", "unordered"), "sctp.unordered", source);
    settings.arrivals = optional_text(nested(doc, "load", "arrivals"), "load.arrivals", source);
    settings.rate_per_s = optional_number(nested(doc, "config", "rate_per_s"), "config.rate_per_s",
                                          source, flow_rate_range);
    settings.flows = optional_count(nested(doc, "config", "flows"), "config.flows", source);
    settings.batch = optional_count(nested(doc, "config", "batch"), "config.batch", source);
    return settings;
}

// A run's failure or interruption, stated in the run itself (an element of
// "runs") or in the whole report; `what` is "x.json" or "run 3 of x.json".
void refuse_unfinished(const parsed_json& run, const std::string& what) {
    if (const auto* error = member_of(run, "error"); error != nullptr && !error->is_null()) {
        throw input_error(
            fmt::format("{} is the report of a failed run, with no figures to compare: {}", what,
                        error->is_string() ? error->get<std::string>() : error->dump()));
    }
    if (const auto* interrupted = member_of(run, "interrupted");
        interrupted != nullptr && interrupted->is_boolean() && interrupted->get<bool>()) {
        const auto* by = member_of(run, "interrupted_by");
        throw input_error(fmt::format(
            "{} is the report of an interrupted run{}: its figures cover only part of the run",
            what, by != nullptr && by->is_string() ? " (" + by->get<std::string>() + ")" : ""));
    }
}

// Every percentile `percentiles` states, from p50 up to the maximum, each
// checked to be a time; the first always_stated_percentiles and the maximum
// must be there, the others (p99.99 ...) may not be.
std::vector<stated_percentile> stated_percentiles(const parsed_json& percentiles,
                                                  const std::string& what) {
    std::vector<stated_percentile> stated;
    const auto state = [&](const std::string& key, std::uint32_t ppm, bool required) {
        const auto* value = member_of(percentiles, key);
        if ((value == nullptr || value->is_null()) && !required) {
            return;
        }
        if (value == nullptr || value->is_null()) {
            throw input_error(
                fmt::format("{} has no percentiles.{}: the run timed no round trip", what, key));
        }
        stated.push_back(
            {key, ppm, checked_number(value, "percentiles." + key, what, time_us_range)});
    };
    for (std::size_t i = 0; i < std::size(reported_percentiles); ++i) {
        const auto& point = reported_percentiles[i];
        state(percentile_json_key(point), point.parts_per_million, i < always_stated_percentiles);
    }
    state("max_us", 1'000'000, true);
    return stated;
}

// Percentiles never fall as they rise: p50 <= p90 <= ... <= max, in any run.
void refuse_falling(const std::vector<stated_percentile>& stated, const std::string& what) {
    for (std::size_t i = 1; i < stated.size(); ++i) {
        if (stated[i].us < stated[i - 1].us) {
            throw input_error(fmt::format(
                "{} has percentiles.{} = {} above percentiles.{} = {}: a percentile cannot "
                "exceed a higher one, or the maximum; the report was altered",
                what, stated[i - 1].key, format_number(stated[i - 1].us), stated[i].key,
                format_number(stated[i].us)));
        }
    }
}

// The client takes its percentiles from the histogram it encodes beside
// them: each is the highest value of the bucket that holds its rank, kept
// within the exact minimum and maximum, so it lies in the bucket where the
// decoded histogram puts that percentile (within 1/1024, or 1 ns below 2048
// ns). The maximum is exact and has a bucket of its own; values beyond the
// histogram's range share the last bucket, whose top the maximum may pass.
void refuse_unlike_histogram(const parsed_json& doc, const std::vector<stated_percentile>& stated,
                             const std::string& source) {
    const auto* encoded = member_of(doc, "hdr_histogram");
    if (encoded == nullptr || !encoded->is_string()) {
        return;
    }
    log_linear_histogram histogram;
    try {
        histogram = decode_compressed_histogram(encoded->get<std::string>());
    } catch (const histogram_decode_error& e) {
        throw input_error(
            fmt::format("{}: its hdr_histogram cannot be read: {}", source, e.what()));
    }
    if (histogram.count() == 0) {
        throw input_error(fmt::format(
            "{} states percentiles, but its hdr_histogram holds no value: the report was altered",
            source));
    }
    for (const auto& percentile : stated) {
        const double from_histogram_ns = histogram.percentile_ns(percentile.parts_per_million);
        const auto index =
            log_linear_histogram::bucket_index(static_cast<std::uint64_t>(from_histogram_ns));
        const auto low_ns = static_cast<double>(log_linear_histogram::bucket_low(index));
        const bool last = index + 1 == log_linear_histogram::counts_size();
        const double high_ns =
            last ? time_us_range.most * 1000.0
                 : low_ns + static_cast<double>(log_linear_histogram::bucket_width(index)) - 1.0;
        const double stated_ns = percentile.us * 1000.0;
        // Reports round to the nanosecond.
        if (stated_ns < low_ns - 0.5 || stated_ns > high_ns + 0.5) {
            throw input_error(fmt::format(
                "{} has percentiles.{} = {}, but its own hdr_histogram puts it at {} us (within "
                "1/1024): the report was altered",
                source, percentile.key, format_number(percentile.us),
                format_number(std::round(from_histogram_ns) / 1000.0)));
        }
    }
}

std::vector<stated_percentile> percentiles_of(const parsed_json& run, const std::string& what,
                                              const parsed_json* whole_report = nullptr) {
    const auto* percentiles = member_of(run, "percentiles");
    if (percentiles == nullptr || !percentiles->is_object()) {
        throw input_error(fmt::format("{} has no percentiles object", what));
    }
    const auto stated = stated_percentiles(*percentiles, what);
    refuse_falling(stated, what);
    if (whole_report != nullptr) {
        refuse_unlike_histogram(*whole_report, stated, what);
    }
    return stated;
}

void refuse_format_version(const parsed_json* version, const std::string& source) {
    if (version != nullptr && version->is_string()) {
        throw input_error(fmt::format(
            "{} has format_version {}, a text: the clients write the report format as a whole "
            "number ({} or later), so the report was altered or written by another program",
            source, version->dump(), oldest_format_version));
    }
    if (version != nullptr && version->is_number() && !version->is_number_integer()) {
        throw input_error(
            fmt::format("{} has format_version {}, not a whole number: the clients write {} or "
                        "later, so the report was altered",
                        source, version->dump(), oldest_format_version));
    }
    if (version == nullptr || !version->is_number_integer() ||
        version->get<long long>() < oldest_format_version) {
        throw input_error(fmt::format(
            "{} is in report format {}, older than this program reads ({} or later): run the "
            "client of this release again",
            source, version != nullptr ? version->dump() : "(none)", oldest_format_version));
    }
}

// The document of a finished client run's report, in a format this program
// reads.
parsed_json checked_report(std::string_view text, const std::string& source) {
    parsed_json doc = parse_report_json(text, source);
    const auto* tool = member_of(doc, "tool");
    if (tool == nullptr || *tool != "sctp-perf") {
        throw input_error(fmt::format(
            "{} is not an sctp-perf report: it has no \"tool\": \"sctp-perf\"", source));
    }
    refuse_unfinished(doc, source);
    const auto* program = member_of(doc, "program");
    const std::string program_name =
        program != nullptr && program->is_string() ? program->get<std::string>() : "";
    if (!program_name.ends_with("_clt")) {
        throw input_error(fmt::format(
            "{} was written by {}, not by a client: give the JSON reports of SOCK_STREAM_clt "
            "or SOCK_SEQPACK_clt (--format json)",
            source, program_name.empty() ? "an unnamed program" : program_name));
    }
    refuse_format_version(member_of(doc, "format_version"), source);
    return doc;
}

}  // namespace

client_report read_client_report(std::string_view text, const std::string& source) {
    client_report report;
    report.document = checked_report(text, source);
    const parsed_json& doc = report.document;
    report.source = source;
    // Object keys sorted, numbers in one form: equal texts are one report.
    report.content = doc.dump();
    const auto* program = member_of(doc, "program");
    report.program = program->get<std::string>();
    report.config = config_of(doc, source);
    report.settings = settings_of(doc, source);
    const auto* runs = member_of(doc, "runs");
    if (runs == nullptr) {
        report.runs.push_back(percentiles_of(doc, source, &doc));
        return report;
    }
    if (!runs->is_array() || runs->empty()) {
        throw input_error(
            fmt::format("{} has a \"runs\" member that is not a list of runs", source));
    }
    // The pooled figures are not read, but a report whose pooled
    // percentiles its histogram does not give is not one to trust.
    if (const auto* pooled = member_of(doc, "percentiles");
        pooled != nullptr && pooled->is_object()) {
        refuse_unlike_histogram(doc, stated_percentiles(*pooled, source), source);
    }
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const auto what = fmt::format("run {} of {}", i + 1, source);
        refuse_unfinished((*runs)[i], what);
        report.runs.push_back(percentiles_of((*runs)[i], what));
    }
    return report;
}

}  // namespace sctp_perf
