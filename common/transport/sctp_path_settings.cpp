// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_path_settings.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "transport/socket_address.hpp"
#include "transport/socket_setup.hpp"

namespace sctp_perf {
namespace {

std::optional<std::uint32_t> read_sysctl(const char* name) {
    std::ifstream in(std::string("/proc/sys/net/sctp/") + name);
    std::uint32_t value = 0;
    if (!(in >> value)) {
        return std::nullopt;
    }
    return value;
}

template <class T>
void set_option(int fd, int name, const T& value, const std::string& what) {
    if (::setsockopt(fd, IPPROTO_SCTP, name, &value, sizeof value) != 0) {
        const int error = errno;
        throw std::system_error(error, std::generic_category(), what);
    }
}

// Returns 0, or the errno getsockopt() left.
template <class T>
int get_option(int fd, int name, T& value) {
    socklen_t length = sizeof value;
    return ::getsockopt(fd, IPPROTO_SCTP, name, &value, &length) == 0 ? 0 : errno;
}

// SCTP_PEER_ADDR_PARAMS for every path: the wildcard address (all zeros)
// names them all, and assoc id SCTP_FUTURE_ASSOC the associations to come.
// Linux (sctp_apply_peer_address_params) leaves a field of 0 unchanged and
// takes the heartbeat interval only with SPP_HB_ENABLE.
void apply_peer_address_params(int fd, const sctp_path_request& request) {
    if (!request.hb_interval_ms && !request.hb_off && !request.path_max_retrans) {
        return;
    }
    sctp_paddrparams params{};
    params.spp_assoc_id = SCTP_FUTURE_ASSOC;
    if (request.hb_off) {
        params.spp_flags |= SPP_HB_DISABLE;
    } else if (request.hb_interval_ms) {
        params.spp_flags |= SPP_HB_ENABLE;
        params.spp_hbinterval = *request.hb_interval_ms;
    }
    params.spp_pathmaxrxt = request.path_max_retrans.value_or(0);
    const char* option = request.path_max_retrans
                             ? (request.hb_interval_ms || request.hb_off
                                    ? "--sctp-hb-interval and --sctp-path-max-retrans"
                                    : "--sctp-path-max-retrans")
                             : "--sctp-hb-interval";
    set_option(fd, SCTP_PEER_ADDR_PARAMS, params,
               fmt::format("cannot set SCTP_PEER_ADDR_PARAMS for {}", option));
}

void apply_assoc_max_retrans(int fd, std::uint16_t retrans) {
    // Zero leaves a field unchanged (Linux sctp_setsockopt_associnfo).
    sctp_assocparams params{};
    params.sasoc_assoc_id = SCTP_FUTURE_ASSOC;
    params.sasoc_asocmaxrxt = retrans;
    set_option(fd, SCTP_ASSOCINFO, params,
               "cannot set SCTP_ASSOCINFO for --sctp-assoc-max-retrans");
}

void apply_pf_threshold(int fd, std::uint16_t threshold) {
    // Linux tests net.sctp.pf_enable on every timeout, whatever the socket
    // says: with it off, a threshold would be taken and never used.
    if (read_sysctl("pf_enable").value_or(1) == 0) {
        throw std::system_error(
            EINVAL, std::generic_category(),
            fmt::format("--sctp-pf-threshold {} cannot take effect: net.sctp.pf_enable is 0 in "
                        "this network namespace, so no path is ever potentially failed (set it "
                        "to 1 or drop the option)",
                        threshold));
    }
    // The first version of the option: its path-max-retrans of 0 leaves
    // that one as it is, and the primary-switchover threshold (version 2)
    // is not touched.
    sctp_paddrthlds thresholds{};
    thresholds.spt_assoc_id = SCTP_FUTURE_ASSOC;
    thresholds.spt_pathpfthld = threshold;
    if (::setsockopt(fd, IPPROTO_SCTP, SCTP_PEER_ADDR_THLDS, &thresholds, sizeof thresholds) != 0) {
        const int error = errno;
        throw std::system_error(
            error, std::generic_category(),
            error == ENOPROTOOPT
                ? "this kernel has no SCTP_PEER_ADDR_THLDS, so it cannot take --sctp-pf-threshold "
                  "(the potentially-failed state came with Linux 3.8)"
                : "cannot set SCTP_PEER_ADDR_THLDS for --sctp-pf-threshold");
    }
}

socket_address literal_address(const std::string& text, std::uint16_t port, bool mapped) {
    socket_address address;
    in_addr v4{};
    in6_addr v6{};
    if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
        if (mapped) {
            auto& sin6 = reinterpret_cast<sockaddr_in6&>(address.storage);
            sin6.sin6_family = AF_INET6;
            sin6.sin6_port = htons(port);
            sin6.sin6_addr.s6_addr[10] = 0xff;
            sin6.sin6_addr.s6_addr[11] = 0xff;
            std::memcpy(&sin6.sin6_addr.s6_addr[12], &v4, sizeof v4);
            address.length = sizeof sin6;
        } else {
            auto& sin = reinterpret_cast<sockaddr_in&>(address.storage);
            sin.sin_family = AF_INET;
            sin.sin_port = htons(port);
            sin.sin_addr = v4;
            address.length = sizeof sin;
        }
    } else if (::inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
        auto& sin6 = reinterpret_cast<sockaddr_in6&>(address.storage);
        sin6.sin6_family = AF_INET6;
        sin6.sin6_port = htons(port);
        sin6.sin6_addr = v6;
        address.length = sizeof sin6;
    }
    return address;
}

}  // namespace

void apply_sctp_path_settings(int fd, const sctp_path_request& request) {
    apply_peer_address_params(fd, request);
    if (request.assoc_max_retrans) {
        apply_assoc_max_retrans(fd, *request.assoc_max_retrans);
    }
    if (request.pf_threshold) {
        apply_pf_threshold(fd, *request.pf_threshold);
    }
}

void set_primary_path(int fd, std::int32_t assoc_id, const std::string& address,
                      std::uint16_t port) {
    // On an IPv6 socket an IPv4 peer may be known by its mapped form: the
    // plain one is tried first, then that.
    int error = 0;
    for (const bool mapped : {false, true}) {
        const auto target = literal_address(address, port, mapped);
        if (target.length == 0) {
            break;
        }
        sctp_prim primary{};
        primary.ssp_assoc_id = assoc_id;
        std::memcpy(&primary.ssp_addr, &target.storage, sizeof primary.ssp_addr);
        if (::setsockopt(fd, IPPROTO_SCTP, SCTP_PRIMARY_ADDR, &primary, sizeof primary) == 0) {
            return;
        }
        error = errno;
    }
    throw std::system_error(
        error != 0 ? error : EINVAL, std::generic_category(),
        fmt::format("--sctp-primary {}: cannot make it the primary path (SCTP_PRIMARY_ADDR); it "
                    "must be one of the server's addresses in the association",
                    address));
}

sctp_path_values read_sctp_path_settings(int fd, std::int32_t assoc_id) {
    sctp_path_values values;
    sctp_paddrparams params{};
    params.spp_assoc_id = assoc_id;
    if (const int error = get_option(fd, SCTP_PEER_ADDR_PARAMS, params); error != 0) {
        throw std::system_error(error, std::generic_category(),
                                "cannot read SCTP_PEER_ADDR_PARAMS");
    }
    values.hb_interval_ms = params.spp_hbinterval;
    values.hb_enabled = (params.spp_flags & SPP_HB_ENABLE) != 0;
    values.path_max_retrans = params.spp_pathmaxrxt;

    sctp_assocparams assoc{};
    assoc.sasoc_assoc_id = assoc_id;
    if (const int error = get_option(fd, SCTP_ASSOCINFO, assoc); error != 0) {
        throw std::system_error(error, std::generic_category(), "cannot read SCTP_ASSOCINFO");
    }
    values.assoc_max_retrans = assoc.sasoc_asocmaxrxt;

    sctp_paddrthlds thresholds{};
    thresholds.spt_assoc_id = assoc_id;
    if (get_option(fd, SCTP_PEER_ADDR_THLDS, thresholds) == 0) {
        values.pf_threshold = thresholds.spt_pathpfthld;
    }

    // Only an association has a primary path; a socket without one answers
    // an error, which leaves the field empty.
    sctp_prim primary{};
    primary.ssp_assoc_id = assoc_id;
    if (get_option(fd, SCTP_PRIMARY_ADDR, primary) == 0 && primary.ssp_addr.ss_family != 0) {
        values.primary = format_address(reinterpret_cast<const sockaddr*>(&primary.ssp_addr),
                                        sizeof primary.ssp_addr);
    }

    sctp_assoc_value expose{};
    expose.assoc_id = assoc_id;
    if (get_option(fd, SCTP_EXPOSE_POTENTIALLY_FAILED_STATE, expose) == 0) {
        values.pf_exposed = expose.assoc_value == sctp_pf_expose_enable;
    }
    return values;
}

sctp_path_system read_sctp_path_system() {
    sctp_path_system system;
    system.pf_enable = read_sysctl("pf_enable");
    system.pf_expose = read_sysctl("pf_expose");
    system.pf_retrans = read_sysctl("pf_retrans");
    system.ps_retrans = read_sysctl("ps_retrans");
    system.path_max_retrans = read_sysctl("path_max_retrans");
    system.association_max_retrans = read_sysctl("association_max_retrans");
    system.hb_interval_ms = read_sysctl("hb_interval");
    system.rto_initial_ms = read_sysctl("rto_initial");
    system.rto_min_ms = read_sysctl("rto_min");
    system.rto_max_ms = read_sysctl("rto_max");
    return system;
}

}  // namespace sctp_perf
