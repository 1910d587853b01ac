// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_main.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>

#include "compare/compare_options.hpp"
#include "compare/compare_report.hpp"
#include "compare/merge_logs.hpp"
#include "compare/merge_reports.hpp"
#include "compare/merged_report.hpp"
#include "compare/report_reader.hpp"
#include "compare/spectrum_plot.hpp"
#include "errors.hpp"
#include "runtime/standard_output.hpp"

namespace sctp_perf::compare {
namespace {

int merge_reports(const compare_options& options) {
    const auto merged =
        merge_report_files(options.merge_paths, options.allow_different, options.allow_apart);
    if (!options.output_file.empty()) {
        std::ostringstream json;
        write_json_merged(json, merged);
        std::ofstream file(options.output_file, std::ios::binary | std::ios::trunc);
        file << json.str();
        file.close();
        if (!file) {
            throw std::system_error(
                errno, std::generic_category(),
                fmt::format("cannot write the merged report to {}", options.output_file));
        }
    }
    std::ostringstream text;
    if (options.format == output_format::json) {
        write_json_merged(text, merged);
    } else {
        write_text_merged(text, merged);
    }
    write_standard_output(text.str(), "the merged report");
    return exit_success;
}

int merge_logs(const compare_options& options) {
    const auto merged = merge_log_files(options.merge_paths, options.output_file);
    std::ostringstream text;
    write_log_merge_summary(text, merged, options.merge_paths, options.output_file);
    write_standard_output(text.str(), "the summary of the merge");
    return exit_success;
}

int run(const compare_options& options) {
    if (options.action == compare_action::merge_reports) {
        return merge_reports(options);
    }
    if (options.action == compare_action::merge_logs) {
        return merge_logs(options);
    }
    const auto a_reports = read_reports(options.a_paths);
    const auto b_reports = read_reports(options.b_paths);
    refuse_repeated_reports(a_reports, b_reports);
    auto a = gather_side('A', options.a_paths, a_reports);
    auto b = gather_side('B', options.b_paths, b_reports);
    const auto differences = config_differences(a.config, b.config);
    if (!differences.empty() && !options.allow_different) {
        throw input_error(different_sides_sentence(differences));
    }
    compare_settings settings;
    settings.threshold_fraction = options.threshold_fraction;
    const auto result = compare_runs(std::move(a), std::move(b), settings, options.fail_if_slower);

    std::ostringstream text;
    if (options.format == output_format::json) {
        write_json_comparison(text, result);
    } else {
        write_text_comparison(text, result);
    }
    write_standard_output(text.str(), "the comparison");
    if (!options.plot_file.empty()) {
        draw_spectrum_plot(result, options.plot_file);
    }
    return result.exit_status;
}

}  // namespace

int compare_main(int argc, const char* const* argv) {
    // A reader of stdout that went away is a failure to report, not a
    // silent death by SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    const auto& name = compare_program().name;
    try {
        const auto options = parse_compare_options(argc, argv, std::cout);
        if (!options) {
            return exit_success;
        }
        return run(*options);
    } catch (const usage_error& e) {
        std::cerr << name << ": " << e.what() << '\n'
                  << fmt::format("Try '{} --help' for the options.\n", name);
        return exit_usage_error;
    } catch (const input_error& e) {
        std::cerr << name << ": " << e.what() << '\n';
        return exit_usage_error;
    } catch (const std::exception& e) {  // standard output, the plot
        std::cerr << name << ": " << e.what() << '\n';
        return exit_runtime_failure;
    }
}

}  // namespace sctp_perf::compare
