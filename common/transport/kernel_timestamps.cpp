// SPDX-License-Identifier: Apache-2.0
#include "transport/kernel_timestamps.hpp"

#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <netinet/in.h>
#include <poll.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

#include "transport/unique_fd.hpp"

namespace sctp_perf {
namespace {

std::int64_t ns_of(const timespec& t) noexcept {
    return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

// Whether a control message `c` of `header` holds `size` bytes of data,
// both by its own length and within the buffer: CMSG_FIRSTHDR and
// CMSG_NXTHDR bound where a message starts, not the length it claims.
bool holds(const msghdr& header, const cmsghdr& c, std::size_t size) noexcept {
    const auto* end = static_cast<const unsigned char*>(header.msg_control) + header.msg_controllen;
    const auto* data = CMSG_DATA(&c);
    return c.cmsg_len >= CMSG_LEN(size) && data <= end &&
           size <= static_cast<std::size_t>(end - data);
}

// The first timespec of an SCM_TIMESTAMPING message: the software stamp
// (the second is unused, the third the hardware's).
std::optional<std::int64_t> software_stamp_of(const msghdr& header, const cmsghdr& c) noexcept {
    if (c.cmsg_level != SOL_SOCKET || c.cmsg_type != SCM_TIMESTAMPING ||
        !holds(header, c, sizeof(scm_timestamping))) {
        return std::nullopt;
    }
    scm_timestamping stamps{};
    std::memcpy(&stamps, CMSG_DATA(&c), sizeof stamps);
    if (stamps.ts[0].tv_sec == 0 && stamps.ts[0].tv_nsec == 0) {
        return std::nullopt;  // a hardware stamp alone
    }
    return ns_of(stamps.ts[0]);
}

std::string probe_failure(const char* what) {
    return std::string("could not see whether the kernel stamps arrivals yet (") + what +
           " of a loopback UDP probe: " + std::strerror(errno) + ")";
}

// One byte sent to `self` and read back: whether it arrived stamped.
// Loopback delivers within the send; the poll only bounds a lost byte.
std::optional<bool> probe_arrives_stamped(int fd, const sockaddr_in& self) {
    const char byte = 0;
    if (::sendto(fd, &byte, 1, 0, reinterpret_cast<const sockaddr*>(&self), sizeof self) != 1) {
        return std::nullopt;
    }
    pollfd readable{fd, POLLIN, 0};
    if (::poll(&readable, 1, 1) <= 0) {
        return false;
    }
    std::byte got{};
    std::int64_t arrival_ns = 0;
    return receive_stamped(fd, {&got, 1}, MSG_DONTWAIT, arrival_ns) == 1 && arrival_ns != 0;
}

}  // namespace

static_assert(receive_stamp_control_size == CMSG_SPACE(sizeof(scm_timestamping)));

void enable_kernel_timestamps(int fd, bool transmit, bool scheduled) {
    unsigned flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
    if (transmit) {
        flags |= SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_OPT_ID |
                 SOF_TIMESTAMPING_OPT_TSONLY;
        if (scheduled) {
            flags |= SOF_TIMESTAMPING_TX_SCHED;
        }
    }
    if (::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof flags) != 0) {
        throw std::system_error(errno, std::generic_category(),
                                "turning on the kernel's timestamps (SO_TIMESTAMPING)");
    }
}

std::optional<std::string> await_receive_stamping(std::chrono::milliseconds bound) {
    const unique_fd probe(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!probe) {
        return probe_failure("socket()");
    }
    const unsigned flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
    if (::setsockopt(probe.get(), SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof flags) != 0) {
        return probe_failure("SO_TIMESTAMPING");
    }
    sockaddr_in self{};
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t self_size = sizeof self;
    if (::bind(probe.get(), reinterpret_cast<const sockaddr*>(&self), sizeof self) != 0 ||
        ::getsockname(probe.get(), reinterpret_cast<sockaddr*>(&self), &self_size) != 0) {
        return probe_failure("bind()");
    }
    const auto deadline = std::chrono::steady_clock::now() + bound;
    for (;;) {
        const auto stamped = probe_arrives_stamped(probe.get(), self);
        if (!stamped) {
            return probe_failure("sendto()");
        }
        if (*stamped) {
            return std::nullopt;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return "the kernel stamped no arrival within " + std::to_string(bound.count()) +
                   " ms of turning stamps on";
        }
        // Not yet: give the CPU to the work item that turns stamping on
        // (queued on the CPU that asked, so a loop that never slept could
        // hold it off).
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

std::optional<std::int64_t> receive_stamp_of(msghdr& header) noexcept {
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
        if (const auto ns = software_stamp_of(header, *c)) {
            return ns;
        }
    }
    return std::nullopt;
}

ssize_t receive_stamped(int fd, std::span<std::byte> buffer, int flags, std::int64_t& arrival_ns) {
    alignas(cmsghdr) std::byte control[receive_stamp_control_size];
    iovec part{buffer.data(), buffer.size()};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd, &header, flags);
    if (n > 0) {
        arrival_ns = receive_stamp_of(header).value_or(0);
    }
    return n;
}

std::optional<transmit_stamp> transmit_stamp_of(msghdr& header) noexcept {
    std::optional<std::int64_t> ns;
    std::optional<sock_extended_err> error;
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
        if (const auto stamp = software_stamp_of(header, *c)) {
            ns = stamp;
        } else if (((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
                    (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)) &&
                   holds(header, *c, sizeof(sock_extended_err))) {
            sock_extended_err e{};
            std::memcpy(&e, CMSG_DATA(c), sizeof e);
            error = e;
        }
    }
    if (!ns || !error || error->ee_errno != ENOMSG ||
        error->ee_origin != SO_EE_ORIGIN_TIMESTAMPING) {
        return std::nullopt;
    }
    transmit_stamp stamp;
    stamp.key = error->ee_data;
    stamp.ns = *ns;
    switch (error->ee_info) {
        case SCM_TSTAMP_SCHED:
            stamp.at = transmit_stamp::point::scheduled;
            return stamp;
        case SCM_TSTAMP_SND:
            stamp.at = transmit_stamp::point::handed_to_device;
            return stamp;
        default:
            return std::nullopt;  // not asked for
    }
}

void transmit_stamp_match::sent(std::uint64_t bytes) noexcept {
    bytes_sent_ += bytes;
    awaited_key_ = static_cast<std::uint32_t>(bytes_sent_ - 1);
    scheduled_ns_ = 0;
    handed_to_device_ns_ = 0;
}

void transmit_stamp_match::take(const transmit_stamp& stamp) noexcept {
    std::int64_t& slot =
        stamp.at == transmit_stamp::point::scheduled ? scheduled_ns_ : handed_to_device_ns_;
    if (bytes_sent_ == 0 || stamp.key != awaited_key_ || slot != 0) {
        ++stray_;
        return;
    }
    slot = stamp.ns;
}

bool read_error_queue(int fd, std::optional<transmit_stamp>& stamp) {
    // Room for the stamp and the extended error that carries its key.
    alignas(cmsghdr)
        std::byte control[receive_stamp_control_size +
                          CMSG_SPACE(sizeof(sock_extended_err) + sizeof(sockaddr_in6))];
    msghdr header{};
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    for (;;) {
        if (::recvmsg(fd, &header, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
            stamp = transmit_stamp_of(header);
            return true;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return false;
        }
        throw std::system_error(errno, std::generic_category(),
                                "reading the transmit stamps (MSG_ERRQUEUE)");
    }
}

}  // namespace sctp_perf
