// SPDX-License-Identifier: Apache-2.0
#include "server/server_main.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "errors.hpp"
#include "runtime/cpu_affinity.hpp"
#include "server/server_log.hpp"

namespace sctp_perf {
namespace {

// Descriptors kept free of sessions: the listener, the workers' epoll and
// eventfd descriptors, the log, /proc reads, and a few busy refusals.
constexpr rlim_t reserved_descriptors = 64;

// Every connection holds a descriptor, even one refused as busy or waiting
// out its header timeout. The soft limit (often 1024) is raised to the hard
// one, so that a flood of connections meets --max-clients and
// --header-timeout before it meets EMFILE. Returns the limit in force.
rlim_t raise_descriptor_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return RLIM_INFINITY;
    }
    if (limit.rlim_cur >= limit.rlim_max) {
        return limit.rlim_cur;
    }
    const auto soft = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        log_error("cannot raise the descriptor limit from {}: {}", soft, std::strerror(errno));
        return soft;
    }
    return limit.rlim_cur;
}

// --max-clients as asked, or its default within the descriptor limit; a
// number asked beyond the limit is a usage error that says what to do.
unsigned max_clients_within(unsigned asked, rlim_t descriptors) {
    const rlim_t room = descriptors > reserved_descriptors ? descriptors - reserved_descriptors : 1;
    if (asked == 0) {
        return static_cast<unsigned>(std::min<rlim_t>(default_max_clients, room));
    }
    if (asked > room) {
        throw usage_error(fmt::format(
            "--max-clients {} needs {} descriptors, and the limit is {}: raise it with "
            "'ulimit -n {}' (as root, or within the hard limit) or ask for fewer clients",
            asked, asked + reserved_descriptors, descriptors, asked + reserved_descriptors));
    }
    return asked;
}

// Where the worker threads run (--cpu: worker i on the list's i-th CPU),
// and a warning when more of them than CPUs would take turns on one.
void log_worker_placement(const server_options& resolved) {
    const auto cpus = worker_cpus(resolved.common.cpus, resolved.threads);
    if (!cpus.empty()) {
        log_info("worker threads pinned one each to CPUs {} (--cpu)", fmt::join(cpus, ", "));
    }
    // After pin_process: the affinity is the --cpu list, or what the server
    // was started with.
    if (const auto warning = shared_cpus_warning(resolved.threads, usable_cpu_count(),
                                                 !resolved.common.cpus.empty())) {
        log_line(log_level::error, "warning: " + *warning);
    }
}

}  // namespace

int server_main(int argc, const char* const* argv, const program_info& program,
                const server_runner& serve) {
    try {
        const auto options = parse_server_options(argc, argv, program, std::cout);
        if (!options) {
            return exit_success;
        }
        set_log_quiet(options->quiet);
        // Before the first thread and the listener: the sessions inherit it.
        pin_process(options->common.cpus);
        if (!options->common.cpus.empty()) {
            log_info("running on CPUs {} only (--cpu)", describe_cpus(options->common.cpus));
        }
        if (options->common.spin) {
            log_line(log_level::info,
                     "sessions poll their sockets while they wait for data (--spin)");
        } else if (options->common.poll_before_sleep.count() > 0) {
            log_info("waits poll for up to {} us before they sleep (--poll-before-sleep)",
                     options->common.poll_before_sleep.count());
        }
        if (options->test_reply_delay.count() != 0) {
            log_line(log_level::error,
                     fmt::format("warning: test hook: every ping-pong reply is held {} us before "
                                 "it is sent (--test-reply-delay); round trips measured against "
                                 "this server are not the transport's",
                                 options->test_reply_delay.count()));
        }
        if (options->test_wake_delay.count() != 0) {
            log_line(log_level::error,
                     fmt::format("warning: test hook: every request is taken {} us after its "
                                 "read, when the client asks for server timestamps "
                                 "(--test-wake-delay); round trips measured against this server "
                                 "are not the transport's",
                                 options->test_wake_delay.count()));
        }
        auto resolved = *options;
        resolved.max_clients = max_clients_within(options->max_clients, raise_descriptor_limit());
        if (serves_one_to_many(resolved, program)) {
            resolved.threads = 1;
            log_info(
                "one thread serves every association on the one-to-many socket, at most {} "
                "clients at once",
                resolved.max_clients);
        } else {
            resolved.threads =
                options->threads != 0
                    ? options->threads
                    : std::min(usable_cpu_count(), static_cast<unsigned>(max_server_threads));
            log_info("{} worker thread{}, at most {} clients at once", resolved.threads,
                     resolved.threads == 1 ? "" : "s", resolved.max_clients);
            log_worker_placement(resolved);
        }
        return serve(resolved, program);
    } catch (const usage_error& e) {
        std::cerr << program.name << ": " << e.what() << "\nTry '" << program.name
                  << " --help' for the options.\n";
        return exit_usage_error;
    } catch (const std::exception& e) {
        std::cerr << program.name << ": " << e.what() << '\n';
        return exit_runtime_failure;
    }
}

}  // namespace sctp_perf
