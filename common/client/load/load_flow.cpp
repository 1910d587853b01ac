// SPDX-License-Identifier: Apache-2.0
#include "client/load/load_flow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "client/reply_stream.hpp"
#include "errors.hpp"
#include "protocol/server_account_blob.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

// Messages a throughput flow sends before the worker looks at its other
// flows and at the replies, so that echoed replies are timed promptly.
constexpr int throughput_batch = 64;

}  // namespace

std::chrono::nanoseconds abandon_wait(const load_plan& plan) {
    if (plan.pr.policy == pr_sctp_policy::rtx || plan.server_pr.policy == pr_sctp_policy::rtx) {
        return plan.io_timeout;
    }
    const auto ttl_ms = [](const pr_sctp& pr) {
        return pr.policy == pr_sctp_policy::ttl ? std::chrono::milliseconds(pr.value)
                                                : std::chrono::milliseconds(0);
    };
    return 2 * (ttl_ms(plan.pr) + ttl_ms(plan.server_pr)) + std::chrono::seconds(1);
}

void stream_samples::record(std::uint16_t stream, std::uint64_t ns) {
    ++replies[stream];
    if (stream < latency.size()) {
        if (!latency[stream]) {
            latency[stream] = std::make_unique<log_linear_histogram>();
        }
        latency[stream]->record(ns);
    }
}

load_flow::load_flow(unsigned index, std::unique_ptr<message_channel> channel,
                     const load_plan& plan)
    : index_(index),
      channel_(std::move(channel)),
      plan_(plan),
      closed_loop_(plan.mode == protocol::test_mode::framed_ping_pong),
      out_(plan.payload_bytes),
      filler_(plan.reply_bytes),
      // A byte stream is read in bulk; SOCK_SEQPACKET one message per read,
      // so that the blob after the end-of-test reply is never read as a reply.
      bulk_(dynamic_cast<stream_channel*>(channel_.get()) != nullptr),
      partial_(plan.reply_bytes) {
    protocol::fill_payload(out_);
    protocol::fill_payload(filler_);
    result_.flow = index;
    if (plan.one_way) {
        one_way_.emplace(plan.mode, *plan.one_way);
    }
}

std::string load_flow::name() const {
    if (plan_.servers.size() <= 1) {
        return fmt::format("flow {}", index_);
    }
    const auto server = index_ % plan_.servers.size();
    return fmt::format("flow {} (server {} of {}, {})", index_, server + 1, plan_.servers.size(),
                       plan_.servers[server]);
}

void load_flow::send_primer(std::uint32_t round) {
    primer_sent_ = {};
    primer_sent_.flags = protocol::flag_reply_wanted | protocol::flag_primer;
    primer_sent_.sequence = next_sequence_++;
    primer_sent_.token = static_cast<std::uint32_t>(tokens_.next());
    protocol::encode_message_header(primer_sent_, out_);
    try {
        primer_sent_at_ = clock::now();
        channel_->send_message(out_);
    } catch (const peer_error& e) {
        throw peer_error(fmt::format("{}, primer round trip {}: {}", name(), round + 1, e.what()));
    }
}

void load_flow::check_primer(std::uint32_t round) {
    std::vector<std::byte> reply(plan_.reply_bytes);
    sctp_delivery travelled;
    try {
        channel_->receive_message(reply, checks_streams() ? &travelled : nullptr);
        const auto received = clock::now();
        if (checks_streams()) {
            check_reply_stream(travelled.stream, primer_sent_.sequence);
        }
        if (protocol::decode_message_header(reply) != primer_sent_ || !padding_ok(reply)) {
            throw peer_error(
                "the reply does not carry its request's sequence and token (the peer answered "
                "without reading the request)");
        }
        if (one_way_) {
            // Not recorded: a sample of the clocks' offset.
            one_way_->take(primer_sent_at_, received, reply, false, nullptr);
        }
    } catch (const peer_error& e) {
        throw peer_error(fmt::format("{}, primer round trip {}: {}", name(), round + 1, e.what()));
    }
}

void load_flow::begin(const send_schedule& schedule, clock::time_point measure_from,
                      clock::time_point stop_at) {
    schedule_ = schedule;
    measure_from_ = measure_from;
    stop_at_ = stop_at;
    owed_since_ = schedule.start();
}

load_flow::clock::time_point load_flow::next_due() const noexcept {
    if (end_started_ && !out_pending_) {
        return clock::time_point::max();
    }
    if (draining_ && !out_pending_) {
        // The replies wake it; with PR-SCTP so does the end of its patience.
        return plan_.partially_reliable() ? drain_until_ : clock::time_point::max();
    }
    if (out_pending_) {
        return schedule_->start();  // due already: send as soon as there is room
    }
    if (closed_loop_ && matcher_.outstanding() > 0) {
        return clock::time_point::max();  // the next waits for this reply
    }
    if (!schedule_->paced() || stopping_) {
        return schedule_->start();  // now: the next message, or the end of test
    }
    return std::min(schedule_->next_due(), stop_at_);
}

void load_flow::start_message(clock::time_point due, bool end_of_test) {
    protocol::message_header header;
    header.sequence = next_sequence_++;
    header.token = static_cast<std::uint32_t>(tokens_.next());
    const bool timed = !end_of_test && measured_sent_ % plan_.echo_every == 0;
    header.flags =
        static_cast<std::uint16_t>((timed || end_of_test ? protocol::flag_reply_wanted : 0) |
                                   (end_of_test ? protocol::flag_end_of_test : 0));
    protocol::encode_message_header(header, out_);
    out_sent_ = 0;
    out_pending_ = true;
    out_due_ = due;
    out_timed_.reset();
    out_delivery_ = {};
    if (!end_of_test) {
        out_delivery_.stream = static_cast<std::uint16_t>(measured_sent_ % plan_.streams);
        out_delivery_.unordered = plan_.unordered;
        out_delivery_.pr = plan_.pr;
    }
    if (timed) {
        out_timed_ = timed_request{header.sequence, header.token, due, {}};
    }
    if (end_of_test) {
        end_sequence_ = header.sequence;
        end_token_ = header.token;
        end_started_ = true;
    } else {
        ++measured_sent_;
        schedule_->advance();
    }
}

bool load_flow::flush_pending(clock::time_point now) {
    // The clock is read where the exact moment counts: a timed message, every
    // message of a paced flow (its slip), and a flow's first message. An
    // untimed throughput message takes the loop's time, saving a clock read
    // on 999 of 1000 messages.
    const bool exact =
        out_sent_ == 0 && (out_timed_ || schedule_->paced() || result_.messages_sent == 0);
    const auto sent_at = exact ? clock::now() : now;
    const auto n = channel_->send_ready(std::span(out_).subspan(out_sent_), out_delivery_);
    if (n == 0) {
        out_blocked_ = true;
        return false;
    }
    if (out_blocked_) {
        owed_since_ = now;  // the peer made room: it is reading
        out_blocked_ = false;
    }
    out_sent_ += n;
    if (out_sent_ < out_.size()) {
        out_blocked_ = true;
        return false;  // the rest waits for room
    }
    out_pending_ = false;
    last_sent_at_ = sent_at;
    if (matcher_.outstanding() == 0 || end_started_) {
        owed_since_ = sent_at;  // a new wait for the peer begins here
    }
    if (out_timed_) {
        out_timed_->sent = sent_at;
        if (!schedule_->paced()) {
            out_timed_->due = sent_at;  // throughput: timed from the actual send
        }
        matcher_.expect(*out_timed_);
        if (out_timed_->due >= measure_from_) {
            ++result_.messages_echo_requested;
        }
    }
    return true;
}

bool load_flow::send_due(clock::time_point now, sample_sink& sink) {
    for (int batch = 0; batch < throughput_batch; ++batch) {
        if (!out_pending_) {
            if (end_started_ || (closed_loop_ && matcher_.outstanding() > 0)) {
                return false;
            }
            const std::uint64_t k = measured_sent_;
            const auto due = schedule_->next_due();
            const bool count_done = !plan_.duration && k >= plan_.messages;
            const bool time_done =
                stopping_ ||
                (plan_.duration && (schedule_->paced() ? due >= stop_at_ : now >= stop_at_));
            if (count_done || time_done) {
                if (!drained(now)) {
                    return false;
                }
                if (!schedule_->paced() && result_.messages_sent > 0) {
                    last_send_ = clock::now();  // the last send was stamped with the loop's time
                }
                start_message(now, /*end_of_test=*/true);
            } else if (schedule_->paced() && due > now) {
                return false;
            } else {
                start_message(due, /*end_of_test=*/false);
            }
        }
        if (!flush_pending(now)) {
            return true;
        }
        // Nothing follows the end message, so with it started the one just
        // sent was the end message, not a measured one. A message due (sent,
        // unpaced) before measure_from is the warm-up's.
        const bool warm = (schedule_->paced() ? out_due_ : last_sent_at_) < measure_from_;
        if (!end_started_ && warm) {
            ++result_.warmup_messages;
            ++sink.warmup_sent;
        } else if (!end_started_) {
            ++result_.messages_sent;
            result_.bytes_sent += out_.size();
            ++sink.interval_sent;
            if (result_.messages_sent == 1) {
                first_send_ = last_sent_at_;
            }
            last_send_ = last_sent_at_;
            if (schedule_->paced()) {
                const auto slip = std::max<std::int64_t>(0, (last_sent_at_ - out_due_).count());
                sink.slip.record(static_cast<std::uint64_t>(slip));
            }
        }
        if (schedule_->paced()) {
            now = clock::now();
        }
    }
    return false;
}

bool load_flow::drained(clock::time_point now) {
    if (!plan_.replies_may_reorder() || matcher_.outstanding() == 0) {
        return true;
    }
    if (!draining_) {
        draining_ = true;
        drain_until_ = now + abandon_wait(plan_);
    }
    return plan_.partially_reliable() && now >= drain_until_;
}

bool load_flow::padding_ok(std::span<const std::byte> reply) const noexcept {
    // The server's stamps, with --one-way, are its own to write.
    const auto after_header =
        reply.subspan(protocol::load_reply_size + (one_way_ ? protocol::server_stamps_size : 0));
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
    while (!end_reply_received_) {
        // The part of a reply left from the last read goes first.
        std::memcpy(buffer.data(), partial_.data(), partial_bytes_);
        const auto n = channel_->receive_ready(
            buffer.subspan(partial_bytes_, read_limit - partial_bytes_), reply_size, delivery);
        if (n == 0) {
            return;
        }
        const auto arrived = clock::now();
        const std::size_t filled = partial_bytes_ + n;
        std::size_t at = 0;
        for (; filled - at >= reply_size && !end_reply_received_; at += reply_size) {
            take_reply(buffer.subspan(at, reply_size), arrived, sink,
                       delivery != nullptr ? std::optional(travelled.stream) : std::nullopt);
        }
        // Only whole replies count: bytes trickled one at a time do not keep
        // a flow waiting forever.
        if (at > 0) {
            owed_since_ = arrived;
        }
        const auto rest = buffer.subspan(at, filled - at);
        if (end_reply_received_) {
            blob_prefix_.assign(rest.begin(), rest.end());
            partial_bytes_ = 0;
        } else {
            std::memcpy(partial_.data(), rest.data(), rest.size());  // less than a reply
            partial_bytes_ = rest.size();
        }
    }
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
        request_stream(sequence, plan_.streams, end_started_ && sequence == end_sequence_,
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
        if (header->sequence != end_sequence_ || header->token != end_token_ || !end_started_) {
            throw peer_error("an end-of-test reply that does not answer this client's end of test");
        }
        if (came_on) {
            check_reply_stream(*came_on, header->sequence);
        }
        end_reply_received_ = true;
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
    const int fd = channel_->native_handle();
    result_.transport = read_transport_counters(fd, plan_.transport);
    if (plan_.pr.any()) {
        result_.kernel_abandoned = read_pr_sctp_abandoned(fd);
    }
    channel_.reset();

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

}  // namespace sctp_perf
