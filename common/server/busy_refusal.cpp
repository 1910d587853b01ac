// SPDX-License-Identifier: Apache-2.0
#include "server/busy_refusal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <system_error>

#include "errors.hpp"
#include "protocol/wire_protocol.hpp"
#include "server/server_log.hpp"

namespace sctp_perf {
namespace {

namespace asio = boost::asio;

// One refused connection; kept alive by the handlers that wait on it.
class refusal : public std::enable_shared_from_this<refusal> {
  public:
    refusal(asio::io_context& io, std::unique_ptr<message_channel> channel, std::string client)
        : channel_(std::move(channel)),
          client_(std::move(client)),
          readable_(io, channel_->native_handle()),
          deadline_(io) {}

    ~refusal() {
        // The descriptor belongs to the channel: the watcher must not close it.
        if (readable_.is_open()) {
            readable_.release();
        }
    }

    void start(std::chrono::milliseconds header_timeout) {
        deadline_.expires_after(header_timeout);
        deadline_.async_wait([self = shared_from_this(), header_timeout](std::error_code ec) {
            if (!ec) {
                self->finish(
                    fmt::format("closed: no whole test header within {:.1f} s "
                                "(--header-timeout), while the server was busy",
                                std::chrono::duration<double>(header_timeout).count()));
            }
        });
        wait_for_header();
    }

  private:
    void wait_for_header() {
        readable_.async_wait(asio::posix::stream_descriptor::wait_read,
                             [self = shared_from_this()](std::error_code ec) {
                                 if (!ec) {
                                     self->take_header_bytes();
                                 }
                             });
    }

    // The whole header is read before the answer, since closing with bytes
    // unread would make TCP reset the connection (SCTP abort the
    // association), and the client would report that instead of why.
    void take_header_bytes() {
        try {
            const auto part = channel_->receive_part(std::span(header_).subspan(received_),
                                                     /*with_delivery=*/false, /*wait=*/false);
            received_ += part.bytes;
            if (!header_taken(part.message_end)) {
                wait_for_header();
                return;
            }
            // Eight bytes into an empty send buffer: taken at once, or the
            // peer is gone and there is no one to tell.
            channel_->send_ready(protocol::encode_verdict(protocol::status::server_busy));
            finish("refused: too many clients at once");
        } catch (const peer_closed& e) {
            finish(fmt::format("{} in the middle of the test", e.what()));
        } catch (const peer_error& e) {
            finish(e.what());
        } catch (const std::system_error& e) {
            finish(e.what());
        }
    }

    // Whether all of the header that will come is in: all its bytes, a whole
    // SOCK_SEQPACKET message, or the start of a header of another version
    // (version 1 and 2 headers are that long) or of no test header at all.
    bool header_taken(bool message_end) const noexcept {
        if (received_ == header_.size() || message_end) {
            return true;
        }
        if (received_ < protocol::header_start_size) {
            return false;
        }
        protocol::header_start_bytes start{};
        std::copy_n(header_.begin(), start.size(), start.begin());
        return protocol::decode_header_start(start).verdict != protocol::status::accepted;
    }

    void finish(const std::string& outcome) {
        if (!channel_) {
            return;  // the other handler finished first
        }
        log_error("client {} {}", client_, outcome);
        deadline_.cancel();
        readable_.cancel();
        readable_.release();
        channel_.reset();
    }

    std::unique_ptr<message_channel> channel_;
    std::string client_;
    asio::posix::stream_descriptor readable_;  // watches channel_'s socket, never owns it
    asio::steady_timer deadline_;
    protocol::header_bytes header_{};
    std::size_t received_ = 0;
};

}  // namespace

void refuse_as_busy(asio::io_context& io, std::unique_ptr<message_channel> channel,
                    std::string client, std::chrono::milliseconds header_timeout) {
    std::make_shared<refusal>(io, std::move(channel), std::move(client))->start(header_timeout);
}

}  // namespace sctp_perf
