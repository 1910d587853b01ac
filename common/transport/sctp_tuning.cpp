// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_tuning.hpp"

#include <netinet/sctp.h>

#include <cerrno>
#include <fstream>
#include <system_error>

namespace sctp_perf {

void apply_sctp_rto(int fd, const sctp_rto_request& request) {
    if (!request.any()) {
        return;
    }
    // Zero leaves a field unchanged (RFC 6458, 8.1.1), so unset values keep
    // the socket's own.
    sctp_rtoinfo info{};
    info.srto_assoc_id = 0;
    info.srto_initial = request.initial_ms.value_or(0);
    info.srto_min = request.min_ms.value_or(0);
    info.srto_max = request.max_ms.value_or(0);
    if (::setsockopt(fd, IPPROTO_SCTP, SCTP_RTOINFO, &info, sizeof info) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot set SCTP_RTOINFO (check that rto-min <= rto-initial "
                                "<= rto-max, counting the socket's own values for unset ones)");
    }
}

sctp_rto_values read_sctp_rto(int fd, std::int32_t assoc_id) {
    sctp_rtoinfo info{};
    info.srto_assoc_id = assoc_id;
    socklen_t length = sizeof info;
    if (::getsockopt(fd, IPPROTO_SCTP, SCTP_RTOINFO, &info, &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot read SCTP_RTOINFO");
    }
    return {info.srto_initial, info.srto_min, info.srto_max};
}

std::optional<sctp_rto_values> read_system_sctp_rto() {
    const auto read_one = [](const char* name) -> std::optional<std::uint32_t> {
        std::ifstream in(std::string("/proc/sys/net/sctp/") + name);
        std::uint32_t value = 0;
        if (!(in >> value)) {
            return std::nullopt;
        }
        return value;
    };
    const auto initial = read_one("rto_initial");
    const auto min = read_one("rto_min");
    const auto max = read_one("rto_max");
    if (!initial || !min || !max) {
        return std::nullopt;
    }
    return sctp_rto_values{*initial, *min, *max};
}

}  // namespace sctp_perf
