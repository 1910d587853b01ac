// SPDX-License-Identifier: Apache-2.0
// A load flow's sending side: its primer, its schedule and the batches of
// due messages it sends. Its replies are load_flow_replies.cpp.
#include "client/load/load_flow.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "client/reply_stream.hpp"
#include "errors.hpp"

namespace sctp_perf {
namespace {

// Messages a throughput flow sends (in calls of up to --batch, and at
// least one call) before the worker looks at its other flows and at the
// replies, so that echoed replies are timed promptly.
constexpr std::size_t throughput_pass = 64;

static_assert(max_batch <= max_batch_messages, "--batch takes more than one call sends");

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
      // Framed ping-pong has one request in flight: never more than one to send.
      batch_limit_(closed_loop_ ? 1 : std::max<std::size_t>(1, plan.batch)),
      out_(plan.payload_bytes * batch_limit_),
      filler_(plan.reply_bytes),
      // A byte stream is read in bulk; SOCK_SEQPACKET one message per read,
      // so that the blob after the end-of-test reply is never read as a reply.
      bulk_(dynamic_cast<stream_channel*>(channel_.get()) != nullptr),
      partial_(plan.reply_bytes) {
    for (std::size_t slot = 0; slot < batch_limit_; ++slot) {
        protocol::fill_payload(message_bytes(slot));
    }
    protocol::fill_payload(filler_);
    batch_.reserve(batch_limit_);
    dues_.reserve(batch_limit_);
    outgoing_.reserve(batch_limit_);
    result_.flow = index;
    primer_on_connection_ = plan.primer_iterations;
    if (plan.one_way) {
        one_way_.emplace(plan.mode, *plan.one_way);
        server_stamp_bytes_ =
            protocol::server_stamps_size +
            (plan.server_receive_stamps ? protocol::server_receive_stamp_size : 0) +
            (plan.server_transmit_stamps ? protocol::server_transmit_stamp_size : 0);
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
    protocol::encode_message_header(primer_sent_, message_bytes(0));
    try {
        primer_sent_at_ = clock::now();
        channel_->send_message(message_bytes(0));
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

void load_flow::begin(send_schedule schedule, clock::time_point measure_from,
                      clock::time_point stop_at) {
    schedule_.emplace(std::move(schedule));
    measure_from_ = measure_from;
    stop_at_ = stop_at;
    owed_since_ = schedule_->start();
    if (plan_.tick_rate_per_s && schedule_->paced()) {
        ticks_.emplace(schedule_->start(), *plan_.tick_rate_per_s);
    }
}

void load_flow::start_stamps() {
    const bool transmit = plan_.transport == transport_protocol::tcp;
    enable_kernel_timestamps(channel_->native_handle(), transmit);
    channel_->take_arrival_stamps(true);
    stamps_.emplace(transmit, plan_.server_transmit_stamps);
}

load_flow::clock::time_point load_flow::next_due() const noexcept {
    if (out_of_service_ || (end_started() && !out_pending())) {
        return clock::time_point::max();
    }
    if (phase_ == flow_phase::draining && !out_pending()) {
        // The replies wake it; with PR-SCTP so does the end of its patience.
        return plan_.partially_reliable() ? drain_until_ : clock::time_point::max();
    }
    if (out_pending()) {
        return schedule_->start();  // due already: send as soon as there is room
    }
    if (closed_loop_ && matcher_.outstanding() > 0) {
        return clock::time_point::max();  // the next waits for this reply
    }
    if (!schedule_->paced() || phase_ == flow_phase::stopping) {
        return schedule_->start();  // now: the next message, or the end of test
    }
    return std::min(next_send_due(*schedule_, ticks_ ? &*ticks_ : nullptr), stop_at_);
}

std::span<std::byte> load_flow::message_bytes(std::size_t slot) noexcept {
    return std::span(out_).subspan(slot * plan_.payload_bytes, plan_.payload_bytes);
}

void load_flow::add_message(clock::time_point due, bool end_of_test) {
    protocol::message_header header;
    header.sequence = next_sequence_++;
    header.token = static_cast<std::uint32_t>(tokens_.next());
    const bool timed = !end_of_test && measured_sent_ % plan_.echo_every == 0;
    header.flags =
        static_cast<std::uint16_t>((timed || end_of_test ? protocol::flag_reply_wanted : 0) |
                                   (end_of_test ? protocol::flag_end_of_test : 0));
    protocol::encode_message_header(header, message_bytes(batch_.size()));
    // Built where it stays: a message is written once per send, not copied.
    auto& message = batch_.emplace_back();
    message.due = due;
    if (!end_of_test) {
        message.delivery.stream = static_cast<std::uint16_t>(measured_sent_ % plan_.streams);
        message.delivery.unordered = plan_.unordered;
        message.delivery.pr = plan_.pr;
    }
    if (timed) {
        message.timed = timed_request{header.sequence, header.token, due, {}};
    }
    if (end_of_test) {
        end_sequence_ = header.sequence;
        end_token_ = header.token;
        phase_ = flow_phase::ending;
    } else {
        ++measured_sent_;
    }
}

bool load_flow::start_batch(clock::time_point now) {
    batch_.clear();
    batch_done_ = 0;
    out_sent_ = 0;
    const bool count_done = !plan_.duration && measured_sent_ >= plan_.messages;
    const bool time_done =
        phase_ == flow_phase::stopping ||
        (plan_.duration &&
         (schedule_->paced() ? schedule_->next_due() >= stop_at_ : now >= stop_at_));
    if (count_done || time_done) {
        if (!drained(now)) {
            return false;
        }
        if (!schedule_->paced() && result_.messages_sent > 0) {
            last_send_ = clock::now();  // the last send was stamped with the loop's time
        }
        add_message(now, /*end_of_test=*/true);  // alone: in no call's count
        return true;
    }
    if (batch_limit_ == 1 && !schedule_->paced() && !ticks_) {
        // Throughput one message per call: due at once, as every unpaced
        // message is; the planner's bounds and list are for batches and
        // paced flows, and cost a tenth of a message's whole path.
        add_message(schedule_->start(), /*end_of_test=*/false);
        schedule_->advance();
        return true;
    }
    batch_bounds bounds;
    bounds.most = batch_limit_;
    if (!plan_.duration) {
        bounds.left = plan_.messages - measured_sent_;
    }
    bounds.stop_at = stop_at_;
    dues_.clear();
    plan_batch(*schedule_, ticks_ ? &*ticks_ : nullptr, now, bounds, dues_);
    for (const auto due : dues_) {
        add_message(due, /*end_of_test=*/false);
    }
    return !batch_.empty();
}

bool load_flow::timed_pending() const noexcept {
    if (batch_done_ + 1 == batch_.size()) {
        return batch_.back().timed.has_value();  // one message per call, as by default
    }
    return std::any_of(batch_.begin() + static_cast<std::ptrdiff_t>(batch_done_), batch_.end(),
                       [](const batched_message& m) { return m.timed.has_value(); });
}

std::size_t load_flow::send_once_more() {
    const auto first = message_bytes(batch_done_).subspan(out_sent_);
    if (batch_.size() - batch_done_ == 1) {
        return channel_->send_ready(first, batch_[batch_done_].delivery);
    }
    outgoing_.clear();
    outgoing_.push_back({first, batch_[batch_done_].delivery});
    for (auto i = batch_done_ + 1; i < batch_.size(); ++i) {
        outgoing_.push_back({message_bytes(i), batch_[i].delivery});
    }
    return channel_->send_batch_ready(outgoing_);
}

bool load_flow::flush_pending(clock::time_point now, sample_sink& sink, std::size_t& completed) {
    // The clock is read where the exact moment counts: a call with a timed
    // message, every call of a paced flow (its slip), and a flow's first
    // message. A call of untimed throughput messages takes the loop's time,
    // saving a clock read on 999 of 1000 messages.
    const bool exact = schedule_->paced() || result_.messages_sent == 0 || timed_pending();
    const auto sent_at = exact ? clock::now() : now;
    auto n = send_once_more();
    if (n == 0) {
        out_blocked_ = true;
        return false;
    }
    if (out_blocked_) {
        owed_since_ = now;  // the peer made room: it is reading
        out_blocked_ = false;
    }
    if (!end_started()) {
        ++result_.send_calls;
    }
    // With --timestamps, where in the stream each message taken ends.
    std::uint64_t end = 0;
    if (stamps_) {
        end = stamps_->stream_bytes();
        stamps_->took(n);
    }
    // The bytes taken complete messages in order; on a byte stream the last
    // may be taken in part, and its rest goes first in the next call.
    while (n > 0) {
        const std::size_t rest = plan_.payload_bytes - out_sent_;
        if (n < rest) {
            out_sent_ += n;
            break;
        }
        n -= rest;
        end += rest;
        out_sent_ = 0;
        complete_message(batch_[batch_done_++], sent_at, end, sink);
        ++completed;
    }
    if (stamps_) {
        take_transmit_stamps(stamps_to_take::awaited);
    }
    if (out_pending()) {
        out_blocked_ = true;
        return false;  // the rest waits for room
    }
    return true;
}

void load_flow::complete_message(const batched_message& message, clock::time_point sent_at,
                                 std::uint64_t end, sample_sink& sink) {
    last_sent_at_ = sent_at;
    if (matcher_.outstanding() == 0 || end_started()) {
        owed_since_ = sent_at;  // a new wait for the peer begins here
    }
    if (message.timed) {
        auto timed = *message.timed;
        timed.sent = sent_at;
        if (!schedule_->paced()) {
            timed.due = sent_at;  // throughput: timed from the actual send
        }
        matcher_.expect(timed);
        if (stamps_) {
            stamps_->awaits(timed.sequence, end);
        }
        if (timed.due >= measure_from_) {
            ++result_.messages_echo_requested;
        }
    }
    // Nothing follows the end message, so with it started the one just sent
    // was the end message, not a measured one. A message due (sent, unpaced)
    // before measure_from is the warm-up's.
    if (end_started()) {
        return;
    }
    if ((schedule_->paced() ? message.due : sent_at) < measure_from_) {
        ++result_.warmup_messages;
        ++warmup_on_connection_;
        ++sink.warmup_sent;
        return;
    }
    ++result_.messages_sent;
    ++measured_on_connection_;
    result_.bytes_sent += plan_.payload_bytes;
    ++sink.interval_sent;
    if (result_.messages_sent == 1) {
        first_send_ = sent_at;
    }
    last_send_ = sent_at;
    if (schedule_->paced()) {
        // From its own due time (its tick's), however late in its batch it went.
        const auto slip = std::max<std::int64_t>(0, (sent_at - message.due).count());
        sink.slip.record(static_cast<std::uint64_t>(slip));
    }
}

bool load_flow::send_due(clock::time_point now, sample_sink& sink) {
    // Up to throughput_pass messages (at least one call) per pass.
    std::size_t sent_in_pass = 0;
    while (sent_in_pass < throughput_pass) {
        if (!out_pending()) {
            if (end_started() || (closed_loop_ && matcher_.outstanding() > 0)) {
                return false;
            }
            if (!start_batch(now)) {
                return false;  // nothing due yet, or waiting for replies to drain
            }
        }
        if (!flush_pending(now, sink, sent_in_pass)) {
            return true;
        }
        if (end_started()) {
            return false;  // the end of test is out: nothing follows it
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
    if (phase_ != flow_phase::draining) {
        phase_ = flow_phase::draining;
        drain_until_ = now + abandon_wait(plan_);
    }
    return plan_.partially_reliable() && now >= drain_until_;
}

}  // namespace sctp_perf
