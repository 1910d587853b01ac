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

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "transport/sctp_delivery.hpp"
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

    // Without waiting (MSG_DONTWAIT; the socket itself stays blocking), for an
    // event loop that drives many channels:
    // - send_ready sends `bytes`, all or part, and returns how many the kernel
    //   took, 0 when its buffer is full. A channel that keeps message
    //   boundaries takes a whole message or nothing.
    // - receive_ready fills `buffer` with what has arrived and returns the
    //   byte count, 0 when nothing has. A channel that keeps message
    //   boundaries returns whole messages of exactly `message_size` bytes.
    // Same errors as the blocking calls.
    virtual std::size_t send_ready(std::span<const std::byte> bytes,
                                   const sctp_delivery& delivery) = 0;
    std::size_t send_ready(std::span<const std::byte> bytes) { return send_ready(bytes, {}); }
    virtual std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size) = 0;

    // Bounds each whole message that receive_message reads, not only each
    // system call (set_io_timeout): once a message has begun, its rest must
    // come within `timeout`, so a peer that trickles it a byte at a time,
    // each byte well within the I/O timeout, is cut off. (The wait for its
    // first byte is the call's own, set_io_timeout.) Unset: only the calls
    // are bounded.
    void set_message_timeout(std::chrono::milliseconds timeout) noexcept {
        message_timeout_ = timeout;
    }

  protected:
    std::optional<std::chrono::milliseconds> message_timeout_;
};

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

// Messages on a byte stream (TCP or SCTP SOCK_STREAM): the sizes are agreed in
// the test header, so no length prefix is sent.
class stream_channel final : public message_channel {
  public:
    explicit stream_channel(unique_fd socket) noexcept;
    using message_channel::receive_message;
    using message_channel::send_message;
    using message_channel::send_ready;
    void send_message(std::span<const std::byte> message, const sctp_delivery& delivery) override;
    void receive_message(std::span<std::byte> message, sctp_delivery* delivery) override;
    int native_handle() const noexcept override { return socket_.get(); }
    std::size_t send_ready(std::span<const std::byte> bytes,
                           const sctp_delivery& delivery) override;
    std::size_t receive_ready(std::span<std::byte> buffer, std::size_t message_size) override;

    // What one read brings: 1..buffer.size() bytes, for a reader that frames
    // many messages at once. Same bounds and errors as receive_message. Over
    // SCTP one read never spans two messages, so `delivery` (as for
    // receive_message) tells how the message these bytes belong to travelled.
    std::size_t receive_some(std::span<std::byte> buffer, sctp_delivery* delivery = nullptr);

  private:
    unique_fd socket_;
    bool tcp_ = false;  // a byte stream (TCP), not SCTP's messages on SOCK_STREAM
};

// A blob (see protocol/wire_protocol.hpp): its length, then its text, each one
// message. `text` must be 1..max_blob_bytes long. receive_blob throws
// peer_error for a length out of range. `already` holds the blob's first
// bytes when a reader of a byte stream took them along with what came
// before; only the rest is read from the channel.
void send_blob(message_channel& channel, std::string_view text);
std::string receive_blob(message_channel& channel, std::span<const std::byte> already = {});

}  // namespace sctp_perf
