// SPDX-License-Identifier: Apache-2.0
// A load flow without a connection (--reconnect): what its outage costs,
// counted as it begins and as it ends. The worker sets the flow up again
// (client/load/flow_reconnector.hpp); the flow keeps its schedule, so what
// fell due meanwhile is known to the message.
#include <chrono>

#include "client/load/load_flow.hpp"

namespace sctp_perf {
namespace {

double seconds_between(std::chrono::steady_clock::time_point from,
                       std::chrono::steady_clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace

void load_flow::lose_connection(clock::time_point now, const std::string& cause,
                                sample_sink& sink) {
    flow_outage outage;
    outage.began_s = seconds_between(sink.t0, now);
    outage.cause = cause;
    outage.replies_lost = matcher_.abandon_outstanding();
    // The end of test is sent again on the next connection; a measured
    // message the kernel had not taken whole never reached the server.
    if (!end_started()) {
        for (auto i = batch_done_; i < batch_.size(); ++i) {
            const auto due = schedule_->paced() ? batch_[i].due : now;
            if (due >= measure_from_) {
                ++outage.messages_not_sent;
            }
        }
    } else {
        phase_ = flow_phase::stopping;
    }
    ++result_.connections_lost;
    result_.replies_lost_to_outages += outage.replies_lost;
    result_.messages_not_sent_in_outages += outage.messages_not_sent;
    result_.messages_sent_on_lost_connections += measured_on_connection_;
    result_.outages.push_back(std::move(outage));

    batch_.clear();
    batch_done_ = 0;
    out_sent_ = 0;
    out_blocked_ = false;
    partial_bytes_ = 0;
    blob_prefix_.clear();
    channel_.reset();
    out_of_service_ = true;
    outage_began_ = now;
}

void load_flow::note_reconnect_attempt() noexcept {
    ++result_.outages.back().attempts;
}

void load_flow::resume(std::unique_ptr<message_channel> channel, clock::time_point now) {
    result_.outages.back().lasted_s = seconds_between(outage_began_, now);
    pass_by_due_before(now);
    channel_ = std::move(channel);
    out_of_service_ = false;
    // A new connection: its own sequence from 0, as the server numbers it.
    matcher_ = reply_matcher{};
    next_sequence_ = 0;
    primer_on_connection_ = 0;
    warmup_on_connection_ = 0;
    measured_on_connection_ = 0;
    owed_since_ = now;
    if (stamps_) {
        // The new stream counts its bytes from 0 again, and nothing is in
        // flight on it yet: the stamps start over (flow_stamps matches by
        // the offset in the stream). No primer goes on a new connection.
        // A round trip of the old one that waited for its next reply to
        // bring the server's transmit stamp waits no more.
        stamps_->abandon();
        start_stamps();
    }
}

void load_flow::end_out_of_service(clock::time_point now) noexcept {
    pass_by_due_before(now);
    phase_ = flow_phase::finished;
}

void load_flow::pass_by_due_before(clock::time_point now) noexcept {
    // The measured messages due while the flow had no connection: the
    // schedule passes them by, each counted, so that the next one goes when
    // it is due rather than all of them at once. Unpaced flows have nothing
    // due at a time of its own.
    if (!schedule_->paced() || phase_ != flow_phase::sending) {
        return;
    }
    auto& outage = result_.outages.back();
    for (;;) {
        const auto due = schedule_->next_due();
        const bool left = plan_.duration ? due < stop_at_ : measured_sent_ < plan_.messages;
        if (due >= now || !left) {
            return;
        }
        schedule_->advance();
        ++measured_sent_;
        if (due >= measure_from_) {
            ++outage.messages_not_sent;
            ++result_.messages_not_sent_in_outages;
        }
    }
}

}  // namespace sctp_perf
