// SPDX-License-Identifier: Apache-2.0
#pragma once
// One flow of a load test: a connection (or association) that sends
// requests on its schedule, matches the replies, and finally reads the
// server's account of it.
//
// Driven by a worker's event loop: send_due() and receive() never wait (the
// socket stays blocking; each call passes MSG_DONTWAIT), so one thread can
// drive many flows. Only the primer and the final account use blocking,
// timeout-bounded calls.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "client/load/batch_planner.hpp"
#include "client/load/flow_stamps.hpp"
#include "client/load/load_plan.hpp"
#include "client/load/load_result.hpp"
#include "client/load/reply_matcher.hpp"
#include "client/load/send_schedule.hpp"
#include "client/one_way_timing.hpp"
#include "client/random_tokens.hpp"
#include "client/start_wait.hpp"
#include "options/option_defaults.hpp"
#include "report/latency_file.hpp"
#include "transport/message_channel.hpp"
#include "transport/sctp_features.hpp"
#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// With PR-SCTP, how long after its last request a flow waits for the replies
// still missing before it counts them abandoned. A TTL bounds a message's
// life: a request lives at most the client's TTL, its reply the server's, so
// twice their sum plus a second leaves room for the path and the last
// retransmissions. A retransmission limit bounds no time, so the wait is the
// I/O timeout.
std::chrono::nanoseconds abandon_wait(const load_plan& plan);

// The stream a flow's request `sequence` went on, of `streams`, after
// `primer` primer requests: the primer's and the end of test's on stream 0
// (plain sends), measured message k (sequence primer + k) on stream
// k % streams.
std::uint16_t request_stream(std::uint64_t sequence, std::uint16_t streams, bool end_of_test,
                             std::uint32_t primer) noexcept;

// Replies and latency per SCTP stream, for the streams a run uses.
struct stream_samples {
    std::vector<std::uint64_t> replies;  // per stream
    // For the first stream_samples_with_latency streams, allocated on first use.
    std::vector<std::unique_ptr<log_linear_histogram>> latency;
    void record(std::uint16_t stream, std::uint64_t ns);
};

// Where a worker's samples and counts go; one per worker thread. Only here
// (and for the whole run) are latencies kept at full resolution.
struct sample_sink {
    log_linear_histogram corrected_run;
    log_linear_histogram uncorrected_run;
    log_linear_histogram corrected_interval;
    log_linear_histogram uncorrected_interval;
    std::uint64_t interval_sent = 0;
    std::uint64_t warmup_sent = 0;  // sent in the warm-up, in no interval
    std::uint64_t interval_replies = 0;
    latency_file::writer* file = nullptr;
    std::chrono::steady_clock::time_point t0;
    // Schedule slip (send time - due time) of every paced message: its p99,
    // not only its maximum, since one preemption alone makes a maximum of
    // several milliseconds.
    compact_histogram slip;
    // Time spent in passes over the flows that sent or read something, as
    // opposed to sleeping, or spinning towards a due time: the worker's CPU
    // time would count that spin (up to a whole CPU at 20,000 messages per
    // second) and so could not tell a saturated worker from a punctual one.
    std::chrono::nanoseconds busy{0};
    std::chrono::steady_clock::time_point finished_at{};  // the last of its flows' end
    stream_samples per_stream;                            // empty with one stream
    // Fan-out: the headline latency of each server's flows (load_plan::servers).
    std::vector<std::unique_ptr<log_linear_histogram>> per_server;
    std::unique_ptr<one_way_split> one_way;   // with --one-way
    std::unique_ptr<round_trip_split> split;  // with --timestamps
    reply_timeline* timeline = nullptr;       // every timed reply, for load_plan::watch; or none
};

// The bytes one read of a byte stream may bring: a worker's receive buffer,
// shared by its flows, so that a flow keeps only a partial reply between
// reads.
inline constexpr std::size_t worker_receive_bytes = 64 * 1024;

// Where a flow is in its test. It only moves forward, and any phase before
// `ending` may be its last before it: a flow whose replies cannot overtake
// each other never drains, and one never stopped runs out of messages or
// time by itself.
enum class flow_phase {
    sending,   // measured messages, on their schedule
    stopping,  // stop_sending(): no more measured messages, only the end of test
    // Every measured message is out; the end of test waits for the replies
    // it could overtake (load_plan::replies_may_reorder).
    draining,
    ending,    // the end-of-test message is out or on its way
    finished,  // its reply has come; the server's account follows
};

class load_flow {
  public:
    using clock = std::chrono::steady_clock;

    load_flow(unsigned index, std::unique_ptr<message_channel> channel, const load_plan& plan);

    // The unrecorded primer: round trips one at a time, each a request that
    // asks for a reply. Blocking, bounded by the I/O timeout. Round trip
    // `round` (from 0) is send_primer(round), then check_primer(round), so
    // that many flows can take their round trips in step.
    void send_primer(std::uint32_t round);
    void check_primer(std::uint32_t round);

    // Starts the messages on `schedule`: those due (unpaced: sent) before
    // `measure_from` are the warm-up's, unrecorded; with a duration, none is
    // due at or after `stop_at`.
    void begin(send_schedule schedule, clock::time_point measure_from, clock::time_point stop_at);

    // --timestamps: turns the kernel's stamps on for the flow's socket
    // (client/load/flow_stamps.hpp). After the primer, before begin(): the
    // transmit stamps count the stream's bytes from here, with nothing in
    // flight. Throws std::system_error when the kernel refuses.
    void start_stamps();

    // Sends every message due by `now`, up to plan.batch per system call
    // (in throughput mode, a pass of calls; in framed ping-pong, one once
    // the previous reply is in).
    // Returns true when the socket is full and messages are still due.
    bool send_due(clock::time_point now, sample_sink& sink);
    // Reads and matches every reply that has arrived, reading into
    // `buffer` (the worker's, of worker_receive_bytes; see there).
    void receive(sample_sink& sink, std::span<std::byte> buffer);

    // Sends no more measured messages: the next step is the end of test.
    void stop_sending() noexcept {
        if (phase_ == flow_phase::sending) {
            phase_ = flow_phase::stopping;
        }
    }

    // When the next message is due; time_point::max() once all are sent.
    clock::time_point next_due() const noexcept;
    bool finished() const noexcept { return phase_ == flow_phase::finished; }
    // Whether the flow waits for the server: a request is unanswered, the
    // socket is full, or the end-of-test reply has not come.
    // While a partially reliable flow waits for its last replies it waits on
    // its own deadline instead: a reply it waits for may have been abandoned.
    bool waiting_on_peer() const noexcept {
        if (out_of_service_ || (phase_ == flow_phase::draining && plan_.partially_reliable())) {
            return false;
        }
        return !finished() && (matcher_.outstanding() > 0 || out_pending() || end_started());
    }
    // Since when the flow has waited on the peer, for the I/O timeout: the
    // last whole reply, the send that began a wait, or the moment the peer
    // last made room for a blocked send.
    clock::time_point peer_owes_since() const noexcept { return owed_since_; }
    int native_handle() const noexcept { return channel_->native_handle(); }
    unsigned index() const noexcept { return index_; }
    // "flow 3", and with several servers "flow 3 (server 2 of 2,
    // 127.0.0.1:45454)": how a failure names the flow.
    std::string name() const;

    // --reconnect (load_flow_outages.cpp). The connection ended at `now`,
    // `cause` saying how (the worker has taken its socket out of its epoll
    // set): the replies still owed are lost with it, the messages of a batch
    // the kernel had not taken are not sent, and the flow is out of service
    // until resume().
    void lose_connection(clock::time_point now, const std::string& cause, sample_sink& sink);
    // One more attempt to connect again has begun.
    void note_reconnect_attempt() noexcept;
    // A new connection, whose test the server has accepted, at `now`: the
    // measured messages that fell due meanwhile are counted as not sent, and
    // the schedule carries on with the next one due from `now`. The
    // message sequence starts again at 0, as every connection's does.
    void resume(std::unique_ptr<message_channel> channel, clock::time_point now);
    // The run ended at `now` while the flow was out of service: it finishes
    // with no end of test, its outage with no end, and the measured messages
    // due until then counted as not sent.
    void end_out_of_service(clock::time_point now) noexcept;
    bool out_of_service() const noexcept { return out_of_service_; }
    // With a duration: when the flow's sending ends. Out of service past it,
    // a flow stops trying.
    clock::time_point stop_at() const noexcept { return stop_at_; }

    // After finished(): reads the server's account (blocking), counts the
    // requests never answered as lost, and closes the connection.
    flow_result finish();
    // After finish(): seconds from the first send to the last.
    double sending_s() const noexcept { return sending_s_; }

  private:
    // One message of the batch being sent (see batch_planner.hpp).
    struct batched_message {
        clock::time_point due;               // its own, however late in the batch it goes
        std::optional<timed_request> timed;  // set when it asks for a reply
        sctp_delivery delivery;              // how it travels
    };

    // Slot `slot` of out_: the bytes of the batch's message `slot`.
    std::span<std::byte> message_bytes(std::size_t slot) noexcept;
    // Starts the next batch: the measured messages due by `now` (see
    // plan_batch), or, once every measured message is sent, the end of test
    // alone. False when nothing may go yet.
    bool start_batch(clock::time_point now);
    // Appends a message due at `due` to the batch.
    void add_message(clock::time_point due, bool end_of_test);
    // Whether the end-of-test message may go: no reply it could overtake is
    // still due (see load_plan::replies_may_reorder).
    bool drained(clock::time_point now);
    // One system call with what is left of the batch; adds to `completed`
    // the messages it completed. False when the socket is full and some of
    // the batch is left.
    bool flush_pending(clock::time_point now, sample_sink& sink, std::size_t& completed);
    // One send of what is left of the batch: send_ready for one message,
    // send_batch_ready for more. Returns the bytes the kernel took.
    std::size_t send_once_more();
    // Whether a message of the batch still to go asks for a reply.
    bool timed_pending() const noexcept;
    // Counts and times a message the kernel has taken whole at `sent_at`,
    // its last byte the stream's `end`-th (counted with --timestamps only).
    void complete_message(const batched_message& message, clock::time_point sent_at,
                          std::uint64_t end, sample_sink& sink);
    // --timestamps: takes the transmit stamps waiting on the error queue,
    // all of them, or only until no request sent awaits its own
    // (flow_stamps::stamp_awaited). The latter after a send call, so that
    // the stamp does not wake the worker alone (EPOLLERR, which epoll
    // reports as long as the queue holds anything): on loopback the kernel
    // stamps inside the send, so one read takes it.
    enum class stamps_to_take { all, awaited };
    void take_transmit_stamps(stamps_to_take which);
    // --one-way: the server's stamps a reply carries; nullopt without.
    std::optional<protocol::server_stamps> server_stamps_of(
        std::span<const std::byte> reply) const noexcept;
    bool out_pending() const noexcept { return batch_done_ < batch_.size(); }
    bool end_started() const noexcept {
        return phase_ == flow_phase::ending || phase_ == flow_phase::finished;
    }
    // `came_on`: the stream the reply came on, where the flow checks it.
    void take_reply(std::span<const std::byte> reply, clock::time_point now, sample_sink& sink,
                    std::optional<std::uint16_t> came_on);
    // With several SCTP streams the server must answer each request on the
    // stream it came on: a reply elsewhere is the server's error.
    bool checks_streams() const noexcept { return plan_.streams > 1; }
    // The round trip of a reply that matched `request`, into every sample it belongs to.
    void record_reply(const timed_request& request, std::span<const std::byte> reply,
                      clock::time_point arrived, sample_sink& sink);
    // Throws reply_on_wrong_stream naming both streams unless `came_on` is the stream
    // request `sequence` went on.
    void check_reply_stream(std::uint16_t came_on, std::uint64_t sequence) const;
    // Counts as not sent, and passes by, the measured messages due before
    // `now` that a flow out of service could not send.
    void pass_by_due_before(clock::time_point now) noexcept;
    // Reads the server's account of the connection (finish()) and closes it.
    void read_server_account();
    // Whether the bytes after a reply's message header are the filler.
    bool padding_ok(std::span<const std::byte> reply) const noexcept;

    unsigned index_;
    std::unique_ptr<message_channel> channel_;
    const load_plan& plan_;
    bool closed_loop_;  // framed ping-pong: one request in flight
    random_tokens tokens_;
    reply_matcher matcher_;
    std::optional<send_schedule> schedule_;
    clock::time_point measure_from_{};
    clock::time_point stop_at_ = clock::time_point::max();

    protocol::message_header primer_sent_;  // the primer request awaiting its reply
    clock::time_point primer_sent_at_{};
    std::optional<one_way_timing> one_way_;  // --one-way
    // Bytes of the server's stamps after a reply's message header (--one-way).
    std::size_t server_stamp_bytes_ = 0;
    std::optional<flow_stamps> stamps_;  // --timestamps, from start_stamps()
    // Of the read whose replies are being taken: its receive stamp when it
    // is the one reply's own, else 0, and whether it brought more than one.
    std::int64_t read_arrival_ns_ = 0;
    bool read_shared_ = false;
    std::size_t batch_limit_;  // plan.batch; 1 in framed ping-pong
    // The batch's messages, payload_bytes each, one after another, each slot
    // filled with the payload once and given its header when used.
    std::vector<std::byte> out_;
    std::vector<std::byte> filler_;        // a reply's expected bytes (after its header)
    std::vector<batched_message> batch_;   // the messages of out_ being sent
    std::size_t batch_done_ = 0;           // of batch_, those the kernel has taken whole
    std::size_t out_sent_ = 0;             // bytes of message batch_done_ it has taken
    std::vector<clock::time_point> dues_;  // plan_batch's, kept to reuse their memory
    std::vector<outgoing_message> outgoing_;
    std::optional<tick_grid> ticks_;  // --tick-rate, from begin()

    bool bulk_;  // a byte stream, read many replies at a time
    // A reply read in part, kept until its rest comes (a byte stream only);
    // plan.reply_bytes long.
    std::vector<std::byte> partial_;
    std::size_t partial_bytes_ = 0;
    std::vector<std::byte> blob_prefix_;  // what came after the end reply: the blob's start

    std::uint64_t next_sequence_ = 0;
    std::uint64_t measured_sent_ = 0;
    flow_phase phase_ = flow_phase::sending;
    clock::time_point drain_until_ = clock::time_point::max();  // from draining on
    std::uint64_t end_sequence_ = 0;
    std::uint32_t end_token_ = 0;
    clock::time_point first_send_{};
    clock::time_point last_send_{};
    clock::time_point last_sent_at_{};  // when the last whole message went out
    clock::time_point owed_since_{};    // see peer_owes_since()
    bool out_blocked_ = false;          // out_ met a full socket

    flow_result result_;
    double sending_s_ = 0.0;

    // --reconnect: whether the flow is without a connection, since when, and
    // what the server of its connection counts that the flow does not
    // record (the primer, only on the first; the warm-up sent on it).
    bool out_of_service_ = false;
    clock::time_point outage_began_{};
    std::uint64_t primer_on_connection_ = 0;
    std::uint64_t warmup_on_connection_ = 0;
    std::uint64_t measured_on_connection_ = 0;
};

}  // namespace sctp_perf
