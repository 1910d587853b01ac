// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options/value_semantic.hpp>
#include <boost/program_options/variables_map.hpp>
#include <charconv>
#include <cmath>

namespace sctp_perf::compare {

namespace po = boost::program_options;

namespace {

// What the command line gives, before validation.
struct raw_compare_options {
    std::vector<std::string> a_paths;
    std::vector<std::string> b_paths;
    std::string threshold = "5%";
    std::string fail_if_slower;
    bool fail_if_slower_given = false;  // even empty: "" is a gate asked for, not none
    bool allow_different = false;
    bool allow_apart = false;
    std::string format = "text";
    std::string plot_file;
    std::vector<std::string> merge_reports;
    std::vector<std::string> merge_logs;
    std::string output_file;
};

// A gate or threshold beyond this is a typo, not a tolerance: B ten times
// slower than A.
constexpr double largest_gate_fraction = 10.0;

void add_options(option_groups& groups, raw_compare_options& raw) {
    // clang-format off
    groups.test.add_options()
        ("a,a", po::value(&raw.a_paths)->multitoken()->composing()->value_name("PATH..."),
         "the A side, the baseline: JSON reports of SOCK_STREAM_clt or SOCK_SEQPACK_clt "
         "(--format json), or directories of them (every *.json inside)")
        ("b,b", po::value(&raw.b_paths)->multitoken()->composing()->value_name("PATH..."),
         "the B side, compared with A: the same kind of paths")
        ("threshold",
         po::value(&raw.threshold)->default_value("5%")->value_name("PERCENT"),
         "how far the ratio B/A must lie from 1 before a difference counts: a verdict needs its "
         "whole interval beyond 1 + PERCENT or below 1 - PERCENT")
        ("fail-if-slower", po::value(&raw.fail_if_slower)->value_name("LIST"),
         "a regression gate: exit 3 when, for any listed percentile, the ratio's whole interval "
         "lies above 1 + its PERCENT; e.g. p99:5%,p50:3% (p50, p90, p99, p99.9, max; one "
         "without :PERCENT takes --threshold); exit 4 when a side has too few runs to decide; "
         "an empty LIST is refused")
        ("allow-different", po::bool_switch(&raw.allow_different),
         "compare sides (or merge reports) that differ in transport, socket service, mode, "
         "payload size or reply size (say TCP against SCTP): the differences are shown; refused "
         "without it");
    groups.server.add_options()
        ("merge", po::value(&raw.merge_reports)->multitoken()->composing()->value_name("REPORT..."),
         "instead of comparing: merge the JSON reports (or directories of them) of clients that "
         "ran at the same time on several hosts into one report, with a row per host; their "
         "counts and their latency histograms are added (the same configuration in each, "
         "unless --allow-different)")
        ("merge-logs",
         po::value(&raw.merge_logs)->multitoken()->composing()->value_name("LOG..."),
         "instead of comparing: merge the HdrHistogram interval logs of those clients "
         "(--histogram-log) into one log, interval by interval (aligned by their start times; "
         "their intervals must be of one length) and tag by tag; needs -o")
        ("allow-apart", po::bool_switch(&raw.allow_apart),
         "with --merge: merge reports whose measurements did not overlap in time (clients run "
         "one after another): their latencies are merged, but their rates are not summed (the "
         "merged rates are left out); refused without it")
        ("output,o", po::value(&raw.output_file)->value_name("FILE"),
         "with --merge: also write the merged JSON report to FILE; with --merge-logs: write the "
         "merged interval log to FILE");
    groups.output.add_options()
        ("format", po::value(&raw.format)->default_value("text")->value_name("text|json"),
         "the comparison or the merged report on standard output as an aligned table, or as "
         "one JSON object")
        ("plot", po::value(&raw.plot_file)->value_name("FILE.png"),
         "also draw both sides' percentile spectra, with each median's interval over the "
         "runs, into this PNG file (needs gnuplot)");
    groups.general.add_options()
        ("help,h", "show this help and exit")
        ("version", "show the version and exit");
    // clang-format on
}

help_layout compare_help(const option_groups& groups) {
    help_layout help;
    help.usage =
        "sctp-perf-compare [options] --a PATH... --b PATH...\n"
        "  or:  sctp-perf-compare --merge REPORT... [-o MERGED.json] [--format text|json]\n"
        "  or:  sctp-perf-compare --merge-logs LOG... -o MERGED.hlog";
    help.groups = {{"Comparison", &groups.test},
                   {"Merging runs of several client hosts", &groups.server},
                   {"Output", &groups.output},
                   {"General", &groups.general}};
    const auto least = least_runs_per_side(bootstrap_settings{}.confidence);
    help.notes = fmt::format(
        "Each side is one configuration run several times ({} or more), each run a\n"
        "client report; a report of a client run with --repeat counts as each of its\n"
        "runs. For p50, p90, p99, p99.9 and max the table gives each side's median\n"
        "over its runs (us), the ratio B/A of those medians with a 95 % bootstrap\n"
        "interval, the two-sided Mann-Whitney U test's p-value (shown, not part of\n"
        "the verdict), the power, and a verdict: B slower or faster only when the\n"
        "whole interval lies beyond the threshold.\n"
        "The least number of runs: a verdict needs {} runs a side or more. With 4,\n"
        "the only distribution-free 95 % interval for the ratio is the widest,\n"
        "[min B / max A, max B / min A] (97.1 %; the next covers 94.3 %), and the\n"
        "bootstrap's lies inside it; from {} a narrower one reaches 95 % (98.4 %).\n"
        "Below it each row says \"too few runs for a verdict (n = 3, at least {}\n"
        "needed)\" and a gate exits 4.\n"
        "The power, per percentile: \"could call B/A\" gives the ratios beyond which\n"
        "these runs, at the spread they showed, would have given a verdict; \"runs\n"
        "for PERCENT\" about how many runs a side would narrow the interval to the\n"
        "threshold each way (enough to call twice the threshold).\n"
        "Each report counts once: one given twice (by content, whatever its name) or\n"
        "on both sides is refused. Numbers are checked where they are read: a time\n"
        "outside 1 ns .. 2^64 ns, a text for a number, percentiles that fall before\n"
        "the maximum or disagree with the report's hdr_histogram are refused.\n"
        "The same seed every time, so the same reports give the same output.\n"
        "PERCENT takes 5%, 5 or 2.5% (always percent).\n"
        "\n"
        "--merge is for one load spread over several client hosts at once: each\n"
        "client's report carries its full latency histogram (hdr_histogram), and\n"
        "the merged report's latency is the distribution over every timed message\n"
        "of every client, as if one client had timed them all (not an average of\n"
        "the clients' percentiles); counts and rates are the sums of the clients'.\n"
        "Their measurements must overlap in time, or their rates would be summed\n"
        "as if they ran at once (--allow-apart merges them without rates).\n"
        "--merge-logs aligns each interval to the nearest interval of the first log\n"
        "by absolute start time, so start the clients together (within a fraction\n"
        "of an interval), and refuses logs whose intervals differ in length. Both\n"
        "refuse a report or log given twice.\n"
        "Exit status: 0 compared or merged (and every gate passed), 1 runtime\n"
        "failure (the output, the plot or the merged file could not be written),\n"
        "2 bad options, reports or logs, 3 a --fail-if-slower percentile is slower,\n"
        "4 the gate could not decide: a side has fewer than {} runs.\n",
        least, least, least, least, least);
    help.examples =
        "  sctp-perf-compare --a tcp-runs --b sctp-runs --allow-different\n"
        "      TCP against SCTP, each side a directory of client reports\n"
        "  sctp-perf-compare -a old/*.json -b new/*.json --fail-if-slower p99:5%,p50:3%\n"
        "      exit 3 when new is slower than old by over 5 % at p99 or 3 % at p50\n"
        "  sctp-perf-compare -a nagle-off -b nagle-on --format json --plot nagle.png\n"
        "      the comparison as JSON, and both spectra drawn into nagle.png\n"
        "  sctp-perf-compare --merge host1.json host2.json host3.json -o merged.json\n"
        "      one report of three clients that loaded one server together\n"
        "  sctp-perf-compare --merge-logs host1.hlog host2.hlog -o merged.hlog\n"
        "      their interval logs merged, for HdrHistogram's tools\n";
    return help;
}

void validate_threshold(const raw_compare_options& raw, compare_options& options,
                        std::vector<std::string>& errors) {
    const auto threshold = read_percent(raw.threshold);
    if (!threshold) {
        errors.push_back(fmt::format("--threshold must be a percentage such as 5% or 2.5, not '{}'",
                                     raw.threshold));
    } else if (*threshold >= 1.0) {
        errors.push_back(fmt::format(
            "--threshold must be below 100%, not {}: B cannot be faster by 100 % or more",
            raw.threshold));
    } else {
        options.threshold_fraction = *threshold;
    }
}

// --merge and --merge-logs: the action, its inputs, and the options that
// only a comparison takes refused.
void validate_merge(const raw_compare_options& raw, compare_options& options,
                    std::vector<std::string>& errors) {
    const bool reports = !raw.merge_reports.empty();
    const bool logs = !raw.merge_logs.empty();
    if (reports && logs) {
        errors.push_back(
            "give --merge or --merge-logs, not both: merge the reports and the logs "
            "in two runs");
    }
    options.action = reports ? compare_action::merge_reports : compare_action::merge_logs;
    options.merge_paths = reports ? raw.merge_reports : raw.merge_logs;
    const auto* name = reports ? "--merge" : "--merge-logs";
    // A directory may hold every report, so --merge counts its reports when
    // it reads them (merge_host_runs).
    if (options.merge_paths.size() < (reports ? 1u : 2u)) {
        errors.push_back(fmt::format("{} needs two or more files to merge, not {}", name,
                                     options.merge_paths.size()));
    }
    if (!raw.a_paths.empty() || !raw.b_paths.empty()) {
        errors.push_back(
            fmt::format("{} merges, --a and --b compare: give one or the other", name));
    }
    if (raw.fail_if_slower_given || !raw.plot_file.empty() || raw.threshold != "5%") {
        errors.push_back(fmt::format(
            "--threshold, --fail-if-slower and --plot are for comparisons, not for {}", name));
    }
    if (logs && raw.output_file.empty()) {
        errors.push_back("--merge-logs needs -o FILE for the merged log");
    }
    if (logs && raw.format != "text") {
        errors.push_back(
            "--format is for comparisons and --merge: --merge-logs writes a log "
            "(-o) and a line of text");
    }
    if (logs && raw.allow_different) {
        errors.push_back("--allow-different is for reports: logs hold no configuration to check");
    }
    if (logs && raw.allow_apart) {
        errors.push_back(
            "--allow-apart is for --merge: logs are aligned by time, and refused only for "
            "intervals of different lengths");
    }
    options.output_file = raw.output_file;
}

compare_options validate(const raw_compare_options& raw) {
    std::vector<std::string> errors;
    compare_options options;
    options.a_paths = raw.a_paths;
    options.b_paths = raw.b_paths;
    if (!raw.merge_reports.empty() || !raw.merge_logs.empty()) {
        validate_merge(raw, options, errors);
    } else {
        if (options.a_paths.empty()) {
            errors.push_back(
                "give the A side with --a PATH... (client reports, or directories of them)");
        }
        if (options.b_paths.empty()) {
            errors.push_back(
                "give the B side with --b PATH... (client reports, or directories of them)");
        }
        if (!raw.output_file.empty()) {
            errors.push_back(
                "-o is for --merge and --merge-logs: a comparison goes to standard "
                "output (--format json for a file)");
        }
        if (raw.allow_apart) {
            errors.push_back(
                "--allow-apart is for --merge: the runs a comparison compares are apart in time "
                "anyway");
        }
    }
    validate_threshold(raw, options, errors);
    if (raw.fail_if_slower_given && raw.merge_reports.empty() && raw.merge_logs.empty()) {
        options.fail_if_slower =
            read_gate_rules(raw.fail_if_slower, options.threshold_fraction, errors);
    }
    options.allow_different = raw.allow_different;
    options.allow_apart = raw.allow_apart;
    if (raw.format == "text") {
        options.format = output_format::text;
    } else if (raw.format == "json") {
        options.format = output_format::json;
    } else {
        errors.push_back(fmt::format("--format must be text or json, not '{}'", raw.format));
    }
    options.plot_file = raw.plot_file;
    throw_if_invalid(errors, compare_program());
    return options;
}

}  // namespace

const program_info& compare_program() {
    static const program_info program{"sctp-perf-compare",
                                      // One line, so that it is the whole of the man page's NAME.
                                      "compares sctp-perf runs beyond the noise, or merges them",
                                      // It opens no socket: nothing reads its service.
                                      socket_service::stream, false};
    return program;
}

std::optional<double> read_percent(std::string_view text) {
    if (text.ends_with('%')) {
        text.remove_suffix(1);
    }
    double percent = 0.0;
    const auto* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, percent);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(percent) ||
        percent < 0.0) {
        return std::nullopt;
    }
    return percent / 100.0;
}

std::optional<compared_percentile> read_percentile_name(std::string_view text) {
    if (text == "p99_9") {
        return compared_percentile::p99_9;
    }
    for (const auto percentile : all_compared_percentiles) {
        if (text == label_of(percentile)) {
            return percentile;
        }
    }
    return std::nullopt;
}

std::vector<gate_rule> read_gate_rules(std::string_view text, double default_threshold_fraction,
                                       std::vector<std::string>& errors) {
    std::vector<gate_rule> rules;
    // An empty list most often comes from an empty variable in a script: a
    // gate that checks nothing would pass every build, so it is refused.
    if (text.find_first_not_of(" \t") == std::string_view::npos) {
        errors.push_back(
            "--fail-if-slower needs a list such as p99:5%,p50:3%, not an empty one (is the "
            "variable that holds it empty?): a gate that checks nothing would pass everything");
        return rules;
    }
    const auto whole = text;
    bool empty_item = false;  // said once, however many commas stand together
    while (true) {
        const auto comma = text.find(',');
        const auto item = text.substr(0, comma);
        const auto colon = item.find(':');
        const auto name = item.substr(0, colon);
        const auto percentile = read_percentile_name(name);
        std::optional<double> threshold = default_threshold_fraction;
        if (colon != std::string_view::npos) {
            threshold = read_percent(item.substr(colon + 1));
        }
        if (item.empty()) {
            if (!empty_item) {
                errors.push_back(fmt::format(
                    "--fail-if-slower: '{}' has an empty item (a comma at an end, or two "
                    "together): list percentiles such as p99:5%,p50:3%",
                    whole));
            }
            empty_item = true;
        } else if (!percentile) {
            errors.push_back(fmt::format(
                "--fail-if-slower: '{}' is not a percentile compared (p50, p90, p99, p99.9, max)",
                name));
        } else if (!threshold || *threshold > largest_gate_fraction) {
            errors.push_back(fmt::format(
                "--fail-if-slower: '{}' must be PERCENTILE:PERCENT with a percentage from 0 to "
                "1000, such as p99:5%",
                item));
        } else if (std::any_of(rules.begin(), rules.end(),
                               [&](const auto& r) { return r.percentile == *percentile; })) {
            errors.push_back(fmt::format("--fail-if-slower names {} twice", label_of(*percentile)));
        } else {
            rules.push_back({*percentile, *threshold});
        }
        if (comma == std::string_view::npos) {
            break;
        }
        text.remove_prefix(comma + 1);
    }
    return rules;
}

std::optional<compare_options> parse_compare_options(int argc, const char* const* argv,
                                                     std::ostream& out) {
    option_groups groups;
    raw_compare_options raw;
    add_options(groups, raw);
    const auto help = compare_help(groups);
    po::variables_map given;
    if (!parse_command_line(argc, argv, groups, help, compare_program(), given, out)) {
        return std::nullopt;
    }
    raw.fail_if_slower_given = given.count("fail-if-slower") > 0;
    return validate(raw);
}

}  // namespace sctp_perf::compare
