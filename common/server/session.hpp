// SPDX-License-Identifier: Apache-2.0
#pragma once
// The server's half of one test, as a state machine an event loop drives:
// read and check the header, answer with a verdict and the server's
// settings, then serve the test in the mode the header names.
//
//  - ping-pong: answer each of `iterations` requests with its reply, 2
//    bytes or the header's reply_bytes (or, with iterations 0, every request
//    until the client closes);
//  - rate, throughput and framed ping-pong: read requests as they come,
//    reply to those that ask for it, and after the one marked end-of-test
//    send the server's own account of the test (counts, CPU, RSS) as a blob.
//
// With server timestamps (the header's flag), every reply carries when the
// read that completed its request returned and when the reply was handed
// to send() (protocol/wire_protocol.hpp): the server's turnaround.
//
// The server is a mirror: the client decides the rate and which requests
// get replies, so one server serves every mode.
//
// A session never waits. Its event loop (server/event_worker.hpp) calls
// advance() when the socket is readable or writable or the deadline() has
// come; the session does what it can without blocking and says what it
// waits for next. So a few threads serve thousands of sessions, as the
// servers this tool stands in for do (an MME's or a SIP proxy's event
// loops), instead of a thread each.
//
// The bounds, per session, each ending the session with its own sentence:
//  - the whole test header within --header-timeout of the connection;
//  - every later message whole within --io-timeout of when the wait for it
//    began (the end of the message before it, or the moment this server
//    had sent all it had to send);
//  - in a load mode, the next whole request within --io-timeout of the
//    last one, whatever arrives in pieces meanwhile, plus the longest gap
//    the client's schedule leaves between two requests (max_gap_ms of the
//    test header): a flow of one message every 5 s is not cut off between
//    two messages by an I/O timeout of 1 s;
//  - a reply the client does not take for --io-timeout;
//  - no more than a bounded backlog of replies: a session stops reading
//    while the client does not read its replies, as a blocking server
//    would, so memory stays bounded by the test's message size.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/wire_protocol.hpp"
#include "runtime/clock_relation.hpp"
#include "runtime/process_usage.hpp"
#include "server/reply_queue.hpp"
#include "server/server_settings.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/message_channel.hpp"

namespace sctp_perf {

// How a session ended, for the log.
struct session_outcome {
    bool completed = false;
    std::uint64_t messages_done = 0;       // requests answered or read
    std::string_view unit = "iterations";  // what messages_done counts: round trips, or
                                           // "messages" in rate and throughput mode
    std::string reason;                    // why it ended early
};

class session {
  public:
    using clock = std::chrono::steady_clock;

    // A scratch buffer of at least this many bytes is lent to advance():
    // a byte stream in a load mode is read in bulk into it, so that a
    // throughput test takes few system calls, while a session keeps only
    // the part of a request that a read cut short.
    static constexpr std::size_t scratch_bytes = 256 * 1024;

    session(std::unique_ptr<message_channel> channel, std::string client,
            const server_identity& identity, clock::time_point now);

    // What an event loop whose only session this is checks before each
    // wait it lends its thread to: the loop wants the thread back once a
    // session has been handed to it or it is asked to stop.
    struct thread_recall {
        const std::atomic<std::size_t>& sessions_handed_in;
        const std::atomic<bool>& stopping;
        bool due() const noexcept { return sessions_handed_in != 0 || stopping; }
    };

    // Does every step that needs no waiting. Never throws for anything the
    // peer does: that ends the session, with its reason in outcome().
    // With a `recall`, for an event loop whose only session this is, its
    // first read waits (see message_channel::receive_part); in plain
    // ping-pong it then serves request after request, each read waiting,
    // while every reply goes out whole and the recall is not due, as a
    // blocking server does: the loop's own turn between two requests would
    // lie inside the round trip the client measures.
    // Returns the time it last read: `now`, or later after a read that waited.
    clock::time_point advance(clock::time_point now, std::span<std::byte> scratch,
                              const thread_recall* recall = nullptr);

    // Makes this session answer a well-formed header with "server busy"
    // (status 5) and end: for a server whose own reader must take every
    // association's messages (one-to-many), so that a client beyond
    // --max-clients still hears why. Before the first advance().
    void refuse_as_busy() noexcept { refuse_as_busy_ = true; }

    bool done() const noexcept { return phase_ == phase::done; }
    // Plain ping-pong: a waiting advance() serves request after request in
    // one wait, for as long as the recall allows.
    bool serves_request_after_request() const noexcept { return phase_ == phase::ping_pong; }
    bool wants_to_read() const noexcept;
    bool wants_to_write() const noexcept { return !out_.empty(); }
    // When advance() must run even if the socket stays quiet.
    clock::time_point deadline() const noexcept;

    int native_handle() const noexcept { return channel_->native_handle(); }
    const std::string& client() const noexcept { return client_; }
    clock::time_point started() const noexcept { return started_; }
    const session_outcome& outcome() const noexcept { return outcome_; }
    // Over SCTP, what the session's reads saw of its paths; null over TCP.
    const sctp_path_watch* path_watch() const noexcept { return channel_->path_watch().get(); }

  private:
    enum class phase {
        header,     // reading the test header
        refusing,   // sending a refusing verdict, then done
        ping_pong,  // plain ping-pong
        load,       // a load mode or framed ping-pong
        overtaken,  // SCTP: counting requests the end of test overtook
        closing,    // the test is over: waiting for the client to close
        done,
    };

    // Returns true when `now` was last read cheaply (see step's after_read):
    // then no earlier than the time, and up to a few milliseconds later.
    bool step(clock::time_point& now, std::span<std::byte> scratch);
    // One read of the channel; the first of an advance(..., wait = true)
    // waits.
    message_channel::received_part receive(std::span<std::byte> buffer, bool with_delivery);
    bool flush(clock::time_point now);
    void on_deadline(clock::time_point now);
    void on_closed(const peer_closed& closed);
    void finish(std::string reason);
    void complete();

    // Fills message_ from message_filled_; true once it holds exactly
    // message_.size() bytes, or on SOCK_SEQPACKET a whole message of
    // `also_whole` bytes (0: none). Checks SOCK_SEQPACKET's message
    // boundaries.
    bool read_message(std::size_t also_whole = 0);
    // The test header: true once message_ holds all that is to be read of
    // it (the start alone when that is refused already).
    bool read_header();
    protocol::decoded_header decode_header_start() const noexcept;
    // The header that read_header left in message_ (`filled` bytes of it).
    protocol::decoded_header decode_whole_header(std::size_t filled) const;
    // Answers the header: the verdict, then the settings blob and the test.
    void take_header(clock::time_point now);
    // True, with the reason in the outcome, when the verdict refuses the test.
    bool refused(const protocol::decoded_header& decoded, bool busy);
    void send_settings();
    // Sets the session up for the test in header_: its reply, its phase.
    void begin_test(clock::time_point now);
    void take_ping_pong_request(clock::time_point now);
    // A ping-pong reply that carries the server's stamps or is held first
    // (the test hook below): off the plain replies' path.
    void send_stamped_or_held_reply(const sctp_delivery& delivery, clock::time_point now);
    // The test hooks --test-reply-delay and --test-wake-delay: polls the
    // clock for `hold`, so that the wait lies exactly where the hook puts
    // it (between the server's two stamps, or before its arrival stamp)
    // and no wake-up of the thread's adds to it.
    static void hold_for(clock::duration hold) noexcept;
    // A reply without server timestamps: sent at once when nothing is
    // queued before it, queued for what the socket did not take.
    void send_reply(const sctp_delivery& delivery, clock::time_point now);
    // Lent the event loop's thread in plain ping-pong: true, with the next
    // read set to wait, while the reply is out and the loop does not want
    // its thread back.
    bool wait_again();
    // The load modes: one read, its whole requests taken. False when
    // nothing had arrived.
    bool read_requests(clock::time_point now, std::span<std::byte> scratch);
    // Takes each whole request of `bytes`; returns how many bytes they made.
    std::size_t take_requests(std::span<const std::byte> bytes, clock::time_point now);
    // One request: counted, and its reply (when it wants one) added to
    // replies_. True when it ends the test; sets `reliable` when its reply
    // must not be given up under PR-SCTP.
    bool take_request(std::span<const std::byte> request, bool& reliable);
    void push_replies(bool reliable, clock::time_point now);
    // After a push: starts the send timeout's clock when the queue was
    // empty before it (`nothing_queued_before`), and only then.
    void note_queued(bool nothing_queued_before, clock::time_point now) noexcept;
    // With server timestamps: the clock, read once a read has completed a
    // request, as the arrival of the requests it completed.
    void note_arrival() noexcept;
    // With the server's receive stamps: the kernel's stamp of the read that
    // completed the request, moved onto the steady clock.
    void note_kernel_arrival() noexcept;
    // Whether a byte stream's read of `read` bytes, of `room` after the
    // `filled - read` a read before left, holds exactly one request and
    // nothing after it, so that its receive stamp is that request's own.
    bool one_request_read(std::size_t filled, std::size_t read, std::size_t room) const noexcept;
    // A kernel stamp (CLOCK_REALTIME) moved onto the steady clock, where it
    // must lie from `not_before` to `not_after`; outside, the offset is read
    // again first, and 0 (no stamp) when it still is.
    std::uint64_t on_steady_clock(std::int64_t stamp, std::uint64_t not_before,
                                  std::uint64_t not_after) noexcept;
    // With the server's transmit stamps: when the kernel handed the previous
    // reply to the device, on the steady clock; 0 when its stamp has not
    // come, and at the first request, which turns the stamps on.
    std::uint64_t previous_kernel_departure();
    // Takes the transmit stamps waiting on the error queue: all of them, or
    // `until_awaited` the last reply's has come. While any wait there,
    // epoll reports the socket (EPOLLERR), so every advance() takes them
    // all first.
    void take_departure_stamps(bool until_awaited);
    // A load mode over TCP with the server's transmit stamps: turns them
    // on, at the first request read (reply_queue::start_transmit_stamps).
    void start_load_departure_stamps();
    // After a read's requests: the account, once the end and every request
    // before it have come.
    void settle_end(bool ended, clock::time_point now);
    // In phase overtaken, quiet for a while: true when a request sent before
    // the end is still on its way (the kernel holds later chunks and awaits
    // an earlier one), and --io-timeout has not passed since the end came.
    bool awaits_retransmission(clock::time_point now) const noexcept;
    void send_account(clock::time_point now);

    std::string incomplete_message(std::size_t received, std::size_t expected) const;
    // In a load mode, how long the session waits for the next whole request:
    // the client's longest scheduled gap + --io-timeout; and that bound as
    // its log sentences state it.
    std::chrono::milliseconds request_bound() const noexcept;
    std::string request_bound_text() const;
    // "no whole test header within S s (--header-timeout): WHAT".
    std::string header_failure(std::string_view what) const;

    std::unique_ptr<message_channel> channel_;
    std::string client_;
    const server_identity& identity_;
    bool sctp_;       // replies follow their request's stream and ordering
    bool seqpacket_;  // one SCTP message per request (else a byte stream)
    bool refuse_as_busy_ = false;
    phase phase_ = phase::header;
    session_outcome outcome_;
    clock::time_point started_;
    clock::time_point header_deadline_;

    protocol::test_header header_;
    std::chrono::milliseconds max_gap_{0};  // the header's max_gap_ms
    std::vector<std::byte> message_;        // the message being read (header, request)
    std::size_t message_filled_ = 0;
    std::vector<std::byte> partial_;  // load, byte stream: a request a read cut short
    sctp_delivery route_;             // how the last request travelled
    bool wait_once_ = false;          // the next read waits
    bool waited_ = false;             // a read waited since the time was last read
    clock::time_point input_since_;   // the wait for the next message began here

    const thread_recall* recall_ = nullptr;  // within a waiting advance() only

    reply_queue out_;
    clock::time_point output_since_;  // the last progress of the queue's front
    // A send timeout found the shared send buffer full of other
    // associations' data (said once in the log).
    bool waited_on_others_ = false;
    std::vector<std::byte> replies_;  // one read's load replies, reused
    // Every reply of this test is reply_size_ bytes (the header's reply
    // size): reply_ holds one, filled once with the defined filler; each
    // reply writes only its check bytes or message header over a copy.
    std::uint32_t reply_size_ = protocol::reply_size;
    std::vector<std::byte> reply_;
    std::size_t stamps_at_ = 0;  // server timestamps: their offset in a reply
    // Ping-pong replies without server timestamps or a hold: one test of
    // this flag per reply keeps both off the plain replies' path.
    bool plain_replies_ = true;
    std::uint64_t arrival_ns_ = 0;           // the last read's arrival stamp (note_arrival)
    std::uint64_t previous_arrival_ns_ = 0;  // the read's before it
    // With the server's receive stamps: the kernel's arrival stamp of that
    // read, on the steady clock (0 when it carried none), and CLOCK_REALTIME
    // minus the steady clock that moves it there.
    std::uint64_t kernel_arrival_ns_ = 0;
    realtime_offset realtime_offset_;
    // With the server's transmit stamps: whether they are on yet, and which
    // of the kernel's stamps is the last reply's (by the stream's byte count).
    bool departures_stamped_ = false;
    transmit_stamp_match departures_;

    // The load account (sent back at the end; see protocol/wire_protocol.hpp).
    std::uint64_t messages_received_ = 0;  // the end-of-test message not counted
    std::uint64_t bytes_received_ = 0;
    std::uint64_t replies_sent_ = 0;       // the end-of-test reply not counted
    std::uint64_t bytes_sent_ = 0;         // of those replies
    std::uint64_t end_sequence_ = 0;       // also the count of the requests before it
    clock::time_point overtaken_at_;       // the end came before all requests had
    bool awaited_retransmission_ = false;  // and the kernel then awaited one (logged once)
    clock::time_point load_started_;
    process_usage usage_before_;
};

// Writes the one log line that ends every session: the client, how long it
// took, how many iterations or messages, and why it ended early.
void log_session_end(const session& s);

}  // namespace sctp_perf
