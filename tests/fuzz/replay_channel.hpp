// SPDX-License-Identifier: Apache-2.0
#pragma once
// A message_channel whose peer is a fuzz input: every receive takes the
// next bytes of it, as a byte stream would deliver them, and sends go
// nowhere. Like
// stream_channel, it throws peer_closed when the input ends between two
// messages and peer_error when it ends inside one.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "errors.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf::fuzz {

class replay_channel final : public message_channel {
  public:
    // `fd` is only handed out by native_handle(), for code that reads
    // socket options after the exchange.
    explicit replay_channel(std::span<const std::byte> peer_bytes, int fd = -1)
        : peer_bytes_(peer_bytes), fd_(fd) {}

    using message_channel::receive_message;
    using message_channel::send_message;
    using message_channel::send_ready;

    void send_message(std::span<const std::byte>, const sctp_delivery&) override {}
    void receive_message(std::span<std::byte> message, sctp_delivery*) override {
        if (message.empty()) {
            return;
        }
        if (peer_bytes_.empty()) {
            throw peer_closed("the peer closed the connection");
        }
        if (peer_bytes_.size() < message.size()) {
            throw peer_error("the peer closed the connection after " +
                             std::to_string(peer_bytes_.size()) + " of " +
                             std::to_string(message.size()) + " bytes");
        }
        take(message);
    }
    int native_handle() const noexcept override { return fd_; }
    std::size_t send_ready(std::span<const std::byte> bytes, const sctp_delivery&) override {
        return bytes.size();
    }
    std::size_t receive_ready(std::span<std::byte> buffer, std::size_t, sctp_delivery*) override {
        const auto n = std::min(buffer.size(), peer_bytes_.size());
        take(buffer.first(n));
        return n;
    }
    received_part receive_part(std::span<std::byte> buffer, bool, bool) override {
        return {receive_ready(buffer, 0, nullptr), false, {}};
    }

  private:
    void take(std::span<std::byte> out) {
        std::copy_n(peer_bytes_.begin(), out.size(), out.begin());
        peer_bytes_ = peer_bytes_.subspan(out.size());
    }

    std::span<const std::byte> peer_bytes_;
    int fd_;
};

// The fuzz input as bytes.
inline std::span<const std::byte> as_bytes(const std::uint8_t* data, std::size_t size) noexcept {
    return {reinterpret_cast<const std::byte*>(data), size};
}

// Stops the run with a message: the code broke a promise its header makes.
[[noreturn]] inline void broken(const char* promise) {
    std::fprintf(stderr, "fuzz: broken promise: %s\n", promise);
    std::abort();
}

}  // namespace sctp_perf::fuzz
