// SPDX-License-Identifier: Apache-2.0
#include "client/descriptor_budget.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <numeric>
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

namespace {

// Fan-out: the flows of the busiest pair of local address and server must
// each have a port of the pair.
std::optional<std::string> fan_out_port_shortfall(unsigned flows, std::size_t local_addresses,
                                                  std::size_t servers, port_range range) {
    const std::uint64_t addresses = std::max<std::size_t>(local_addresses, 1);
    const std::uint64_t pairs = std::lcm(addresses, std::uint64_t{servers});
    const std::uint64_t busiest = (flows + pairs - 1) / pairs;
    if (busiest <= range.count()) {
        return std::nullopt;
    }
    return fmt::format(
        "{} flows dealt over {} servers from {} local address{} put {} flows on one pair of "
        "local address and server, each holding a local port of its own, but the kernel hands "
        "out only {} per pair (net.ipv4.ip_local_port_range {} {}): give -i more local "
        "addresses (-i 127.0.0.1,127.0.0.2,... on loopback) or -H more servers, or ask for "
        "fewer --flows",
        flows, servers, addresses, addresses == 1 ? "" : "es", busiest, range.count(), range.first,
        range.last);
}

}  // namespace

std::optional<std::string> port_shortfall(unsigned flows, std::size_t local_addresses,
                                          bool dealt_over_addresses, port_range range,
                                          std::size_t servers) {
    if (dealt_over_addresses && servers > 1) {
        return fan_out_port_shortfall(flows, local_addresses, servers, range);
    }
    const std::uint64_t addresses =
        dealt_over_addresses ? std::max<std::size_t>(local_addresses, 1) : 1;
    const std::uint64_t ports = range.count() * addresses;
    if (flows <= ports) {
        return std::nullopt;
    }
    const auto range_text =
        fmt::format("net.ipv4.ip_local_port_range {} {}", range.first, range.last);
    if (!dealt_over_addresses) {
        return fmt::format(
            "{} flows need {} local ports, but the kernel hands out only {} ({}): ask for fewer "
            "--flows, or widen the range",
            flows, flows, ports, range_text);
    }
    const auto needed = (flows + range.count() - 1) / std::max<std::uint64_t>(range.count(), 1);
    return fmt::format(
        "{} flows need {} local ports, but {} local address{} ha{} only {} ({} per address, {}): "
        "give -i a list of {} local addresses (-i 127.0.0.1,127.0.0.2,... on loopback), which "
        "the flows are dealt over, or ask for fewer --flows",
        flows, flows, addresses, addresses == 1 ? "" : "es", addresses == 1 ? "s" : "ve", ports,
        range.count(), range_text, needed);
}

std::optional<port_range> read_port_range() {
    std::ifstream file("/proc/sys/net/ipv4/ip_local_port_range");
    port_range range;
    if (!(file >> range.first >> range.last)) {
        return std::nullopt;
    }
    return range;
}

void check_port_budget(const client_options& options, bool dealt_over_addresses) {
    if (options.client_port != 0) {
        return;
    }
    const auto range = read_port_range();
    if (!range) {
        return;  // not Linux, or no /proc: the connects will say it
    }
    const auto shortfall = port_shortfall(options.flows, options.client_addresses.size(),
                                          dealt_over_addresses, *range, options.servers.size());
    if (shortfall) {
        throw usage_error(*shortfall);
    }
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

void check_run_limits(const client_options& options, const program_info& program) {
    // The ports first (towards each server, with several): more
    // descriptors are of no use without them.
    check_port_budget(options, program.service != socket_service::seqpack);
    check_descriptor_limit(options);
}

}  // namespace sctp_perf
