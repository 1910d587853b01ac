// SPDX-License-Identifier: Apache-2.0
#include "options/server_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>

#include "options/client_options.hpp"

namespace sctp_perf {
namespace {

// A port as an entry writes it: 1..65535 in plain decimal digits.
std::optional<std::uint16_t> read_port(const std::string& text) {
    unsigned value = 0;
    const auto* end = text.data() + text.size();
    const auto [rest, problem] = std::from_chars(text.data(), end, value);
    if (text.empty() || problem != std::errc() || rest != end || value < 1 || value > 65535) {
        return std::nullopt;
    }
    return static_cast<std::uint16_t>(value);
}

// One entry, or the reason it cannot be read.
std::optional<server_endpoint> read_entry(const std::string& entry, std::uint16_t default_port,
                                          std::string& error) {
    std::string host = entry;
    std::string port;
    if (entry.front() == '[') {
        const auto close = entry.find(']');
        const auto after = close == std::string::npos ? std::string() : entry.substr(close + 1);
        if (close == std::string::npos || close == 1 || (!after.empty() && after.front() != ':')) {
            error = fmt::format(
                "-H/--server-host entry '{}' is not [IPv6]:PORT: write an IPv6 literal with a "
                "port as [::1]:45453",
                entry);
            return std::nullopt;
        }
        if (!after.empty()) {
            host = entry.substr(1, close - 1);
            port = after.substr(1);
            if (port.empty()) {
                port = ":";  // "[::1]:" names no port: unreadable below
            }
        }
    } else if (std::count(entry.begin(), entry.end(), ':') == 1) {
        const auto colon = entry.find(':');
        host = entry.substr(0, colon);
        port = entry.substr(colon + 1);
        if (port.empty()) {
            port = ":";
        }
    }
    // Two colons or more without brackets: an IPv6 literal alone, on -p.
    if (host.empty()) {
        error = fmt::format("-H/--server-host entry '{}' names no host", entry);
        return std::nullopt;
    }
    if (port.empty()) {
        return server_endpoint{host, default_port};
    }
    const auto number = read_port(port);
    if (!number) {
        error = fmt::format(
            "-H/--server-host entry '{}': the port must be 1..65535 (HOST:PORT, or [IPv6]:PORT)",
            entry);
        return std::nullopt;
    }
    return server_endpoint{host, *number};
}

}  // namespace

server_list_reading parse_server_list(const std::string& list, std::uint16_t default_port) {
    server_list_reading reading;
    for (const auto& entry : split_address_list(list)) {
        auto server = read_entry(entry, default_port, reading.error);
        if (!server) {
            reading.servers.clear();
            return reading;
        }
        if (std::find(reading.servers.begin(), reading.servers.end(), *server) !=
            reading.servers.end()) {
            reading.error = fmt::format(
                "-H/--server-host names {} twice: list each server once (its flows are counted "
                "per server)",
                endpoint_text(*server));
            reading.servers.clear();
            return reading;
        }
        reading.servers.push_back(std::move(*server));
    }
    if (reading.servers.empty()) {
        reading.error = "-H/--server-host must name a host";
    }
    return reading;
}

std::string endpoint_text(const server_endpoint& server) {
    std::string_view host = server.host;
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    }
    // Only an IPv6 literal holds a colon: names and IPv4 literals cannot.
    if (host.find(':') != std::string_view::npos) {
        return fmt::format("[{}]:{}", host, server.port);
    }
    return fmt::format("{}:{}", host, server.port);
}

std::vector<unsigned> flows_per_server(unsigned flows, std::size_t servers) {
    std::vector<unsigned> counts(std::max<std::size_t>(servers, 1), 0);
    const auto n = static_cast<unsigned>(counts.size());
    for (unsigned s = 0; s < n; ++s) {
        counts[s] = flows / n + (s < flows % n ? 1 : 0);
    }
    return counts;
}

}  // namespace sctp_perf
