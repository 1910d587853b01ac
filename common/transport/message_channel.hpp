// SPDX-License-Identifier: Apache-2.0
#pragma once
// A connected socket seen as a channel of fixed-size messages: the only I/O the
// test protocol needs. SOCK_STREAM frames messages by their known size;
// SOCK_SEQPACKET keeps one message per SCTP message.
//
// Every call is bounded by the socket's I/O timeout (set_io_timeout). Failures
// throw: peer_error when the peer closed, went silent or broke framing;
// std::system_error for anything the kernel reports.
//
// The data path uses the raw descriptor rather than Asio's synchronous calls:
// those retry EAGAIN with an unbounded poll, which would turn the timeout into
// a hang, and the asynchronous ones add a reactor round per message to the
// very round trip being measured.
//
// A receive waits for its data in one of two ways. By default it sleeps in a
// blocking call and the kernel wakes it when data comes. Spinning
// (set_spin, --spin) it polls instead: non-blocking receives (MSG_DONTWAIT)
// in a busy loop, so the wake-up, a few microseconds and more from an idle
// CPU, leaves the round trip, at the cost of a whole CPU while it waits.
// Between the two (set_poll_before_sleep, --poll-before-sleep), a receive
// that would sleep first polls its socket for a bounded time
// (transport/poll_before_sleep.hpp). Sends block either way: a small
// message finds room at once.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "transport/batch_send.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/sctp_path_events.hpp"
#include "transport/unique_fd.hpp"

namespace sctp_perf {

class message_channel {
  public:
    virtual ~message_channel() = default;
    // Over SCTP a message may name how it travels (its stream, ordering and
    // PR-SCTP policy); the default takes a plain send(). A channel that is
    // not SCTP must only be given the default.
    virtual void send_message(std::span<const std::byte> message,
                              const sctp_delivery& delivery) = 0;
    void send_message(std::span<const std::byte> message) { send_message(message, {}); }
    // Fills `message` with exactly one message of exactly message.size()
    // bytes. With `delivery`, also says how it travelled: the socket must be
    // SCTP with enable_receive_info() set.
    virtual void receive_message(std::span<std::byte> message, sctp_delivery* delivery) = 0;
    void receive_message(std::span<std::byte> message) { receive_message(message, nullptr); }
    virtual int native_handle() const noexcept = 0;
    // The SCTP association this channel carries where its socket is shared
    // by many (one-to-many, not peeled off), for the calls that must name
    // it; 0 where the socket holds one association, or is not SCTP.
    virtual std::int32_t association_id() const noexcept { return 0; }
    // Whether each receive ends at a message's boundary (SOCK_SEQPACKET),
    // rather than reading a byte stream that the reader frames itself.
    virtual bool keeps_message_boundaries() const noexcept { return false; }
    // Whether a send that finds no room waits on other associations rather
    // than on this channel's peer: only where the socket is shared
    // (one-to-many) and its one send buffer (net.sctp.sndbuf_policy 0) is
    // full of their data while this association has nothing unacknowledged
    // and room in its peer's window. Elsewhere a full buffer is the peer's.
    virtual bool send_waits_on_others() const noexcept { return false; }

    // Without waiting (MSG_DONTWAIT; the socket itself stays blocking), for an
    // event loop that drives many channels:
    // - send_ready sends `bytes`, all or part, and returns how many the kernel
    //   took, 0 when its buffer is full. A channel that keeps message
    //   boundaries takes a whole message or nothing.
    // - receive_ready fills `buffer` with what has arrived and returns the
    //   byte count, 0 when nothing has. A channel that keeps message
    //   boundaries returns whole messages of exactly `message_size` bytes.
    //   With `delivery` it reads one message at most (on a byte stream one
    //   read, which over SCTP never spans two messages) and says how that
    //   message travelled: the socket must be SCTP with
    //   enable_receive_info() set.
    // Same errors as the blocking calls.
    virtual std::size_t send_ready(std::span<const std::byte> bytes,
                                   const sctp_delivery& delivery) = 0;
    std::size_t send_ready(std::span<const std::byte> bytes) { return send_ready(bytes, {}); }
    // - send_batch_ready sends up to max_batch_messages `messages` in one
    //   system call where the channel has a batched send (batch_send.hpp),
    //   and returns the bytes the kernel took from them, in order, 0 when
    //   its buffer is full. A byte stream may take part of a message; a
    //   channel that keeps message boundaries, or any SCTP socket, takes a
    //   leading run of whole messages. A channel without a batched send
    //   sends them one send_ready at a time, until one finds no room.
    virtual std::size_t send_batch_ready(std::span<const outgoing_message> messages);
    virtual std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size,
                                      sctp_delivery* delivery) = 0;
    std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size) {
        return receive_ready(buffer, message_size, nullptr);
    }

    // What one read brought, for an event loop that frames the messages
    // itself (the server's sessions): 0 bytes when nothing has arrived. It
    // does not wait, unless `wait`: then it blocks until something arrives,
    // the socket's receive timeout passes or a signal comes (0 bytes for
    // the last two), so that an event loop serving one socket can wait in
    // the read itself, one system call where epoll_wait and a read take
    // two. Throws peer_closed when the peer closed (the caller knows
    // whether that fell between two messages), peer_error for a reset or an
    // association that ended, std::system_error for the rest. With
    // `with_delivery` (SCTP with enable_receive_info() set) the part also
    // says how its message travelled; over SCTP one read never spans two
    // messages.
    struct received_part {
        std::size_t bytes = 0;
        bool message_end = false;  // SOCK_SEQPACKET: these bytes end a message (MSG_EOR)
        sctp_delivery delivery;    // with `with_delivery` only
    };
    virtual received_part receive_part(std::span<std::byte> buffer, bool with_delivery,
                                       bool wait) = 0;

    // Bounds each whole message that receive_message reads, not only each
    // system call (set_io_timeout): once a message has begun, its rest must
    // come within `timeout`, so a peer that trickles it a byte at a time,
    // each byte well within the I/O timeout, is cut off. (The wait for its
    // first byte is the call's own, set_io_timeout.) Unset: only the calls
    // are bounded.
    void set_message_timeout(std::chrono::milliseconds timeout) noexcept {
        message_timeout_ = timeout;
    }

    // Whether receive_message and receive_some spin (see the top of this
    // file). A spin is bounded as a blocking wait is: the wait for a
    // message's first bytes by the socket's receive timeout (set_io_timeout,
    // read back from the socket when a wait first goes long), its rest by
    // the message timeout.
    void set_spin(bool spin) noexcept { spin_ = spin; }
    bool spins() const noexcept { return spin_; }

    // How long a receive that would sleep (receive_message, receive_some,
    // receive_part with `wait`) first polls its socket without sleeping; 0,
    // the default, sleeps at once. No effect while spinning.
    void set_poll_before_sleep(std::chrono::microseconds bound) noexcept {
        poll_before_sleep_ = bound;
    }
    std::chrono::microseconds poll_before_sleep() const noexcept { return poll_before_sleep_; }

    // SCTP, for an association subscribed to path events
    // (subscribe_path_events): every path notification that comes on the
    // socket goes to `watch` (transport/sctp_path_events.hpp) and, with
    // `each_message_path`, so does the peer address each message came from.
    // The watch is shared so that it outlives the channel, for the report.
    // Without a watch a channel reads as it always did: nothing is taken
    // apart or looked up per message.
    void watch_paths(std::shared_ptr<sctp_path_watch> watch, bool each_message_path) noexcept {
        paths_ = std::move(watch);
        message_paths_ = paths_ != nullptr && each_message_path;
    }
    const std::shared_ptr<sctp_path_watch>& path_watch() const noexcept { return paths_; }
    // With each message's path watched: the path (sctp_path_watch::path_of)
    // the last message read came from, 0 when unknown. Such a channel reads
    // one SCTP message per read, so that this is each message's own.
    std::uint16_t last_read_path() const noexcept { return last_read_path_; }

    // --timestamps: every read of data (receive_message, receive_some) also
    // takes the kernel's receive stamp (transport/kernel_timestamps.hpp;
    // the socket's stamping is turned on apart). last_arrival_ns() is the
    // stamp of the last read that brought data, so after receive_message
    // when the message's last part arrived, in nanoseconds of
    // CLOCK_REALTIME; 0 when that read carried none. Without it a channel
    // reads as it always did.
    void take_arrival_stamps(bool take) noexcept { arrival_stamps_ = take; }
    std::int64_t last_arrival_ns() const noexcept { return last_arrival_ns_; }

  protected:
    // Before a read that would sleep: the bounded poll, when one is set.
    void poll_before_sleeping(int fd) const;

    std::optional<std::chrono::milliseconds> message_timeout_;
    bool spin_ = false;
    std::chrono::microseconds poll_before_sleep_{0};
    std::shared_ptr<sctp_path_watch> paths_;
    bool message_paths_ = false;  // each message's source looked up (watch_paths)
    std::uint16_t last_read_path_ = 0;
    bool arrival_stamps_ = false;
    std::int64_t last_arrival_ns_ = 0;
};

// Paces and bounds a spinning wait for data on one socket. Call
// nothing_yet() after every receive that found nothing, and made_progress()
// after one that brought part of a message.
//
// The clock is read only every polls_per_look empty polls: on the machine
// of bench/README.md an empty non-blocking recv costs about 590 ns and a
// clock read 42 ns, so a read per poll would stretch each poll by 7 % for
// nothing, while one per 1024 polls (about 0.6 ms) costs nothing measurable.
// A wait answered within that reads no clock at all; the first look dates
// the wait, which so may last up to one stretch of polls longer than its
// bound. Each look also yields the CPU (sched_yield): where both ends of a
// test share a CPU, a spinner would otherwise keep the other from running
// for the rest of its time slice. A ping-pong whose round trip is shorter
// than a stretch never reaches a look.
class spin_wait {
  public:
    static constexpr unsigned polls_per_look = 1024;

    explicit spin_wait(int fd) noexcept : fd_(fd) {}

    // True once the wait has lasted out its bound: the caller throws.
    bool nothing_yet() { return ++polls_ % polls_per_look == 0 && look(); }
    // Some data came. `rest_by`, when set, bounds the rest of the message
    // (message_deadline); without it the next wait is bounded afresh by the
    // socket's receive timeout.
    void made_progress(std::optional<std::chrono::steady_clock::time_point> rest_by) noexcept {
        polls_ = 0;
        deadline_ = rest_by;
    }

  private:
    bool look();

    int fd_;
    unsigned polls_ = 0;
    std::optional<std::chrono::steady_clock::time_point> deadline_;
};

// How a receive of one message waits, the one policy of both channels (see
// the top of this file). The wait for a message's first bytes is bounded by
// the socket's receive timeout either way. Once part of the message is in,
// blocking, each read of its rest first waits (poll) until there is more,
// all of it within the message timeout; spinning, the spin is bounded from
// the message's first part by the message timeout or, without one, each
// wait afresh by the receive timeout. A message that comes in one read reads
// no clock. The reading loop calls, around each read:
//   if (received > 0) wait.before_more(received);
//   read with wait.read_flags(); nothing: wait.found_nothing(received);
//   n bytes: wait.brought(received, n).
class receive_wait {
  public:
    receive_wait(int fd, bool spin, std::optional<std::chrono::milliseconds> message_timeout,
                 std::size_t expected) noexcept
        : fd_(fd),
          spin_(spin),
          spin_wait_(fd),
          message_timeout_(message_timeout),
          expected_(expected) {}

    bool spins() const noexcept { return spin_; }
    // The flags of every read: MSG_DONTWAIT when spinning.
    int read_flags() const noexcept;
    // Blocking, before reading more of a message of which `received` (> 0)
    // bytes are in: waits until more has come, or throws peer_error once the
    // message timeout has passed. `due_now`: the message's time is up
    // already (a read of a whole message came back short), so only what is
    // there now counts.
    void before_more(std::size_t received, bool due_now = false) {
        if (!spin_) {
            await_more(received, due_now);
        }
    }
    // Spinning, after a read that found nothing: throws peer_error once the
    // wait has outlasted its bound.
    void found_nothing(std::size_t received) {
        if (spin_wait_.nothing_yet()) {
            give_up(received);
        }
    }
    // After a read brought `n` bytes to the `received` already in.
    void brought(std::size_t received, std::size_t n) {
        if (spin_ && (!message_timeout_ || (received == 0 && n < expected_))) {
            spin_made_progress();
        }
    }

  private:
    void await_more(std::size_t received, bool due_now);
    void spin_made_progress();
    [[noreturn]] void give_up(std::size_t received) const;

    int fd_;
    bool spin_;
    spin_wait spin_wait_;
    std::optional<std::chrono::milliseconds> message_timeout_;
    std::size_t expected_;
    // Blocking: when the rest of a begun message is due; set by its first
    // wait, so that a message in one read reads no clock.
    std::optional<std::chrono::steady_clock::time_point> rest_by_;
};

// The socket's receive timeout (SO_RCVTIMEO, as set_io_timeout set it); 0
// when it has none or the kernel does not say.
std::chrono::microseconds receive_timeout_of(int fd) noexcept;

// Throws peer_error saying that `received` of `expected` bytes of a message
// came within `timeout`.
[[noreturn]] void throw_incomplete_message(std::size_t received, std::size_t expected,
                                           std::optional<std::chrono::milliseconds> timeout);

// When a message whose first part came at `started` must be complete; max()
// without a message timeout.
std::chrono::steady_clock::time_point message_deadline(
    std::optional<std::chrono::milliseconds> timeout,
    std::chrono::steady_clock::time_point started);

// Waits until `fd` is readable or `deadline` passes; throws peer_error saying
// that `received` of `expected` bytes of a message came in time. For the rest
// of a message once its first part is in.
void await_rest_of_message(int fd, std::chrono::steady_clock::time_point deadline,
                           std::size_t received, std::size_t expected,
                           std::optional<std::chrono::milliseconds> timeout);

struct stream_reader;

// Messages on a byte stream (TCP or SCTP SOCK_STREAM): the sizes are agreed in
// the test header, so no length prefix is sent.
class stream_channel final : public message_channel {
  public:
    explicit stream_channel(unique_fd socket) noexcept;
    using message_channel::receive_message;
    using message_channel::receive_ready;
    using message_channel::send_message;
    using message_channel::send_ready;
    void send_message(std::span<const std::byte> message, const sctp_delivery& delivery) override;
    void receive_message(std::span<std::byte> message, sctp_delivery* delivery) override;
    int native_handle() const noexcept override { return socket_.get(); }
    std::size_t send_ready(std::span<const std::byte> bytes,
                           const sctp_delivery& delivery) override;
    // SCTP: one sendmmsg(), each message one SCTP message (batch_send.hpp
    // says why); any other byte stream (TCP): one gathering sendmsg().
    std::size_t send_batch_ready(std::span<const outgoing_message> messages) override;
    std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size,
                              sctp_delivery* delivery) override;
    received_part receive_part(std::span<std::byte> buffer, bool with_delivery, bool wait) override;

    // What one read brings: 1..buffer.size() bytes, for a reader that frames
    // many messages at once. Same bounds and errors as receive_message. Over
    // SCTP one read never spans two messages, so `delivery` (as for
    // receive_message) tells how the message these bytes belong to travelled.
    std::size_t receive_some(std::span<std::byte> buffer, sctp_delivery* delivery = nullptr);

  private:
    // One receive, as receive_once does, that on an association whose
    // paths are watched reads with recvmsg() and takes every notification
    // that comes first apart from the data, to the watch, so that none is
    // read as bytes of the stream.
    std::size_t read_once(std::span<std::byte> buffer, int flags, sctp_delivery* delivery);
    // How this channel's reads are made (message_channel.cpp), and its
    // whole reads of a message over TCP.
    stream_reader reader() noexcept;
    // receive_part with arrival stamps: a call of its own, so that the
    // plain receive_part keeps its reader without them, whose stamp pointer
    // is a constant (a reader that must ask costs every read).
    [[gnu::noinline]] received_part receive_stamped_part(std::span<std::byte> buffer,
                                                         bool with_delivery, bool wait);
    stream_reader whole_reader() noexcept;

    unique_fd socket_;
    bool tcp_ = false;   // a byte stream (TCP), not SCTP's messages on SOCK_STREAM
    bool sctp_ = false;  // SCTP: a batch is one SCTP message per request
    batch_sender batch_;
};

// A blob (see protocol/wire_protocol.hpp): its length, then its text, each one
// message. `text` must be 1..max_blob_bytes long. receive_blob throws
// peer_error for a length out of range. `already` holds the blob's first
// bytes when a reader of a byte stream took them along with what came
// before; only the rest is read from the channel.
void send_blob(message_channel& channel, std::string_view text);
std::string receive_blob(message_channel& channel, std::span<const std::byte> already = {});

}  // namespace sctp_perf
