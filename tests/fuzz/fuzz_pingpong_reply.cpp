// SPDX-License-Identifier: Apache-2.0
// The client's ping-pong loop against a server that answers as the input
// says: the client must accept exactly the replies that carry the request's
// check bytes, and stop with peer_error at the first that does not.
//
// Input: byte 0 picks the payload size (1..64 bytes), byte 1 the measured
// iterations (0..15); then one control byte per round trip, primer included:
//   0x00..0x7f  the correct reply (what pingpong_reply makes of the request)
//   0x80..0xfe  the next two input bytes as the reply, right or wrong
//   0xff        the server closes the connection
// Past the last control byte the server answers correctly, so every run ends.

#include <optional>
#include <string_view>
#include <vector>

#include "client/ping_pong.hpp"
#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"

using namespace sctp_perf;

namespace {

class scripted_server final : public message_channel {
  public:
    explicit scripted_server(std::span<const std::byte> script) : script_(script) {}

    using message_channel::receive_message;
    using message_channel::send_message;

    void send_message(std::span<const std::byte> message, const sctp_delivery&) override {
        request_.assign(message.begin(), message.end());
    }
    void receive_message(std::span<std::byte> message, sctp_delivery*) override {
        if (message.size() != protocol::reply_size || request_.empty()) {
            fuzz::broken("the client reads one 2-byte reply per request it sent");
        }
        const auto correct = protocol::pingpong_reply(request_);
        if (correct[0] != request_.front() || correct[1] != request_.back()) {
            fuzz::broken("pingpong_reply is the request's first and last byte");
        }
        protocol::reply_bytes reply = correct;
        if (!script_.empty()) {
            const auto control = std::to_integer<unsigned>(script_.front());
            script_ = script_.subspan(1);
            if (control == 0xff) {
                throw peer_closed("the peer closed the connection");
            }
            if (control >= 0x80) {
                if (script_.size() < reply.size()) {
                    throw peer_error("the peer closed the connection inside a reply");
                }
                std::copy_n(script_.begin(), reply.size(), reply.begin());
                script_ = script_.subspan(reply.size());
                if (reply != correct && !first_wrong_) {
                    first_wrong_ = exchanges_;
                }
            }
        }
        ++exchanges_;
        std::copy(reply.begin(), reply.end(), message.begin());
        request_.clear();
    }
    int native_handle() const noexcept override { return -1; }
    std::size_t send_ready(std::span<const std::byte>, const sctp_delivery&) override { return 0; }
    std::size_t receive_ready(std::span<std::byte>, std::size_t, sctp_delivery*) override {
        return 0;
    }
    received_part receive_part(std::span<std::byte>, bool, bool) override { return {}; }

    std::optional<std::uint64_t> first_wrong() const noexcept { return first_wrong_; }
    std::uint64_t exchanges() const noexcept { return exchanges_; }

  private:
    std::span<const std::byte> script_;
    std::vector<std::byte> request_;
    std::uint64_t exchanges_ = 0;
    std::optional<std::uint64_t> first_wrong_;  // the exchange (from 0) of the first wrong reply
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) {
        return -1;
    }
    ping_pong_plan plan;
    plan.payload_bytes = 1 + data[0] % 64;
    plan.measured_iterations = data[1] % 16;
    scripted_server server(fuzz::as_bytes(data + 2, size - 2));
    latency_recorder recorder(bin_layout{});
    try {
        const auto result = run_ping_pong(server, plan, recorder);
        if (server.first_wrong()) {
            fuzz::broken("the client accepts no reply without the request's check bytes");
        }
        if (result.measured_iterations != plan.measured_iterations ||
            recorder.summary().count() != plan.measured_iterations) {
            fuzz::broken("a run without a wrong reply records every measured round trip");
        }
    } catch (const peer_error& e) {
        // Either the script closed the connection (peer_closed is a
        // peer_error too) or the client caught a wrong reply, which its
        // message says by naming the check bytes.
        const bool wrong_reply =
            std::string_view(e.what()).find("check bytes") != std::string_view::npos;
        if (wrong_reply ? server.first_wrong() != server.exchanges() - 1
                        : server.first_wrong().has_value()) {
            fuzz::broken("the client stops at the first wrong reply, not before or after");
        }
    }
    return 0;
}
