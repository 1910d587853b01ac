// SPDX-License-Identifier: Apache-2.0
#include "client/client_output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "errors.hpp"
#include "options/option_parsing.hpp"
#include "report/csv_summary.hpp"
#include "report/load_report.hpp"
#include "report/output_file.hpp"
#include "runtime/interrupt.hpp"
#include "runtime/standard_output.hpp"

namespace sctp_perf {

client_output_files open_output_files(const client_options& options) {
    client_output_files files;
    files.json_file = open_output_file(options.json_file, "JSON report file");
    files.flow_csv = open_output_file(options.flow_csv, "--flow-csv file");
    if (!options.csv_summary.empty()) {
        check_csv_summary_file(options.csv_summary);  // appended to, never truncated
    }
    return files;
}

void write_reports(const client_options& options, const run_report& report,
                   client_output_files& files) {
    std::ostringstream text;
    if (options.format == report_format::json) {
        write_json_report(text, report);
    } else {
        write_ace_report(text, report);
    }
    write_standard_output(text.str(), "the report");
    if (files.json_file.is_open()) {
        write_json_report(files.json_file, report);
        close_output_file(files.json_file, options.json_file, "JSON report file");
    }
    if (!options.csv_summary.empty()) {
        append_csv_summary(options.csv_summary, report);
    }
}

void write_flow_csv_file(const client_options& options, const load_result& load,
                         client_output_files& files) {
    if (files.flow_csv.is_open()) {
        write_flow_csv(files.flow_csv, load);
        close_output_file(files.flow_csv, options.flow_csv, "--flow-csv file");
    }
}

int exit_status_after_report() {
    const int signal = interrupt_flag().load();
    return signal != 0 ? exit_status_for_signal(signal) : exit_success;
}

std::string failure_sentence(const std::exception& e, const program_info& program) {
    const auto* connect = dynamic_cast<const connect_error*>(&e);
    if (connect != nullptr && connect->refused()) {
        return fmt::format("{}: is {} running?", e.what(), server_program_name(program));
    }
    return e.what();
}

namespace {

// Whether `path` is an empty file: one that a failure may fill. A file that
// holds anything (a whole report, when what failed came after writing it,
// or an earlier run's report, when the command line was refused) stays.
bool left_empty(const std::string& path) {
    std::error_code error;
    return std::filesystem::is_regular_file(path, error) &&
           std::filesystem::file_size(path, error) == 0 && !error;
}

}  // namespace

failure_outputs failure_outputs_requested(int argc, const char* const* argv) {
    const auto words = normalise_long_option_names(argc, argv);
    const auto last_value = [&words](std::string_view name) {
        std::string value;
        for (std::size_t i = 0; i < words.size(); ++i) {
            const std::string_view word = words[i];
            if (word == name && i + 1 < words.size()) {
                value = words[++i];
            } else if (word.size() > name.size() && word.starts_with(name) &&
                       word[name.size()] == '=') {
                value = word.substr(name.size() + 1);
            }
        }
        return value;
    };
    return {last_value("--format") == "json", last_value("--json-file")};
}

int report_failure(const program_info& program, const failure_outputs& outputs,
                   const std::string& message, int exit_code, const std::string& stderr_hint,
                   const std::string& json_message) {
    std::cerr << program.name << ": " << message << '\n' << stderr_hint;
    if (!outputs.json_on_stdout && outputs.json_file.empty()) {
        return exit_code;
    }
    std::ostringstream doc;
    write_json_error(doc, program, json_message.empty() ? message : json_message, exit_code);
    if (outputs.json_on_stdout) {
        try {
            write_standard_output(doc.str(), "the report");
        } catch (const std::system_error&) {
            // Standard output is gone (often the very failure being
            // reported); the line on stderr says what went wrong.
        }
    }
    if (!outputs.json_file.empty() && left_empty(outputs.json_file)) {
        // The run opened (and emptied) the file before it began; a script
        // that reads it finds the error document, not an empty file. A file
        // that cannot be written is the failure itself, said on stderr.
        std::ofstream file(outputs.json_file, std::ios::trunc);
        file << doc.str();
    }
    return exit_code;
}

}  // namespace sctp_perf
