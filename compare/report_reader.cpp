// SPDX-License-Identifier: Apache-2.0
#include "compare/report_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace sctp_perf::compare {
namespace {

using json = nlohmann::json;

// The oldest report format whose keys this reader knows (format 1 named the
// percentiles p50 ... max, without their unit).
constexpr int oldest_format_version = 2;

const json* member(const json& object, std::string_view key) {
    if (!object.is_object()) {
        return nullptr;
    }
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::string text_member(const json& config, std::string_view key, const std::string& source) {
    const auto* value = member(config, key);
    if (value == nullptr || !value->is_string()) {
        throw input_error(
            fmt::format("{} has no config.{} (a text): is it a client's report?", source, key));
    }
    return value->get<std::string>();
}

unsigned long long count_member(const json& config, std::string_view key,
                                const std::string& source) {
    const auto* value = member(config, key);
    if (value == nullptr || !value->is_number_unsigned()) {
        throw input_error(fmt::format(
            "{} has no config.{} (a whole number): is it a client's report?", source, key));
    }
    return value->get<unsigned long long>();
}

}  // namespace

run_config config_of(const json& doc, const std::string& source) {
    const auto* config = member(doc, "config");
    if (config == nullptr || !config->is_object()) {
        throw input_error(fmt::format("{} has no config object: is it a client's report?", source));
    }
    run_config result;
    result.service = text_member(*config, "service", source);
    result.transport = text_member(*config, "transport", source);
    result.mode = text_member(*config, "mode", source);
    result.payload_bytes = count_member(*config, "payload_bytes", source);
    result.reply_bytes = count_member(*config, "reply_bytes", source);
    const auto* nagle = member(*config, "nagle");
    result.nagle = nagle != nullptr && nagle->is_boolean() && nagle->get<bool>();
    return result;
}

namespace {

// A run's failure or interruption, stated in the run itself (an element of
// "runs") or in the whole report; `what` is "x.json" or "run 3 of x.json".
void refuse_unfinished(const json& run, const std::string& what) {
    if (const auto* error = member(run, "error"); error != nullptr && !error->is_null()) {
        throw input_error(
            fmt::format("{} is the report of a failed run, with no figures to compare: {}", what,
                        error->is_string() ? error->get<std::string>() : error->dump()));
    }
    if (const auto* interrupted = member(run, "interrupted");
        interrupted != nullptr && interrupted->is_boolean() && interrupted->get<bool>()) {
        const auto* by = member(run, "interrupted_by");
        throw input_error(fmt::format(
            "{} is the report of an interrupted run{}: its figures cover only part of the run",
            what, by != nullptr && by->is_string() ? " (" + by->get<std::string>() + ")" : ""));
    }
}

percentile_values_us percentiles_of(const json& run, const std::string& what) {
    const auto* percentiles = member(run, "percentiles");
    if (percentiles == nullptr || !percentiles->is_object()) {
        throw input_error(fmt::format("{} has no percentiles object", what));
    }
    percentile_values_us values{};
    for (const auto percentile : all_compared_percentiles) {
        const auto key = report_key_of(percentile);
        const auto* value = member(*percentiles, key);
        if (value == nullptr || !value->is_number()) {
            throw input_error(
                fmt::format("{} has no percentiles.{}: the run timed no round trip", what, key));
        }
        const double us = value->get<double>();
        // A ratio of medians needs positive values; a real round trip
        // always takes some time.
        if (!std::isfinite(us) || us <= 0.0) {
            throw input_error(fmt::format("{} has percentiles.{} = {}, not a positive time", what,
                                          key, value->dump()));
        }
        values[static_cast<std::size_t>(percentile)] = us;
    }
    return values;
}

std::string error_text(int error) {
    return std::error_code(error, std::generic_category()).message();
}

}  // namespace

json checked_report(std::string_view text, const std::string& source) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw input_error(
            fmt::format("{} is not an sctp-perf report: it is not JSON (unreadable at byte {})",
                        source, e.byte));
    }
    const auto* tool = member(doc, "tool");
    if (tool == nullptr || *tool != "sctp-perf") {
        throw input_error(fmt::format(
            "{} is not an sctp-perf report: it has no \"tool\": \"sctp-perf\"", source));
    }
    refuse_unfinished(doc, source);
    const auto* program = member(doc, "program");
    const std::string program_name =
        program != nullptr && program->is_string() ? program->get<std::string>() : "";
    if (!program_name.ends_with("_clt")) {
        throw input_error(fmt::format(
            "{} was written by {}, not by a client: give the JSON reports of SOCK_STREAM_clt "
            "or SOCK_SEQPACK_clt (--format json)",
            source, program_name.empty() ? "an unnamed program" : program_name));
    }
    const auto* version = member(doc, "format_version");
    if (version == nullptr || !version->is_number_integer() ||
        version->get<long long>() < oldest_format_version) {
        throw input_error(fmt::format(
            "{} is in report format {}, older than this program reads ({} or later): run the "
            "client of this release again",
            source, version != nullptr ? version->dump() : "(none)", oldest_format_version));
    }
    return doc;
}

report_runs parse_report(std::string_view text, const std::string& source) {
    const json doc = checked_report(text, source);
    report_runs report;
    report.source = source;
    report.config = config_of(doc, source);
    const auto* runs = member(doc, "runs");
    if (runs == nullptr) {
        report.runs.push_back(percentiles_of(doc, source));
        return report;
    }
    if (!runs->is_array() || runs->empty()) {
        throw input_error(
            fmt::format("{} has a \"runs\" member that is not a list of runs", source));
    }
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const auto what = fmt::format("run {} of {}", i + 1, source);
        refuse_unfinished((*runs)[i], what);
        report.runs.push_back(percentiles_of((*runs)[i], what));
    }
    return report;
}

std::vector<std::string> report_files_in(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const auto status = fs::status(path, error);
    if (error) {
        throw input_error(fmt::format("cannot read {}: {}", path, error.message()));
    }
    if (!fs::is_directory(status)) {
        return {path};
    }
    std::vector<std::string> files;
    for (fs::directory_iterator it(path, error), end; !error && it != end; it.increment(error)) {
        if (it->path().extension() == ".json" && !fs::is_directory(it->status())) {
            files.push_back(it->path().string());
        }
    }
    if (error) {
        throw input_error(fmt::format("cannot list the directory {}: {}", path, error.message()));
    }
    if (files.empty()) {
        throw input_error(fmt::format("the directory {} holds no *.json report", path));
    }
    std::sort(files.begin(), files.end());
    return files;
}

report_runs read_report_file(const std::string& path) {
    return parse_report(read_whole_file(path), path);
}

std::string read_whole_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw input_error(fmt::format("cannot read {}: {}", path, error_text(errno)));
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) {
        throw input_error(fmt::format("cannot read {}: {}", path, error_text(errno)));
    }
    return text.str();
}

side_runs gather_side(char name, const std::vector<std::string>& paths,
                      const std::vector<report_runs>& reports) {
    if (reports.empty()) {
        throw input_error(fmt::format("the {} side has no report", name));
    }
    side_runs side;
    side.paths = paths;
    side.config = reports.front().config;
    for (const auto& report : reports) {
        const auto differences = config_differences(reports.front().config, report.config,
                                                    reports.front().source, report.source);
        if (!differences.empty()) {
            throw input_error(fmt::format(
                "the {} side mixes configurations, so its runs measure different things: {}", name,
                fmt::join(differences, "; ")));
        }
        side.files.push_back(report.source);
        side.runs.insert(side.runs.end(), report.runs.begin(), report.runs.end());
    }
    return side;
}

side_runs read_side(char name, const std::vector<std::string>& paths) {
    std::vector<report_runs> reports;
    for (const auto& path : paths) {
        for (const auto& file : report_files_in(path)) {
            reports.push_back(read_report_file(file));
        }
    }
    return gather_side(name, paths, reports);
}

}  // namespace sctp_perf::compare
