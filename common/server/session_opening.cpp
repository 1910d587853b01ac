// SPDX-License-Identifier: Apache-2.0
// How a session opens its test: the header decoded, refused or accepted,
// the server's settings sent, and the buffers sized for the mode asked for.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "errors.hpp"
#include "server/server_log.hpp"
#include "server/session.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/peer_failures.hpp"

namespace sctp_perf {

protocol::decoded_header session::decode_whole_header(std::size_t filled) const {
    auto decoded = decode_header_start();
    if (decoded.verdict == protocol::status::accepted) {
        if (filled != protocol::header_size) {
            // SOCK_SEQPACKET: this version's header in a message of the old size
            throw peer_error(message_of_wrong_size(filled, protocol::header_size));
        }
        protocol::header_bytes bytes{};
        std::copy_n(message_.begin(), bytes.size(), bytes.begin());
        decoded = protocol::decode_header(bytes);
    }
    return decoded;
}

bool session::refused(const protocol::decoded_header& decoded, bool busy) {
    if (decoded.verdict == protocol::status::unsupported_version) {
        outcome_.reason =
            fmt::format("refused: the client speaks protocol version {}, this server version {}",
                        decoded.peer_version, protocol::version);
    } else if (decoded.verdict != protocol::status::accepted) {
        outcome_.reason = fmt::format("refused: {}", protocol::describe(decoded.verdict));
    } else if (busy) {
        outcome_.reason = "refused: too many clients at once";
    } else {
        return false;
    }
    phase_ = phase::refusing;
    return true;
}

void session::send_settings() {
    const auto settings =
        server_settings_json(identity_, channel_->native_handle(), channel_->association_id());
    out_.push(protocol::encode_blob_length(static_cast<std::uint32_t>(settings.size())), {});
    out_.push(std::as_bytes(std::span(settings.data(), settings.size())), {});
}

void session::take_header(clock::time_point now) {
    const auto filled = std::exchange(message_filled_, 0);
    input_since_ = now;
    const auto decoded = decode_whole_header(filled);
    const bool busy = refuse_as_busy_ && decoded.verdict == protocol::status::accepted;
    const bool nothing_queued = out_.empty();
    out_.push(protocol::encode_verdict(busy ? protocol::status::server_busy : decoded.verdict), {});
    note_queued(nothing_queued, now);
    if (refused(decoded, busy)) {
        return;
    }
    send_settings();
    header_ = decoded.header;
    begin_test(now);
}

void session::begin_test(clock::time_point now) {
    max_gap_ = std::chrono::milliseconds(header_.max_gap_ms);
    // Sized by this test's reply (validated: at most max_reply_bytes).
    reply_size_ = protocol::reply_size_of(header_);
    reply_.resize(reply_size_);
    protocol::fill_payload(reply_);
    const auto mode = header_.mode;
    stamps_at_ = protocol::server_stamps_offset(mode);
    plain_replies_ = !header_.server_timestamps && identity_.test_reply_delay.count() == 0;
    if (header_.server_timestamps) {
        log_info("The client asks for server timestamps (one-way latency) in every reply");
    }
    if (header_.server_receive_stamps) {
        // Receive stamps only: the reply's own departure stamp could only
        // travel with the next reply. On a one-to-many socket this turns
        // them on for every association, which costs the others nothing
        // but a control message per read.
        enable_kernel_timestamps(channel_->native_handle(), false);
        channel_->take_arrival_stamps(true);
        realtime_offset_.read_now();
        log_info("The client asks for the kernel's receive stamps too (--timestamps)");
    }
    if (header_.server_transmit_stamps) {
        // Turned on at the first request (previous_kernel_departure()).
        if (sctp_) {
            log_info(
                "The client asks for the kernel's transmit stamps too, which SCTP does not "
                "make: every reply carries 0 for them");
        } else {
            log_info("The client asks for the kernel's transmit stamps too (--timestamps)");
        }
    }
    if (mode == protocol::test_mode::ping_pong) {
        if (header_.iterations == 0) {
            log_info(
                "Test for as many iterations as the client sends, {}-byte requests, "
                "{}-byte replies",
                header_.payload_bytes, reply_size_);
        } else {
            log_info("Test for {} iterations, {}-byte requests, {}-byte replies",
                     header_.iterations, header_.payload_bytes, reply_size_);
        }
        message_.resize(header_.payload_bytes);  // validated: 1..max_payload_bytes
        phase_ = phase::ping_pong;
        return;
    }
    log_info("Test in {} mode, {}-byte requests, {}-byte replies", protocol::name_of(mode),
             header_.payload_bytes, reply_size_);
    if (mode == protocol::test_mode::rate || mode == protocol::test_mode::throughput) {
        outcome_.unit = "messages";
    }
    // A byte stream keeps only a request a read cut short; SOCK_SEQPACKET
    // reads one request, one message, at a time.
    message_.resize(seqpacket_ ? header_.payload_bytes : 0);
    partial_.reserve(header_.payload_bytes);
    load_started_ = now;
    usage_before_ = read_process_usage();
    phase_ = phase::load;
}

}  // namespace sctp_perf
