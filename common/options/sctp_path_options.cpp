// SPDX-License-Identifier: Apache-2.0
#include "options/sctp_path_options.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <boost/program_options/value_semantic.hpp>
#include <utility>

#include "options/number_values.hpp"
#include "options/option_numbers.hpp"
#include "options/option_parsing.hpp"

namespace sctp_perf {
namespace po = boost::program_options;

void add_sctp_path_options(po::options_description& options, raw_sctp_path_options& raw,
                           std::vector<std::string>& unreadable) {
    // clang-format off
    options.add_options()
        ("sctp-hb-interval", po::value(&raw.hb_interval)->value_name("MS|off"),
         "heartbeat interval of each idle path, milliseconds, 1..86400000, or off "
         "(SCTP_PEER_ADDR_PARAMS); a heartbeat finds a failed path available again "
         "(default: the system's net.sctp.hb_interval)")
        ("sctp-path-max-retrans",
         count_value(raw.path_max_retrans, unreadable, "--sctp-path-max-retrans",
                     count_kind::integer)->value_name("N"),
         "retransmission timeouts a path may take in a row, 1..65535, before it is unreachable "
         "(SCTP_PEER_ADDR_PARAMS; default: net.sctp.path_max_retrans)")
        ("sctp-assoc-max-retrans",
         count_value(raw.assoc_max_retrans, unreadable, "--sctp-assoc-max-retrans",
                     count_kind::integer)->value_name("N"),
         "retransmission timeouts the association may take in a row over all its paths, "
         "1..65535, before it is given up (SCTP_ASSOCINFO; default: "
         "net.sctp.association_max_retrans)")
        ("sctp-pf-threshold",
         count_value(raw.pf_threshold, unreadable, "--sctp-pf-threshold", count_kind::integer)
             ->value_name("N"),
         "retransmission timeouts, 0..65535, after which a path is potentially failed and new "
         "data avoids it (RFC 7829, SCTP_PEER_ADDR_THLDS; needs net.sctp.pf_enable=1 and a value "
         "below --sctp-path-max-retrans - 1 to act; default: net.sctp.pf_retrans)");
    // clang-format on
}

void add_sctp_primary_option(po::options_description& options, raw_sctp_path_options& raw) {
    options.add_options()(
        "sctp-primary", po::value(&raw.primary)->value_name("ADDR"),
        "make this server address (an IPv4 or IPv6 literal, one of the association's) the "
        "primary path once connected (SCTP_PRIMARY_ADDR; default: the kernel's choice, the "
        "address connected to first)");
}

namespace {

bool is_ip_literal(const std::string& text) {
    in_addr v4{};
    in6_addr v6{};
    return ::inet_pton(AF_INET, text.c_str(), &v4) == 1 ||
           ::inet_pton(AF_INET6, text.c_str(), &v6) == 1;
}

// A retransmission limit: `low`..65535, when given.
std::optional<std::uint16_t> retrans_limit(const po::variables_map& given, const char* name,
                                           long long value, long long low, const char* meaning,
                                           std::vector<std::string>& errors) {
    if (!given_by_user(given, name)) {
        return std::nullopt;
    }
    if (value < low || value > max_path_retrans) {
        errors.push_back(
            fmt::format("--{} must be {}..{} {}", name, low, max_path_retrans, meaning));
        return std::nullopt;
    }
    return static_cast<std::uint16_t>(value);
}

void validate_hb_interval(const raw_sctp_path_options& raw, sctp_path_request& request,
                          std::vector<std::string>& errors) {
    if (raw.hb_interval == "off") {
        request.hb_off = true;
        return;
    }
    const auto reading = read_count(raw.hb_interval);
    if (!reading.value || *reading.value < 1 || *reading.value > max_hb_interval_ms) {
        errors.push_back(
            fmt::format("--sctp-hb-interval must be 1..{} milliseconds or off, not '{}'",
                        max_hb_interval_ms, raw.hb_interval));
        return;
    }
    request.hb_interval_ms = static_cast<std::uint32_t>(*reading.value);
}

}  // namespace

sctp_path_request validate_sctp_path_options(const raw_sctp_path_options& raw,
                                             const po::variables_map& given,
                                             transport_protocol transport,
                                             std::vector<std::string>& errors) {
    sctp_path_request request;
    if (transport == transport_protocol::tcp) {
        // One sentence for each option given, by name, so that a user who
        // asked for one learns it was not used.
        for (const char* name : {"sctp-hb-interval", "sctp-path-max-retrans",
                                 "sctp-assoc-max-retrans", "sctp-pf-threshold", "sctp-primary"}) {
            if (given_by_user(given, name)) {
                errors.push_back(
                    fmt::format("--{} applies to SCTP only; drop it or use -t sctp", name));
            }
        }
        return request;
    }
    if (given_by_user(given, "sctp-hb-interval")) {
        validate_hb_interval(raw, request, errors);
    }
    request.path_max_retrans = retrans_limit(given, "sctp-path-max-retrans", raw.path_max_retrans,
                                             1, "retransmission timeouts", errors);
    request.assoc_max_retrans =
        retrans_limit(given, "sctp-assoc-max-retrans", raw.assoc_max_retrans, 1,
                      "retransmission timeouts", errors);
    request.pf_threshold = retrans_limit(given, "sctp-pf-threshold", raw.pf_threshold, 0,
                                         "retransmission timeouts", errors);
    if (given_by_user(given, "sctp-primary")) {
        if (!is_ip_literal(raw.primary)) {
            errors.push_back(
                fmt::format("--sctp-primary takes an IPv4 or IPv6 address of the server, not '{}'",
                            raw.primary));
        } else {
            request.primary = raw.primary;
        }
    }
    return request;
}

}  // namespace sctp_perf
