// SPDX-License-Identifier: Apache-2.0
// A session's data path: reading requests and queueing replies, the
// ping-pong requests here, and the bounds on each wait. How a test opens is
// in session_opening.cpp, a load test's requests in session_load.cpp, how a
// session ends in session_ending.cpp.
#include "server/session.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include "errors.hpp"
#include "runtime/coarse_clock.hpp"
#include "server/server_log.hpp"
#include "server/session_paths.hpp"
#include "transport/peer_failures.hpp"
#include "transport/sctp_features.hpp"
#include "transport/seqpacket_channel.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

// Over SCTP the end-of-test message can overtake requests sent before it (on
// another stream, unordered, or retransmitted). Its sequence number says how
// many came before it, so the session waits for the missing ones to count
// them, until none has come for this long and the kernel awaits none
// (session::awaits_retransmission); it does not answer them, since the
// client has stopped waiting for replies. Requests that PR-SCTP gave up
// never come.
constexpr auto overtaken_quiet = std::chrono::milliseconds(200);

// Replies queued and not yet taken by the client beyond which the session
// stops reading requests until they drain: a client that sends without
// reading its replies is held back as a blocking server would hold it,
// instead of growing the server's memory.
constexpr std::size_t reply_backlog_bytes = 64 * 1024;

}  // namespace

session::session(std::unique_ptr<message_channel> channel, std::string client,
                 const server_identity& identity, clock::time_point now)
    : channel_(std::move(channel)),
      client_(std::move(client)),
      identity_(identity),
      sctp_(identity.transport == transport_protocol::sctp),
      seqpacket_(channel_->keeps_message_boundaries()),
      started_(now),
      header_deadline_(now + identity.header_timeout),
      // A byte stream reads the header's start first (see read_header()).
      message_(seqpacket_ ? protocol::header_size : protocol::header_start_size),
      input_since_(now),
      out_(!seqpacket_),
      output_since_(now) {
    // A read lent the loop's thread polls first, as the loop itself does.
    channel_->set_poll_before_sleep(identity.poll_before_sleep);
    if (sctp_) {
        watch_session_paths(*channel_, client_, identity);
    }
}

bool session::wants_to_read() const noexcept {
    if (phase_ == phase::done || phase_ == phase::refusing) {
        return false;
    }
    // After the account, the client's close is awaited only once all is sent.
    if (phase_ == phase::closing && !out_.empty()) {
        return false;
    }
    return out_.pending_bytes() <= reply_backlog_bytes;
}

session::clock::time_point session::deadline() const noexcept {
    switch (phase_) {
        case phase::done:
            return clock::time_point::max();
        case phase::header:
            return header_deadline_;
        default:
            break;
    }
    if (!out_.empty()) {
        return output_since_ + identity_.io_timeout;
    }
    if (phase_ == phase::overtaken) {
        return input_since_ + overtaken_quiet;
    }
    if (phase_ == phase::load) {
        return input_since_ + request_bound();
    }
    return input_since_ + identity_.io_timeout;
}

std::chrono::milliseconds session::request_bound() const noexcept {
    return max_gap_ + identity_.io_timeout;
}

message_channel::received_part session::receive(std::span<std::byte> buffer, bool with_delivery) {
    const bool wait = std::exchange(wait_once_, false);
    waited_ = waited_ || wait;
    return channel_->receive_part(buffer, with_delivery, wait);
}

session::clock::time_point session::advance(clock::time_point now, std::span<std::byte> scratch,
                                            const thread_recall* recall) {
    wait_once_ = recall != nullptr;
    waited_ = false;
    recall_ = recall;
    try {
        if (step(now, scratch)) {
            now = clock::now();  // once for the whole loop: exact, so no deadline ends early
        }
        if (!done() && now >= deadline()) {
            on_deadline(now);
        }
    } catch (const peer_closed& e) {
        on_closed(e);
    } catch (const peer_error& e) {
        if (phase_ == phase::header) {
            finish(header_failure(e.what()));
        } else if (phase_ == phase::closing && out_.empty()) {
            complete();  // gone another way: the test itself was complete
        } else {
            finish(e.what());
        }
    } catch (const std::system_error& e) {
        finish(e.what());
    }
    recall_ = nullptr;
    return now;
}

bool session::step(clock::time_point& now, std::span<std::byte> scratch) {
    flush(now);
    if (departures_stamped_) {
        take_departure_stamps(false);
    }
    bool coarse = false;
    bool read_any = false;
    // After a read that waited, the time is read again: what came, came now.
    // In ping-pong, where a lone session lent the loop's thread reads request
    // after request here, it is read cheaply (runtime/coarse_clock.hpp: no
    // earlier than now, at most two kernel ticks later): it only starts the
    // client's silence and a reply's send timeout, which may then end a few
    // milliseconds late, and an exact read would cost 1 % of a round trip
    // with both ends on one CPU.
    const auto after_read = [&](bool got, bool cheaply = false) {
        if (std::exchange(waited_, false)) {
            now = cheaply ? steady_now_not_before() : clock::now();
            coarse = cheaply;
        }
        return got;
    };
    while (wants_to_read()) {
        switch (phase_) {
            case phase::header:
                if (!after_read(read_header())) {
                    return coarse;
                }
                take_header(now);
                break;
            case phase::ping_pong:
                if (!after_read(read_message(), true)) {
                    return coarse;
                }
                note_arrival();
                take_ping_pong_request(now);
                // One request at a time is all a ping-pong client sends: back
                // to the event loop at once, rather than a read that finds
                // nothing, which with both ends on one CPU would delay the
                // client's turn; or, lent the loop's thread, a read that
                // waits for the next request.
                if (!wait_again()) {
                    return coarse;
                }
                continue;
            case phase::load:
            case phase::overtaken:
                if (!after_read(read_requests(now, scratch))) {
                    if (!read_any) {
                        // Woken without data: perhaps for a transmit stamp
                        // alone (reply_queue.hpp).
                        out_.drain_transmit_stamps();
                    }
                    return coarse;
                }
                read_any = true;
                break;
            case phase::closing:
                // Anything but the client's close is more than its test.
                if (after_read(receive(scratch.first(1), false).bytes > 0)) {
                    finish("the client sent data after the end of its test");
                } else {
                    out_.drain_transmit_stamps();  // the last replies' stamps, come late
                }
                return coarse;
            case phase::refusing:
            case phase::done:
                return coarse;
        }
        flush(now);
    }
    if (phase_ == phase::refusing && out_.empty()) {
        phase_ = phase::done;  // the verdict is out: the reason is logged
    }
    return coarse;
}

bool session::wait_again() {
    if (recall_ == nullptr || phase_ != phase::ping_pong || !out_.empty() || recall_->due()) {
        return false;
    }
    wait_once_ = true;
    return true;
}

bool session::flush(clock::time_point now) {
    if (out_.empty()) {
        return false;
    }
    if (!out_.flush(*channel_)) {
        return false;
    }
    output_since_ = now;
    if (out_.empty()) {
        // The wait for the client's next message begins once this server
        // has said all it had to say.
        input_since_ = std::max(input_since_, now);
        if (phase_ == phase::refusing) {
            phase_ = phase::done;
        }
    }
    return true;
}

bool session::read_message(std::size_t also_whole) {
    const auto size = message_.size();
    // Part after part while they come, so that a large message takes one
    // wake-up, not one per part.
    while (message_filled_ < size) {
        const auto part = receive(std::span(message_).subspan(message_filled_), sctp_);
        if (part.bytes == 0) {
            return false;
        }
        message_filled_ += part.bytes;
        if (sctp_) {
            route_ = part.delivery;
        }
        if (seqpacket_) {
            if (part.message_end && message_filled_ == also_whole) {
                return true;
            }
            if (part.message_end && message_filled_ != size) {
                throw peer_error(message_of_wrong_size(message_filled_, size));
            }
            if (!part.message_end && message_filled_ == size) {
                throw peer_error(message_too_long(size));
            }
        }
    }
    return true;
}

protocol::decoded_header session::decode_header_start() const noexcept {
    protocol::header_start_bytes start{};
    std::copy_n(message_.begin(), start.size(), start.begin());
    return protocol::decode_header_start(start);
}

bool session::read_header() {
    if (seqpacket_) {
        // One message: header_size bytes from a client of this version,
        // header_start_size bytes from one of version 1 or 2, which is to
        // hear that its version is refused, not that its message has the
        // wrong size.
        return read_message(protocol::header_start_size);
    }
    // A byte stream: the start, which a client of version 1 or 2 sends
    // alone and waits for its verdict, then the rest from this version's.
    if (message_.size() == protocol::header_start_size) {
        if (!read_message()) {
            return false;
        }
        if (decode_header_start().verdict != protocol::status::accepted) {
            return true;  // refused from its start
        }
        message_.resize(protocol::header_size);
    }
    return read_message();
}

void session::take_ping_pong_request(clock::time_point now) {
    message_filled_ = 0;
    input_since_ = now;
    // Ping-pong replies stay fully reliable: one given up would stop the
    // client's loop.
    protocol::fill_pingpong_reply(message_, reply_);
    const sctp_delivery delivery{route_.stream, route_.unordered, {}};
    const bool nothing_queued = out_.empty();
    if (!plain_replies_) {
        send_stamped_or_held_reply(delivery, now);
    } else {
        send_reply(delivery, now);
    }
    note_queued(nothing_queued, now);
    ++outcome_.messages_done;
    if (header_.iterations != 0 && outcome_.messages_done == header_.iterations) {
        phase_ = phase::closing;
    }
}

void session::send_stamped_or_held_reply(const sctp_delivery& delivery, clock::time_point now) {
    if (identity_.test_reply_delay.count() != 0) {
        hold_for(identity_.test_reply_delay);
    }
    if (!header_.server_timestamps) {
        send_reply(delivery, now);
        return;
    }
    protocol::encode_server_stamp(arrival_ns_, std::span(reply_).subspan(stamps_at_, 8));
    if (header_.server_receive_stamps) {
        protocol::encode_server_stamp(kernel_arrival_ns_,
                                      std::span(reply_).subspan(stamps_at_ + 16, 8));
    }
    if (header_.server_transmit_stamps) {
        protocol::encode_server_stamp(previous_kernel_departure(),
                                      std::span(reply_).subspan(stamps_at_ + 24, 8));
    }
    out_.push(reply_, delivery, {stamps_at_ + 8, 0});
    flush(now);
    if (departures_stamped_) {
        // Awaited from now on; on loopback its stamp is queued already.
        departures_.sent(reply_size_);
        take_departure_stamps(true);
    }
}

void session::hold_for(clock::duration hold) noexcept {
    const auto until = clock::now() + hold;
    while (clock::now() < until) {
    }
}

void session::send_reply(const sctp_delivery& delivery, clock::time_point now) {
    if (!out_.empty()) {
        out_.push(reply_, delivery);  // behind what is queued already
        flush(now);
        return;
    }
    // Straight from reply_ while nothing is queued: the queue, its copy and
    // its bookkeeping are for a reply the socket has no room for.
    const auto sent = channel_->send_ready(reply_, delivery);
    if (sent < reply_.size()) {
        out_.push(std::span(reply_).subspan(sent), delivery);
    }
}

void session::note_queued(bool nothing_queued_before, clock::time_point now) noexcept {
    // The send timeout runs from the last progress of the queue's front.
    // Replies queued behind a front the peer does not take leave it
    // running: a client that stopped reading while its kernel still
    // delivers requests is cut off at the timeout from when its replies
    // stopped moving, not once its requests have stopped coming too.
    if (nothing_queued_before) {
        output_since_ = now;
    }
}

void session::note_arrival() noexcept {
    if (!header_.server_timestamps) {
        return;
    }
    if (identity_.test_wake_delay.count() != 0) {
        hold_for(identity_.test_wake_delay);
    }
    previous_arrival_ns_ = arrival_ns_;
    arrival_ns_ = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now().time_since_epoch())
            .count());
    if (header_.server_receive_stamps) {
        note_kernel_arrival();
    }
}

void session::note_kernel_arrival() noexcept {
    // The kernel stamps on CLOCK_REALTIME; the arrival above is the steady
    // clock's. When the offset is read again (some 50 ns, one request in
    // realtime_offset::read_every), the reads fall in that request's server
    // application part.
    const auto stamp = channel_->last_arrival_ns();
    kernel_arrival_ns_ = stamp == 0 ? 0 : on_steady_clock(stamp, previous_arrival_ns_, arrival_ns_);
    realtime_offset_.counted();
}

std::uint64_t session::on_steady_clock(std::int64_t stamp, std::uint64_t not_before,
                                       std::uint64_t not_after) noexcept {
    // The bounds are the steady clock's readings, the offset read beside
    // them.
    constexpr auto spread_ns = static_cast<std::uint64_t>(realtime_offset::reading_spread_ns);
    const auto outside = [&](std::uint64_t ns) {
        return ns + spread_ns < not_before || ns > not_after + spread_ns;
    };
    auto ns = static_cast<std::uint64_t>(stamp - realtime_offset_.ns());
    if (outside(ns)) {
        // The wall clock was set since the offset was read. Read it again
        // at once, so that the stamps after the setting are right; a stamp
        // still outside was made before the setting and is moved by neither
        // offset: given as none (0), which the client counts missing.
        realtime_offset_.read_now();
        ns = static_cast<std::uint64_t>(stamp - realtime_offset_.ns());
        if (outside(ns)) {
            return 0;
        }
    }
    return ns;
}

std::uint64_t session::previous_kernel_departure() {
    if (!departures_stamped_) {
        // The kernel counts the stamps' keys from the first byte not yet
        // acknowledged: the client sent this request once it had read all
        // this server sent before, so the next reply's first byte is the
        // first counted. The kernel's SCTP makes no transmit stamp.
        if (!sctp_) {
            enable_kernel_timestamps(channel_->native_handle(), true);
            departures_stamped_ = true;
        }
        return 0;
    }
    if (departures_.handed_to_device_ns() == 0) {
        take_departure_stamps(true);  // it came after the send
    }
    // The previous reply left after its request was read and before this
    // request was.
    const auto stamp = departures_.handed_to_device_ns();
    return stamp == 0 ? 0 : on_steady_clock(stamp, previous_arrival_ns_, arrival_ns_);
}

void session::take_departure_stamps(bool until_awaited) {
    // Each read is a system call inside the client's round trip: with
    // `until_awaited`, none after the awaited reply's stamp (any later one,
    // a retransmission's, makes epoll report the socket, and the next
    // advance() takes it).
    read_transmit_stamps_until(
        channel_->native_handle(), [this](const transmit_stamp& stamp) { departures_.take(stamp); },
        [this, until_awaited] { return until_awaited && departures_.handed_to_device_ns() != 0; });
}

}  // namespace sctp_perf
