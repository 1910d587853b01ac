// SPDX-License-Identifier: Apache-2.0
#include "options/fault_options.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options/value_semantic.hpp>
#include <cctype>
#include <cmath>

#include "options/number_values.hpp"
#include "options/option_numbers.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

void add_fault_options(po::options_description& options, raw_fault_options& raw,
                       std::vector<std::string>& unreadable) {
    // clang-format off
    options.add_options()
        ("at", po::value(&raw.at)->composing()->value_name("S:COMMAND"),
         "run COMMAND (with /bin/sh -c, in a process group of its own) S seconds into the "
         "measured run, to inject a fault or undo one, e.g. --at '2:tc qdisc add dev eth1 root "
         "netem loss 100%' --at '6:tc qdisc del dev eth1 root'; repeatable; the report gives "
         "when each started, how long it took and its exit status, and measures what the "
         "commands of the earliest instant cost, undone by those of the next (failure)")
        ("at-timeout", real_value(raw.timeout_s, unreadable, "--at-timeout", real_kind::seconds)
             ->default_value(default_text(default_fault_timeout))->value_name("S"),
         "kill an --at command, with its whole process group, that still runs S seconds after "
         "it started (0.1..86400); the report says it was killed")
        ("at-output", po::value(&raw.output_dir)->value_name("DIR"),
         "write each --at command's output (stdout and stderr) to DIR/PROGRAM-at-K.log, K its "
         "place on the command line (default: the current directory)")
        ("reconnect", po::bool_switch(&raw.reconnect),
         "--rate and --throughput: a flow whose connection or association ends (the server "
         "closed, reset or aborted it, or restarted) connects again and carries on; the report "
         "gives each flow's "
         "outages (time without service, replies lost, messages not sent) and their "
         "distribution; without it such a run fails at once")
        ("reconnect-backoff", real_value(raw.reconnect_backoff_s, unreadable,
                                         "--reconnect-backoff", real_kind::seconds)
             ->default_value(default_text(default_reconnect_backoff))->value_name("S"),
         "with --reconnect: the longest wait between two attempts of a flow, 0.001..60 s; the "
         "first wait is 0.01 s and each failed attempt doubles it, each drawn at random from "
         "its upper half so that flows spread out");
    // clang-format on
}

fault_reading parse_fault_command(const std::string& text) {
    fault_reading reading;
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        reading.error = fmt::format(
            "--at takes SECONDS:COMMAND, such as '2.5:ip link set eth1 down', not '{}'", text);
        return reading;
    }
    const auto seconds_text = text.substr(0, colon);
    const auto command = text.substr(colon + 1);
    const auto seconds = read_real(seconds_text);
    if (!seconds.value || !std::isfinite(*seconds.value) || *seconds.value < 0.0 ||
        *seconds.value > max_fault_at_s) {
        reading.error = fmt::format(
            "--at {}: the time must be 0..{:.0f} seconds into the measured run, not '{}'", text,
            max_fault_at_s, seconds_text);
        return reading;
    }
    if (std::all_of(command.begin(), command.end(),
                    [](unsigned char c) { return std::isspace(c) != 0; })) {
        reading.error = fmt::format("--at {}: the command after the colon is empty", text);
        return reading;
    }
    reading.command = fault_command{
        std::chrono::nanoseconds(static_cast<long long>(*seconds.value * 1e9 + 0.5)), command};
    return reading;
}

namespace {

bool is_writable_directory(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
           ::access(path.c_str(), W_OK | X_OK) == 0;
}

}  // namespace

fault_request validate_fault_options(const raw_fault_options& raw, const po::variables_map& given,
                                     const std::optional<std::chrono::nanoseconds>& duration,
                                     unsigned repeat, std::vector<std::string>& errors) {
    fault_request request;
    for (const auto& text : raw.at) {
        auto reading = parse_fault_command(text);
        if (!reading.command) {
            errors.push_back(reading.error);
            continue;
        }
        if (duration && reading.command->at >= *duration) {
            errors.push_back(
                fmt::format("--at {}: {:g} s is not within the measured run of --duration {:g} s",
                            text, std::chrono::duration<double>(reading.command->at).count(),
                            std::chrono::duration<double>(*duration).count()));
            continue;
        }
        request.commands.push_back(std::move(*reading.command));
    }
    const bool at = given.count("at") > 0;
    if (!given["at-timeout"].defaulted()) {
        if (!at) {
            errors.push_back("--at-timeout needs --at: it bounds the commands --at runs");
        } else if (!(raw.timeout_s >= 0.1 && raw.timeout_s <= max_fault_timeout_s)) {
            errors.push_back("--at-timeout must be 0.1..86400 seconds");
        } else {
            request.timeout =
                std::chrono::milliseconds(static_cast<long long>(raw.timeout_s * 1000.0 + 0.5));
        }
    }
    if (given.count("at-output")) {
        if (!at) {
            errors.push_back("--at-output needs --at: it is where the commands' output goes");
        } else if (raw.output_dir.empty() || !is_writable_directory(raw.output_dir)) {
            errors.push_back(fmt::format(
                "--at-output {}: not a directory this program may write in", raw.output_dir));
        } else {
            request.output_dir = raw.output_dir;
        }
    }
    request.reconnect.enabled = raw.reconnect;
    if (!given["reconnect-backoff"].defaulted()) {
        if (!raw.reconnect) {
            errors.push_back(
                "--reconnect-backoff needs --reconnect: it bounds the waits between attempts to "
                "connect again");
        } else if (!(raw.reconnect_backoff_s >= min_reconnect_backoff_s &&
                     raw.reconnect_backoff_s <= max_reconnect_backoff_s)) {
            errors.push_back("--reconnect-backoff must be 0.001..60 seconds");
        } else {
            request.reconnect.longest_wait = std::chrono::milliseconds(
                static_cast<long long>(raw.reconnect_backoff_s * 1000.0 + 0.5));
        }
    }
    if (at && repeat > 1) {
        errors.push_back(
            "--at describes one run: it cannot be given with --repeat above 1 (give each run its "
            "own --at)");
    }
    return request;
}

}  // namespace sctp_perf
