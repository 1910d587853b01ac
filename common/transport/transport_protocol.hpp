// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one seam between TCP and SCTP: which IP protocol a socket speaks.

#include <netinet/in.h>

#include <optional>
#include <string_view>

namespace sctp_perf {

enum class transport_protocol { sctp, tcp };

inline int ip_protocol_number(transport_protocol t) noexcept {
    return t == transport_protocol::sctp ? IPPROTO_SCTP : IPPROTO_TCP;
}

inline std::string_view name_of(transport_protocol t) noexcept {
    return t == transport_protocol::sctp ? "sctp" : "tcp";
}

inline std::string_view ipproto_name_of(transport_protocol t) noexcept {
    return t == transport_protocol::sctp ? "IPPROTO_SCTP" : "IPPROTO_TCP";
}

// Accepts "sctp" and "tcp" in any letter case.
std::optional<transport_protocol> parse_transport(std::string_view text) noexcept;

}  // namespace sctp_perf
