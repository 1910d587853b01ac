// SPDX-License-Identifier: Apache-2.0
// A load flow's replies: each one read, checked against the request it
// answers (its token, its padding, the stream it came on) and timed, and the
// flow's result when the run ends. The sending side is load_flow.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "client/load/load_flow.hpp"
#include "client/reply_stream.hpp"
#include "errors.hpp"
#include "protocol/server_account_blob.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {

bool load_flow::padding_ok(std::span<const std::byte> reply) const noexcept {
    // The server's stamps, with --one-way, are its own to write.
    const auto after_header = reply.subspan(protocol::load_reply_size + server_stamp_bytes_);
    return std::equal(after_header.begin(), after_header.end(),
                      filler_.end() - static_cast<std::ptrdiff_t>(after_header.size()));
}

void load_flow::receive(sample_sink& sink, std::span<std::byte> buffer) {
    // The worker's buffer holds at least one reply of the largest size.
    static_assert(worker_receive_bytes >= protocol::max_reply_bytes);
    const std::size_t reply_size = plan_.reply_bytes;
    const std::size_t read_limit = bulk_ ? buffer.size() : reply_size;
    // With several streams each read brings one SCTP message at most, so
    // that the stream it came on belongs to the reply it completes.
    sctp_delivery travelled;
    sctp_delivery* const delivery = checks_streams() ? &travelled : nullptr;
    bool read_any = false;
    while (!finished()) {
        // The part of a reply left from the last read goes first.
        std::memcpy(buffer.data(), partial_.data(), partial_bytes_);
        const auto n = channel_->receive_ready(
            buffer.subspan(partial_bytes_, read_limit - partial_bytes_), reply_size, delivery);
        if (n == 0) {
            if (stamps_ && !read_any) {
                // A wake-up for the error queue alone (EPOLLERR): stamps
                // no request awaited (a retransmission's, a call of untimed
                // messages). Not after reading data: a stamp left then
                // makes epoll report the socket again, and the read that
                // would find the queue empty is spared.
                take_transmit_stamps(stamps_to_take::all);
            }
            return;
        }
        read_any = true;
        const auto arrived = clock::now();
        const std::size_t filled = partial_bytes_ + n;
        if (stamps_) {
            // Taken after the reply's time, before its round trip is
            // recorded: by then its request's stamp has come (most often it
            // was taken right after the send).
            take_transmit_stamps(stamps_to_take::awaited);
            // The read's stamp is a reply's own only when the read ended at
            // that reply's end, completed no other one, and stopped for want
            // of data, not of room (flow_stamps.hpp). A channel that keeps
            // message boundaries reads one message at a time.
            const bool one_reply =
                filled == reply_size && (!bulk_ || n < read_limit - partial_bytes_);
            read_arrival_ns_ = one_reply ? channel_->last_arrival_ns() : 0;
            read_shared_ = !one_reply;
        }
        std::size_t at = 0;
        for (; filled - at >= reply_size && !finished(); at += reply_size) {
            take_reply(buffer.subspan(at, reply_size), arrived, sink,
                       delivery != nullptr ? std::optional(travelled.stream) : std::nullopt);
        }
        // Only whole replies count: bytes trickled one at a time do not keep
        // a flow waiting forever.
        if (at > 0) {
            owed_since_ = arrived;
        }
        const auto rest = buffer.subspan(at, filled - at);
        if (finished()) {
            blob_prefix_.assign(rest.begin(), rest.end());
            partial_bytes_ = 0;
        } else {
            std::memcpy(partial_.data(), rest.data(), rest.size());  // less than a reply
            partial_bytes_ = rest.size();
        }
    }
}

void load_flow::take_transmit_stamps(stamps_to_take which) {
    // The kernel's SCTP makes no transmit stamp, so over it no request ever
    // awaits one and the queue holds none.
    if (plan_.transport != transport_protocol::tcp) {
        return;
    }
    const bool awaited_only = which == stamps_to_take::awaited;
    read_transmit_stamps_until(
        channel_->native_handle(), [this](const transmit_stamp& stamp) { stamps_->take(stamp); },
        [this, awaited_only] { return awaited_only && !stamps_->stamp_awaited(); });
}

std::uint16_t request_stream(std::uint64_t sequence, std::uint16_t streams, bool end_of_test,
                             std::uint32_t primer) noexcept {
    if (sequence < primer || end_of_test || streams <= 1) {
        return 0;
    }
    return static_cast<std::uint16_t>((sequence - primer) % streams);
}

void load_flow::check_reply_stream(std::uint16_t came_on, std::uint64_t sequence) const {
    const auto sent_on =
        request_stream(sequence, plan_.streams, end_started() && sequence == end_sequence_,
                       plan_.primer_iterations);
    sctp_perf::check_reply_stream(fmt::format("the reply to request {}", sequence), came_on,
                                  sent_on);
}

void load_flow::record_reply(const timed_request& request, std::span<const std::byte> reply,
                             clock::time_point arrived, sample_sink& sink) {
    const bool measured = request.due >= measure_from_;
    if (one_way_) {
        // The split is of the round trip from the send (uncorrected).
        one_way_->take(request.sent, arrived, reply, measured, sink.one_way.get());
    }
    if (stamps_) {
        // So is the kernel's, the server's stamps from the reply.
        const auto server = server_stamps_of(reply);
        stamps_->reply(request.sequence, request.sent, arrived, read_arrival_ns_, read_shared_,
                       server ? &*server : nullptr, measured, *sink.split);
    }
    if (!measured) {
        return;  // the warm-up's: matched and checked, not recorded
    }
    const std::size_t reply_bytes = reply.size();
    const auto corrected = arrived - request.due;
    const auto uncorrected = arrived - request.sent;
    const auto corrected_ns =
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, corrected.count()));
    const auto uncorrected_ns =
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, uncorrected.count()));
    sink.corrected_run.record(corrected_ns);
    sink.uncorrected_run.record(uncorrected_ns);
    sink.corrected_interval.record(corrected_ns);
    sink.uncorrected_interval.record(uncorrected_ns);
    const auto headline_ns = schedule_->paced() ? corrected_ns : uncorrected_ns;
    result_.latency.record(headline_ns);
    if (!sink.per_server.empty()) {
        sink.per_server[index_ % sink.per_server.size()]->record(headline_ns);
    }
    if (plan_.streams > 1) {
        const auto measured = request.sequence - plan_.primer_iterations;
        sink.per_stream.record(static_cast<std::uint16_t>(measured % plan_.streams), headline_ns);
    }
    ++result_.messages_replied;
    result_.bytes_replied += reply_bytes;
    ++sink.interval_replies;
    if (sink.file != nullptr) {
        sink.file->add(index_, request.sequence, (request.due - sink.t0).count(),
                       (request.sent - sink.t0).count(), (arrived - sink.t0).count());
    }
    if (sink.timeline != nullptr) {  // the headline's start: due when paced, else sent
        sink.timeline->add(arrived - sink.t0, headline_ns, index_, channel_->last_read_path());
    }
}

std::optional<protocol::server_stamps> load_flow::server_stamps_of(
    std::span<const std::byte> reply) const noexcept {
    if (!one_way_) {
        return std::nullopt;
    }
    return protocol::decode_server_stamps(plan_.mode, reply, plan_.server_receive_stamps,
                                          plan_.server_transmit_stamps);
}

void load_flow::take_reply(std::span<const std::byte> reply, clock::time_point arrived,
                           sample_sink& sink, std::optional<std::uint16_t> came_on) {
    const auto header = protocol::decode_message_header(reply);
    if (!header) {
        throw peer_error("a reply with unknown flags or reserved bits");
    }
    if (!padding_ok(reply)) {
        throw peer_error(
            fmt::format("the reply to request {} does not carry the defined filler after its "
                        "message header (the peer is out of step)",
                        header->sequence));
    }
    if (header->end_of_test()) {
        if (header->sequence != end_sequence_ || header->token != end_token_ ||
            phase_ != flow_phase::ending) {
            throw peer_error("an end-of-test reply that does not answer this client's end of test");
        }
        if (came_on) {
            check_reply_stream(*came_on, header->sequence);
        }
        if (stamps_) {
            // It brings the server's transmit stamp of the last reply.
            const auto server = server_stamps_of(reply);
            stamps_->end_reply(server ? &*server : nullptr);
        }
        phase_ = flow_phase::finished;
        return;
    }
    const auto match = matcher_.match(header->sequence, header->token);
    const bool answers_a_request = match.what == reply_matcher::verdict::matched ||
                                   match.what == reply_matcher::verdict::duplicate;
    if (came_on && answers_a_request) {
        check_reply_stream(*came_on, header->sequence);
    }
    switch (match.what) {
        case reply_matcher::verdict::matched:
            record_reply(match.request, reply, arrived, sink);
            return;
        case reply_matcher::verdict::duplicate:
            ++result_.messages_duplicated;
            return;
        case reply_matcher::verdict::unknown:
            throw peer_error(
                fmt::format("a reply to request {}, which asked for none (the peer is out of step)",
                            header->sequence));
        case reply_matcher::verdict::wrong_token:
            throw peer_error(
                fmt::format("the reply to request {} does not carry its token (the peer answered "
                            "without reading the request, or replays another session)",
                            header->sequence));
    }
}

flow_result load_flow::finish() {
    if (channel_) {
        read_server_account();
    }
    // Under PR-SCTP a missing reply is one the transport was allowed to give
    // up; otherwise nothing may go missing, and it is counted lost.
    const auto missing = matcher_.abandon_outstanding();
    (plan_.partially_reliable() ? result_.messages_abandoned : result_.messages_lost) = missing;
    const auto sending = std::chrono::duration<double>(last_send_ - first_send_).count();
    result_.rate_per_s = result_.messages_sent >= 2 && sending > 0.0
                             ? static_cast<double>(result_.messages_sent - 1) / sending
                             : 0.0;
    sending_s_ = sending;
    return std::move(result_);
}

void load_flow::read_server_account() {
    // On a byte stream the blob's first bytes may have come with the end reply.
    std::string text;
    try {
        text = receive_blob(*channel_, blob_prefix_);
    } catch (const peer_error& e) {
        throw peer_error(fmt::format("{}: reading the server's account: {}", name(), e.what()));
    }
    auto account = protocol::decode_server_account(text);
    if (!account) {
        throw peer_error(fmt::format("{}: the server's account is not a JSON object", name()));
    }
    result_.server = std::move(*account);
    // The server counts the primer and the warm-up too (on this connection:
    // with --reconnect, the earlier ones' accounts ended with them).
    const auto unrecorded = primer_on_connection_ + warmup_on_connection_;
    result_.messages_received_by_server = result_.server.messages_received > unrecorded
                                              ? result_.server.messages_received - unrecorded
                                              : 0;
    result_.replies_abandoned_by_server_kernel = result_.server.pr_abandoned;
    const int fd = channel_->native_handle();
    result_.transport = read_transport_counters(fd, plan_.transport);
    if (plan_.pr.any()) {
        result_.requests_abandoned_by_client_kernel = read_pr_sctp_abandoned(fd).total();
    }
    channel_.reset();
}

}  // namespace sctp_perf
