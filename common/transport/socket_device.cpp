// SPDX-License-Identifier: Apache-2.0
#include "transport/socket_device.hpp"

#include <net/if.h>
#include <netinet/sctp.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <system_error>

namespace sctp_perf {

void bind_to_device(int fd, const std::string& device) {
    if (::setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, device.c_str(),
                     static_cast<socklen_t>(device.size() + 1)) == 0) {
        return;
    }
    const int error = errno;
    if (error == EPERM) {
        throw std::system_error(error, std::generic_category(),
                                "cannot bind the socket to device " + device +
                                    " (SO_BINDTODEVICE): run as root or give the program "
                                    "CAP_NET_RAW (setcap cap_net_raw+ep PROGRAM)");
    }
    throw std::system_error(error, std::generic_category(),
                            "cannot bind the socket to device " + device + " (SO_BINDTODEVICE)");
}

std::string bound_device_of(int fd) {
    std::array<char, IFNAMSIZ> name{};
    socklen_t length = name.size();
    if (::getsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, name.data(), &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot read SO_BINDTODEVICE");
    }
    // The kernel returns the name without its NUL, or nothing at all.
    std::string device(name.data(), length);
    return device.substr(0, device.find('\0'));
}

void apply_max_segment(int fd, transport_protocol transport, std::uint32_t bytes) {
    if (transport == transport_protocol::tcp) {
        const int value = static_cast<int>(bytes);
        if (::setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &value, sizeof value) != 0) {
            throw std::system_error(errno, std::generic_category(),
                                    "cannot set TCP_MAXSEG (--max-seg)");
        }
        return;
    }
    sctp_assoc_value value{};
    value.assoc_id = 0;  // SCTP_FUTURE_ASSOC: the socket's, and every association to come
    value.assoc_value = bytes;
    if (::setsockopt(fd, IPPROTO_SCTP, SCTP_MAXSEG, &value, sizeof value) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot set SCTP_MAXSEG (--max-seg)");
    }
}

std::uint32_t read_max_segment(int fd, transport_protocol transport, std::int32_t assoc_id) {
    if (transport == transport_protocol::tcp) {
        int value = 0;
        socklen_t length = sizeof value;
        if (::getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &value, &length) != 0) {
            throw std::system_error(errno, std::generic_category(), "cannot read TCP_MAXSEG");
        }
        return static_cast<std::uint32_t>(value);
    }
    sctp_assoc_value value{};
    value.assoc_id = assoc_id;
    socklen_t length = sizeof value;
    if (::getsockopt(fd, IPPROTO_SCTP, SCTP_MAXSEG, &value, &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot read SCTP_MAXSEG");
    }
    return value.assoc_value;
}

}  // namespace sctp_perf
