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

#include <cstddef>
#include <memory>
#include <span>

#include "transport/unique_fd.hpp"

namespace sctp_perf {

class message_channel {
  public:
    virtual ~message_channel() = default;
    virtual void send_message(std::span<const std::byte> message) = 0;
    // Fills `message` with exactly one message of exactly message.size() bytes.
    virtual void receive_message(std::span<std::byte> message) = 0;
    virtual int native_handle() const noexcept = 0;
};

// Messages on a byte stream (TCP or SCTP SOCK_STREAM): the sizes are agreed in
// the test header, so no length prefix is sent.
class stream_channel final : public message_channel {
  public:
    explicit stream_channel(unique_fd socket) noexcept : socket_(std::move(socket)) {}
    void send_message(std::span<const std::byte> message) override;
    void receive_message(std::span<std::byte> message) override;
    int native_handle() const noexcept override { return socket_.get(); }

  private:
    unique_fd socket_;
};

}  // namespace sctp_perf
