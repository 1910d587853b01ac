// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernel's own stamps of a socket's traffic (SO_TIMESTAMPING, software
// stamps), for --timestamps: when a request was handed to the device and
// when a reply arrived from it, so that a round trip can be split into the
// client's send stack, what lies beyond the client, and its receive stack.
//
// Every software stamp is read on the kernel's CLOCK_REALTIME (the
// skb's time); the application's own two stamps of a round trip must be
// read on that clock too, for the differences to mean anything.
//
// Receive stamps come with the data, as an SCM_TIMESTAMPING control message
// of the recvmsg() that reads it; over TCP it stamps the last segment that
// read took. Transmit stamps come apart from the data, on the socket's error
// queue (recvmsg with MSG_ERRQUEUE), one per stamp, each carrying a key
// (SOF_TIMESTAMPING_OPT_ID): over TCP the byte offset of the last byte of
// the send it stamps, counted from where the stream stood when stamping was
// turned on. The kernel's SCTP stamps only what it receives: it makes no
// transmit stamp of any kind, so over SCTP only the receive side is split.
//
// While transmit stamps wait on the error queue, poll() reports the socket
// with POLLERR alone. The bounded poll before a sleep (poll_readable) is
// told so and looks on; a wait with poll() for the rest of a begun message
// then reads at once, which blocks as the wait would have. The stamps are
// taken off after each round trip (drain_transmit_stamps).

#include <sys/socket.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

namespace sctp_perf {

// Turns on the kernel's software stamps for `fd`, a connected socket:
// receive stamps always, transmit stamps (handed to the device and, with
// `scheduled`, scheduled too; keyed by byte offset, without the data echoed
// back) with `transmit`. The split takes only the device's stamp: each
// stamp asked for is made inside the send, in the round trip (about 1 % of
// a 5 us one on loopback for the scheduled stamp). Asked again with
// transmit stamps where it had receive stamps alone, it keeps those and
// adds these. Over TCP the byte count starts at the first unacknowledged
// byte: turn stamping on with nothing in flight, so that the key of a send
// is the count of bytes sent since, minus one. Throws std::system_error
// naming the call when the kernel refuses.
void enable_kernel_timestamps(int fd, bool transmit, bool scheduled = false);

// Waits, at most `bound`, until the kernel stamps what arrives. When no
// socket had receive stamps on, the first to ask turns them on for the
// whole system only a moment later: net_enable_timestamp() leaves the
// switch to a work item, and until that has run on some CPU every arrival
// goes unstamped, the caller's included. So a caller that has just turned
// its stamps on sends one byte at a time to itself over loopback UDP, on a
// socket of its own with receive stamps on, until one arrives stamped;
// while it waits for each, the work item gets its CPU. Returns nullopt
// once an arrival was stamped, or else a sentence saying why that could
// not be seen (no loopback in this network namespace, none stamped within
// `bound`): then the first round trips may go unstamped, and are counted
// missing.
std::optional<std::string> await_receive_stamping(std::chrono::milliseconds bound);

// Room for the receive stamp in a recvmsg()'s control buffer.
inline constexpr std::size_t receive_stamp_control_size =
    CMSG_SPACE(sizeof(std::int64_t) * 6);  // struct scm_timestamping: three timespecs

// The software receive stamp of a read (SCM_TIMESTAMPING's first timespec),
// in nanoseconds of CLOCK_REALTIME; nullopt when the read carried none.
// Neither decoder reads past header.msg_controllen, whatever lengths the
// control messages claim.
std::optional<std::int64_t> receive_stamp_of(msghdr& header) noexcept;

// One recvmsg() into `buffer` with `flags`. A read that brings data sets
// `arrival_ns` to its receive stamp, or to 0 when it carried none. Returns
// what recvmsg() returned, errno as it left it.
ssize_t receive_stamped(int fd, std::span<std::byte> buffer, int flags, std::int64_t& arrival_ns);

// One transmit stamp from the error queue.
struct transmit_stamp {
    enum class point : std::uint8_t {
        scheduled,        // the packet entered the device's queueing (SCM_TSTAMP_SCHED)
        handed_to_device  // the driver took it (SCM_TSTAMP_SND)
    };
    std::uint32_t key = 0;  // OPT_ID: over TCP the offset of the send's last byte
    point at = point::handed_to_device;
    std::int64_t ns = 0;  // CLOCK_REALTIME
    friend bool operator==(const transmit_stamp&, const transmit_stamp&) = default;
};

// A message read from the error queue, taken apart: nullopt for anything
// that is not a software transmit stamp of a kind asked for (an ICMP
// error, an acknowledgement stamp).
std::optional<transmit_stamp> transmit_stamp_of(msghdr& header) noexcept;

// Which transmit stamp belongs to the message in flight (a client's
// request, a server's reply). Over TCP a stamp's key is the offset of the
// last byte of the send it stamps, counted from the first byte sent once
// stamping was on; so the message whose last byte is the stream's n-th
// carries key n - 1 (modulo 2^32, the key's width). A message the socket
// took in several sends is stamped at each; only its last byte's counts.
class transmit_stamp_match {
  public:
    // A message of `bytes` bytes was sent: its stamps are the ones awaited
    // from now on, and the earlier message's are forgotten.
    void sent(std::uint64_t bytes) noexcept;
    // One stamp from the error queue. Counted as stray when it is not the
    // awaited message's (an earlier one's, come late) or repeats one
    // already taken (the first is kept).
    void take(const transmit_stamp& stamp) noexcept;

    // The awaited message's stamps, 0 until they came.
    std::int64_t scheduled_ns() const noexcept { return scheduled_ns_; }
    std::int64_t handed_to_device_ns() const noexcept { return handed_to_device_ns_; }
    std::uint64_t stray() const noexcept { return stray_; }

  private:
    std::uint64_t bytes_sent_ = 0;
    std::uint32_t awaited_key_ = 0;
    std::int64_t scheduled_ns_ = 0;
    std::int64_t handed_to_device_ns_ = 0;
    std::uint64_t stray_ = 0;
};

// Reads every stamp waiting on `fd`'s error queue, without waiting, and
// gives each transmit stamp to `take`. Returns how many messages were read.
// Throws std::system_error when the read fails for any reason but an empty
// queue.
template <typename Take>
std::size_t drain_transmit_stamps(int fd, Take&& take);

// As drain_transmit_stamps, but stops as soon as `awaited_came()` holds.
// Each read is a system call, and in a ping-pong with both ends on one CPU
// every system call lies inside a round trip: once the stamp awaited has
// come, the read that would only find the queue empty is spared. A stamp
// left behind (a retransmission's, come later) is read before the next one
// awaited, since the queue keeps the kernel's order.
template <typename Take, typename Done>
std::size_t read_transmit_stamps_until(int fd, Take&& take, Done&& awaited_came);

// One message from the error queue without waiting; false when none is
// there. Sets `stamp` when it was a transmit stamp.
bool read_error_queue(int fd, std::optional<transmit_stamp>& stamp);

template <typename Take, typename Done>
std::size_t read_transmit_stamps_until(int fd, Take&& take, Done&& awaited_came) {
    std::size_t read = 0;
    std::optional<transmit_stamp> stamp;
    while (!awaited_came() && read_error_queue(fd, stamp)) {
        ++read;
        if (stamp) {
            take(*stamp);
        }
    }
    return read;
}

template <typename Take>
std::size_t drain_transmit_stamps(int fd, Take&& take) {
    return read_transmit_stamps_until(fd, std::forward<Take>(take), [] { return false; });
}

}  // namespace sctp_perf
