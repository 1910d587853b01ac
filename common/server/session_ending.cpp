// SPDX-License-Identifier: Apache-2.0
// How a session ends: the client's close, a bound that ran out, a failure,
// or the end of a load test with the server's account of it; and the log
// line each ending leaves.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "errors.hpp"
#include "protocol/server_account_blob.hpp"
#include "server/server_log.hpp"
#include "server/session.hpp"
#include "server/session_paths.hpp"
#include "transport/peer_failures.hpp"
#include "transport/sctp_features.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

double seconds_of(std::chrono::milliseconds timeout) {
    return std::chrono::duration<double>(timeout).count();
}

// What a load session counted, for its account.
struct load_counts {
    std::uint64_t messages_received = 0;
    std::uint64_t bytes_received = 0;
    std::uint64_t replies_sent = 0;
    std::uint64_t bytes_sent = 0;
    std::uint32_t payload_bytes = 0;
    std::uint32_t reply_bytes = 0;
};

std::string account_json(const load_counts& counts, std::chrono::duration<double> elapsed,
                         const process_usage& before, const process_usage& after,
                         const message_channel& channel, const server_identity& identity) {
    const int fd = channel.native_handle();
    protocol::server_account account;
    account.messages_received = counts.messages_received;
    account.bytes_received = counts.bytes_received;
    account.replies_sent = counts.replies_sent;
    account.bytes_sent = counts.bytes_sent;
    account.payload_bytes = counts.payload_bytes;
    account.reply_bytes = counts.reply_bytes;
    account.duration_s = elapsed.count();
    account.cpu_percent = cpu_percent_between(before, after);
    account.rss_kib = after.rss_kib;
    account.partially_reliable = identity.sctp.pr.any();
    if (account.partially_reliable) {
        account.pr_abandoned = read_pr_sctp_abandoned(fd, channel.association_id()).total();
    }
    account.transport = read_transport_counters(fd, identity.transport, channel.association_id());
    account.paths = account_paths(channel.path_watch().get());
    return protocol::encode_server_account(account);
}

}  // namespace

std::string session::request_bound_text() const {
    if (max_gap_ == std::chrono::milliseconds::zero()) {
        return fmt::format("{:.1f} s (--io-timeout)", seconds_of(identity_.io_timeout));
    }
    return fmt::format(
        "{:.1f} s (the client's longest scheduled gap {:.1f} s + --io-timeout {:.1f} s)",
        seconds_of(request_bound()), seconds_of(max_gap_), seconds_of(identity_.io_timeout));
}

std::string session::header_failure(std::string_view what) const {
    return fmt::format("no whole test header within {:.1f} s (--header-timeout): {}",
                       seconds_of(identity_.header_timeout), what);
}

bool session::awaits_retransmission(clock::time_point now) const noexcept {
    // A request lost on the way comes again after a retransmission timeout
    // (Linux's least is 1 s by default), far beyond the quiet that ends the
    // wait for requests merely delivered out of order; counted without it,
    // a request that did reach the server would be reported as not.
    if (now - overtaken_at_ >= identity_.io_timeout) {
        return false;
    }
    const auto awaited = data_chunks_awaited(channel_->native_handle(), channel_->association_id());
    return awaited && *awaited > 0;
}

void session::on_deadline(clock::time_point now) {
    if (phase_ == phase::header) {
        finish(header_failure(message_filled_ == 0
                                  ? peer_went_silent()
                                  : incomplete_message(message_filled_, message_.size())));
        return;
    }
    if (!out_.empty()) {
        if (phase_ == phase::refusing) {
            phase_ = phase::done;
            return;
        }
        if (channel_->send_waits_on_others()) {
            // Not this peer's doing: the shared send buffer is full of other
            // associations' replies, and frees when theirs move or their
            // sessions end at this same timeout.
            if (!waited_on_others_) {
                waited_on_others_ = true;
                log_info(
                    "client {}: its replies have waited {:.1f} s (--io-timeout) for the "
                    "one-to-many socket's send buffer, full of other associations' data "
                    "(net.sctp.sndbuf_policy 0); waiting on",
                    client(), seconds_of(identity_.io_timeout));
            }
            output_since_ = now;
            return;
        }
        finish("send timed out: the peer stopped reading");
        return;
    }
    switch (phase_) {
        case phase::overtaken:
            if (awaits_retransmission(now)) {
                if (!awaited_retransmission_) {
                    awaited_retransmission_ = true;
                    log_info(
                        "client {}: the end of the test came before {} of its requests; "
                        "waiting for the kernel's retransmission of those lost on the way",
                        client(), end_sequence_ - messages_received_);
                }
                input_since_ = now;  // quiet, but one is still to come
                return;
            }
            send_account(now);  // none came for a while: count what came
            return;
        case phase::closing:
            complete();  // silent after its test: the test itself was complete
            return;
        case phase::load: {
            // The bound of the wait for the next whole request, whatever
            // arrives of it meanwhile: the client's schedule may leave
            // max_gap_ between two requests.
            const auto part = seqpacket_ ? message_filled_ : partial_.size();
            finish(part == 0
                       ? fmt::format("receive timed out: no request for {}", request_bound_text())
                       : fmt::format("the client sent {} bytes but no whole request in {}", part,
                                     request_bound_text()));
            return;
        }
        default:
            break;
    }
    finish(message_filled_ == 0 ? peer_went_silent()
                                : incomplete_message(message_filled_, message_.size()));
}

void session::on_closed(const peer_closed& closed) {
    switch (phase_) {
        case phase::closing:
            if (out_.empty()) {
                complete();  // the expected end
                return;
            }
            break;
        case phase::ping_pong:
            if (header_.iterations == 0 && message_filled_ == 0) {
                complete();  // the client ends a test of unknown length by closing
                return;
            }
            break;
        case phase::load:
        case phase::overtaken:
            if (!seqpacket_ && !partial_.empty()) {
                finish(fmt::format("{} after {} of {} bytes", closed.what(), partial_.size(),
                                   header_.payload_bytes));
                return;
            }
            break;
        default:
            break;
    }
    if (message_filled_ == 0) {
        finish(closed.what());
        return;
    }
    const auto what =
        fmt::format("{} after {} of {} bytes", closed.what(), message_filled_, message_.size());
    finish(phase_ == phase::header ? header_failure(what) : what);
}

void session::finish(std::string reason) {
    // A load test counts its messages as they come (ping-pong counts its
    // round trips in messages_done itself): a session that fails says how
    // far it got, not "0 messages".
    outcome_.messages_done = std::max(outcome_.messages_done, messages_received_);
    outcome_.reason = std::move(reason);
    phase_ = phase::done;
}

void session::complete() {
    outcome_.completed = true;
    phase_ = phase::done;
}

std::string session::incomplete_message(std::size_t received, std::size_t expected) const {
    const auto timeout = phase_ == phase::header ? identity_.header_timeout : identity_.io_timeout;
    return fmt::format(
        "the peer sent {} of the {} bytes of a message in {:.1f} s (a message must come whole "
        "within the I/O timeout)",
        received, expected, seconds_of(timeout));
}

void session::send_account(clock::time_point now) {
    outcome_.messages_done = messages_received_;
    const load_counts counts{messages_received_, bytes_received_,       replies_sent_,
                             bytes_sent_,        header_.payload_bytes, reply_size_};
    const auto text = account_json(counts, now - load_started_, usage_before_, read_process_usage(),
                                   *channel_, identity_);
    const bool nothing_queued = out_.empty();
    out_.push(protocol::encode_blob_length(static_cast<std::uint32_t>(text.size())), {});
    out_.push(std::as_bytes(std::span(text.data(), text.size())), {});
    note_queued(nothing_queued, now);
    partial_.clear();
    message_filled_ = 0;
    phase_ = phase::closing;
}

void log_session_end(const session& s) {
    const std::chrono::duration<double> took = session::clock::now() - s.started();
    const auto& outcome = s.outcome();
    // After the duration come the words the line had before it was timed
    // ("finished N iterations", "closed after N iterations: why"): scripts
    // look for them, some at the end of the line.
    if (outcome.completed) {
        log_info("client {} ok in {:.3f} s: finished {} {}", s.client(), took.count(),
                 outcome.messages_done, outcome.unit);
    } else {
        log_error("client {} failed in {:.3f} s: closed after {} {}: {}", s.client(), took.count(),
                  outcome.messages_done, outcome.unit, outcome.reason);
    }
    log_path_events(s.client(), s.started(), s.path_watch());
}

}  // namespace sctp_perf
