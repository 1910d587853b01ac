// SPDX-License-Identifier: Apache-2.0
#include "compare/merge_logs.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <system_error>

#include "compare/report_reader.hpp"
#include "report/histogram_log.hpp"

namespace sctp_perf::compare {
namespace {

// "1.000" for 1000 ms.
std::string seconds_text(std::int64_t ms) {
    return fmt::format("{}{}.{:03}", ms < 0 ? "-" : "", std::abs(ms) / 1000, std::abs(ms) % 1000);
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return q * b > a ? q - 1 : q;
}

// The interval length all logs share; refuses logs that differ.
std::int64_t common_interval_ms(const std::vector<histogram_log>& logs,
                                const std::vector<std::string>& names) {
    std::int64_t length = 0;
    for (const auto& log : logs) {
        length = std::max(length, interval_length_ms(log));
    }
    if (length <= 0) {
        throw input_error(
            fmt::format("{} has intervals of length 0: nothing to align them by", names.front()));
    }
    for (std::size_t i = 0; i < logs.size(); ++i) {
        const auto own = interval_length_ms(logs[i]);
        const bool one_interval = std::all_of(
            logs[i].intervals.begin(), logs[i].intervals.end(),
            [&](const auto& line) { return line.start_ms == logs[i].intervals.front().start_ms; });
        if (std::abs(own - length) > 1 && !one_interval) {
            throw input_error(fmt::format(
                "{} has intervals of {} s, another log of {} s: intervals of different lengths "
                "cannot be added one to one (give the clients the same --interval)",
                names[i], seconds_text(own), seconds_text(length)));
        }
    }
    return length;
}

// What a log measured, as one text: two logs with the same are one log
// given twice, or a copy, whatever their comments say.
std::string content_of(const histogram_log& log) {
    std::string content = fmt::format("{}\n", log.base_time_ms);
    for (const auto& line : log.intervals) {
        content += fmt::format("{},{},{},{}\n", line.tag, line.start_ms, line.length_ms,
                               line.histogram_base64);
    }
    return content;
}

}  // namespace

std::int64_t interval_length_ms(const histogram_log& log) {
    if (log.intervals.empty()) {
        return 0;
    }
    const std::int64_t first_start = log.intervals.front().start_ms;
    std::int64_t length = 0;
    for (const auto& line : log.intervals) {
        if (line.start_ms == first_start) {  // each tag's line of the first interval
            length = std::max(length, line.length_ms);
        }
    }
    return length;
}

merged_log merge_histogram_logs(const std::vector<histogram_log>& logs,
                                const std::vector<std::string>& names) {
    std::vector<std::string> contents;
    for (const auto& log : logs) {
        contents.push_back(content_of(log));
    }
    if (const auto repeated =
            find_repeated_input(std::vector<std::string_view>(contents.begin(), contents.end()))) {
        throw input_error(fmt::format(
            "{}, or its values would be added twice",
            repeated_input_sentence(names[repeated->first], names[repeated->again], "log")));
    }
    merged_log merged;
    merged.interval_ms = common_interval_ms(logs, names);
    const std::int64_t length = merged.interval_ms;
    const auto& first = logs.front();
    std::int64_t reference_ms = first.base_time_ms + first.intervals.front().start_ms;
    for (const auto& line : first.intervals) {
        reference_ms = std::min(reference_ms, first.base_time_ms + line.start_ms);
    }
    // (place, series) -> its line; series numbered in order of first appearance.
    std::map<std::pair<std::int64_t, std::size_t>, merged_interval> places;
    for (const auto& log : logs) {
        std::uint64_t count = 0;
        for (const auto& line : log.intervals) {
            const std::int64_t from_reference = log.base_time_ms + line.start_ms - reference_ms;
            const std::int64_t place = floor_div(from_reference + length / 2, length);
            merged.largest_misalignment_ms =
                std::max(merged.largest_misalignment_ms, std::abs(from_reference - place * length));
            const auto tag = std::find(merged.tags.begin(), merged.tags.end(), line.tag);
            const auto series = static_cast<std::size_t>(tag - merged.tags.begin());
            if (tag == merged.tags.end()) {
                merged.tags.push_back(line.tag);
            }
            auto& target = places[{place, series}];
            target.tag = line.tag;
            target.start_ms = place * length;
            target.length_ms = std::max(target.length_ms, line.length_ms);
            target.parts_base64.push_back(line.histogram_base64);
            count += line.count;
        }
        merged.input_counts.push_back(count);
        merged.merged_count += count;
    }
    const std::int64_t earliest = places.begin()->second.start_ms;
    merged.start_time_ms = reference_ms + earliest;
    for (auto& [key, line] : places) {
        line.start_ms -= earliest;
        merged.intervals.push_back(std::move(line));
    }
    return merged;
}

void write_merged_log(std::ostream& out, const merged_log& merged) {
    using std::chrono::milliseconds;
    histogram_log_writer writer(
        out, std::chrono::system_clock::time_point(milliseconds(merged.start_time_ms)));
    for (const auto& line : merged.intervals) {
        log_linear_histogram sum;
        for (const auto& part : line.parts_base64) {
            sum.merge(decode_compressed_histogram(part));
        }
        writer.write_interval(milliseconds(line.start_ms), milliseconds(line.length_ms), sum,
                              line.tag);
    }
}

void write_log_merge_summary(std::ostream& out, const merged_log& merged,
                             const std::vector<std::string>& names, const std::string& output) {
    std::vector<std::string> tags;
    for (const auto& tag : merged.tags) {
        tags.push_back(tag.empty() ? "(untagged)" : tag);
    }
    std::vector<std::string> counts;
    for (std::size_t i = 0; i < names.size(); ++i) {
        counts.push_back(fmt::format("{} {}", names[i], merged.input_counts[i]));
    }
    fmt::print(out,
               "{} interval logs merged into {}: {} lines of {} s intervals, series {}; values "
               "(all series) {} = {} in all; each interval placed within {} s of its place on "
               "the first log's grid\n",
               names.size(), output, merged.intervals.size(), seconds_text(merged.interval_ms),
               fmt::join(tags, ", "), fmt::join(counts, " + "), merged.merged_count,
               seconds_text(merged.largest_misalignment_ms));
}

merged_log merge_log_files(const std::vector<std::string>& paths, const std::string& output) {
    std::vector<histogram_log> logs;
    for (const auto& path : paths) {
        std::istringstream text(read_whole_file(path));
        try {
            logs.push_back(read_histogram_log(text, path));
        } catch (const histogram_decode_error& e) {
            throw input_error(e.what());
        }
    }
    const auto merged = merge_histogram_logs(logs, paths);
    std::ostringstream text;
    write_merged_log(text, merged);
    std::ofstream file(output, std::ios::binary | std::ios::trunc);
    file << text.str();
    file.close();
    if (!file) {
        throw std::system_error(errno, std::generic_category(),
                                fmt::format("cannot write the merged log to {}", output));
    }
    return merged;
}

}  // namespace sctp_perf::compare
