// SPDX-License-Identifier: Apache-2.0
#include "compare/merge_reports.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "compare/report_reader.hpp"
#include "report/client_report.hpp"

namespace sctp_perf::compare {

host_run parse_host_run(std::string_view text, const std::string& source) {
    auto report = read_client_report(text, source);
    auto figures = read_report_figures(report);
    host_run run;
    run.source = source;
    run.content = std::move(report.content);
    run.config = report.config;
    run.config_doc = report.document["config"];
    run.program = std::move(report.program);
    run.hostname = std::move(figures.hostname);
    run.measurement_began_at = std::move(figures.measurement_began_at);
    run.measurement_began = figures.measurement_began;
    run.start_at_requested = std::move(figures.start_at_requested);
    run.start_late_us = figures.start_late_us;
    run.duration_s = figures.duration_s;
    if (run.measurement_began) {
        run.measurement_ended =
            *run.measurement_began + std::chrono::duration_cast<wall_time::duration>(
                                         std::chrono::duration<double>(run.duration_s));
    }
    run.percentiles = std::move(figures.percentiles);
    run.headline = std::move(figures.headline);
    if (figures.load) {
        auto& load = *figures.load;
        run.counts = std::move(load.counts);
        run.flows = load.flows;
        // The client reports its rates per flow: this client's are for all its flows.
        run.rate_asked_per_s = load.rate_asked_per_flow_s * run.flows;
        run.rate_achieved_per_s = load.rate_achieved_per_flow_s * run.flows;
        run.payload_mb_per_s_sent = load.payload_mb_per_s_sent;
        run.payload_mb_per_s_received_by_server = load.payload_mb_per_s_received_by_server;
        run.corrected = std::move(load.corrected);
        run.uncorrected = std::move(load.uncorrected);
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
