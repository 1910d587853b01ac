// SPDX-License-Identifier: Apache-2.0
#include "client/descriptor_budget.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cerrno>
#include <system_error>

#include "errors.hpp"

namespace sctp_perf {
namespace {

std::uint64_t from_rlim(rlim_t value) noexcept {
    return value == RLIM_INFINITY ? UINT64_MAX : static_cast<std::uint64_t>(value);
}

}  // namespace

std::uint64_t descriptors_needed(unsigned flows, unsigned threads) noexcept {
    return std::uint64_t{flows} + threads + descriptor_reserve;
}

std::optional<std::string> descriptor_shortfall(unsigned flows, unsigned threads,
                                                descriptor_limit limit) {
    const auto needed = descriptors_needed(flows, threads);
    if (needed <= limit.soft) {
        return std::nullopt;
    }
    // Only root may raise the hard limit; anyone may raise the soft one up
    // to it, so the advice differs.
    const std::string hard =
        needed <= limit.hard
            ? std::string()
            : fmt::format(
                  "; the hard limit is {} (ulimit -Hn), so raise that first, as root (ulimit -Hn "
                  "{}, or nofile in /etc/security/limits.conf)",
                  limit.hard, needed);
    return fmt::format(
        "{} flow{} need{} {} file descriptors (a socket per flow, an epoll descriptor for each of "
        "the {} thread{} and {} for the standard streams, output files and /proc reads), but "
        "this process may open only {} (ulimit -n): run 'ulimit -n {}' first, or ask for fewer "
        "--flows{}",
        flows, flows == 1 ? "" : "s", flows == 1 ? "s" : "", needed, threads,
        threads == 1 ? "" : "s", descriptor_reserve, limit.soft, needed, hard);
}

void check_descriptor_limit(const client_options& options) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot read the file descriptor limit (getrlimit)");
    }
    const auto needed = descriptors_needed(options.flows, options.threads);
    // Anyone may raise the soft limit up to the hard one, as the server
    // does at start: a soft limit of 1024 (a common default) should not
    // stop 5,000 flows that the hard limit allows.
    if (from_rlim(limit.rlim_cur) < needed && needed <= from_rlim(limit.rlim_max)) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) {
            limit = raised;
        }
    }
    const auto shortfall = descriptor_shortfall(
        options.flows, options.threads, {from_rlim(limit.rlim_cur), from_rlim(limit.rlim_max)});
    if (shortfall) {
        throw usage_error(*shortfall);
    }
}

}  // namespace sctp_perf
