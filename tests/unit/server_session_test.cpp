// SPDX-License-Identifier: Apache-2.0
// The server's session state machine over a TCP connection on loopback,
// driven as its event loop drives it: advance() at chosen times, so every
// bound is checked without waiting for it. The other end plays the client
// with plain send()/recv().

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "loopback_connection.hpp"
#include "protocol/wire_protocol.hpp"
#include "server/session.hpp"
#include "transport/kernel_timestamps.hpp"
#include "transport/message_channel.hpp"
#include "transport/socket_setup.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;

namespace {

server_identity session_tcp_identity() {
    server_identity identity;
    identity.program = "SOCK_STREAM_srv";
    identity.transport = transport_protocol::tcp;
    identity.header_timeout = 2000ms;
    identity.io_timeout = 5000ms;
    identity.threads = 1;
    identity.data_path = "one-to-one";
    return identity;
}

// A session on one end of a socketpair; `client` is the other end.
struct session_on_pair {
    server_identity identity = session_tcp_identity();
    unique_fd client;
    session::clock::time_point t0 = session::clock::now();
    std::unique_ptr<session> s;
    std::vector<std::byte> scratch = std::vector<std::byte>(session::scratch_bytes);

    // A real TCP connection on loopback: the account reads TCP_INFO.
    explicit session_on_pair(const server_identity& with = session_tcp_identity())
        : identity(with) {
        auto c = testing::connect_on_loopback();
        client = std::move(c.client);
        const int one = 1;
        ::setsockopt(client.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        s = std::make_unique<session>(std::make_unique<stream_channel>(std::move(c.server)),
                                      "test:1", identity, t0);
    }

    void send(std::span<const std::byte> bytes) const {
        REQUIRE(::send(client.get(), bytes.data(), bytes.size(), 0) ==
                static_cast<ssize_t>(bytes.size()));
    }
    // Everything the session has sent so far (loopback delivers a send at
    // once, within the sender's call).
    std::vector<std::byte> received() const {
        std::vector<std::byte> all;
        std::array<std::byte, 4096> chunk{};
        for (;;) {
            const auto n = ::recv(client.get(), chunk.data(), chunk.size(), MSG_DONTWAIT);
            if (n <= 0) {
                return all;
            }
            all.insert(all.end(), chunk.begin(), chunk.begin() + n);
        }
    }
    void advance(std::chrono::milliseconds after) { s->advance(t0 + after, scratch); }
};

void send_header(const session_on_pair& p, protocol::test_mode mode, std::uint32_t payload,
                 std::uint32_t iterations, std::uint32_t max_gap_ms = 0,
                 std::uint32_t reply_bytes = 0, bool server_timestamps = false,
                 bool server_receive_stamps = false) {
    protocol::test_header header;
    header.server_timestamps = server_timestamps;
    header.server_receive_stamps = server_receive_stamps;
    header.mode = mode;
    header.payload_bytes = payload;
    header.iterations = iterations;
    header.max_gap_ms = max_gap_ms;
    header.reply_bytes = reply_bytes;
    p.send(protocol::encode_header(header));
}

// Load-mode requests of 16 bytes, each its message header alone, back to back.
std::vector<std::byte> requests_of(const std::vector<protocol::message_header>& headers) {
    std::vector<std::byte> requests(headers.size() * protocol::message_header_size);
    for (std::size_t r = 0; r < headers.size(); ++r) {
        protocol::encode_message_header(
            headers[r], std::span(requests).subspan(r * protocol::message_header_size,
                                                    protocol::message_header_size));
    }
    return requests;
}

// The verdict and the settings blob that follow an accepted header.
void expect_accepted(const session_on_pair& p) {
    const auto bytes = p.received();
    REQUIRE(bytes.size() > protocol::verdict_size + protocol::blob_length_size);
    protocol::verdict_bytes verdict{};
    std::copy_n(bytes.begin(), verdict.size(), verdict.begin());
    const auto decoded = protocol::decode_verdict(verdict);
    CHECK(decoded.well_formed);
    CHECK(decoded.raw_status == 0);
}

// A throughput session accepted on `p`, and a batch of 1024 requests of 16
// bytes for it, each asking for a reply.
std::vector<std::byte> accept_throughput_wanting_replies(session_on_pair& p) {
    send_header(p, protocol::test_mode::throughput, 16, 0);
    p.advance(1ms);
    expect_accepted(p);
    std::vector<protocol::message_header> headers;
    for (std::uint64_t r = 0; r < 1024; ++r) {
        headers.push_back({100 + r, 1, protocol::flag_reply_wanted});
    }
    return requests_of(headers);
}

}  // namespace

TEST_CASE("session: ping-pong of 3 round trips, then the client's close", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::ping_pong, 4, 3);
    p.advance(1ms);
    expect_accepted(p);
    for (int i = 0; i < 3; ++i) {
        // Check bytes at both ends of the request come back in the reply.
        const std::array<std::byte, 4> request{std::byte{0x10}, std::byte{1}, std::byte{2},
                                               std::byte(0x20 + i)};
        p.send(request);
        p.advance(std::chrono::milliseconds(2 + i));
        const auto reply = p.received();
        REQUIRE(reply.size() == protocol::reply_size);
        CHECK(reply[0] == std::byte{0x10});
        CHECK(reply[1] == std::byte(0x20 + i));
    }
    CHECK_FALSE(p.s->done());
    p.client.reset();  // the client closes: the expected end
    p.advance(10ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().completed);
    CHECK(p.s->outcome().messages_done == 3);
}

TEST_CASE("session: lent its loop's thread, ping-pong goes on until the loop recalls it",
          "[server]") {
    session_on_pair p;
    // A wait that went wrong fails the test at the I/O timeout, not hangs it.
    set_io_timeout(p.s->native_handle(), p.identity.io_timeout);
    set_io_timeout(p.client.get(), p.identity.io_timeout);
    send_header(p, protocol::test_mode::ping_pong, 4, 0);
    p.advance(1ms);
    expect_accepted(p);
    std::atomic<std::size_t> handed_in{0};
    std::atomic<bool> stopping{false};
    const session::thread_recall recall{handed_in, stopping};
    // The client: 5 round trips; the recall comes due after the 4th reply.
    std::atomic<int> replies{0};
    std::thread client([&] {
        for (int i = 0; i < 5; ++i) {
            const std::array<std::byte, 4> request{std::byte{0x10}, std::byte{1}, std::byte{2},
                                                   std::byte(0x20 + i)};
            p.send(request);
            std::array<std::byte, protocol::reply_size> reply{};
            if (::recv(p.client.get(), reply.data(), reply.size(), MSG_WAITALL) !=
                    static_cast<ssize_t>(reply.size()) ||
                reply[1] != std::byte(0x20 + i)) {
                return;
            }
            if (++replies == 4) {
                handed_in = 1;  // as a session handed to the worker would
            }
        }
    });
    p.s->advance(p.t0 + 2ms, p.scratch, &recall);
    // The session sees the recall after the 4th reply or, if the client set
    // it only after that look, after the 5th; one advance() per request
    // would have served one.
    const auto lent = p.s->outcome().messages_done;
    CHECK(lent >= 4);
    if (lent < 5) {
        p.s->advance(p.t0 + 3ms, p.scratch, &recall);  // its first read still waits
    }
    client.join();
    CHECK(replies == 5);
    CHECK(p.s->outcome().messages_done == 5);
    CHECK_FALSE(p.s->done());
    CHECK_FALSE(p.s->wants_to_write());  // every reply went out whole
}

TEST_CASE("session: a silent connection ends at the header timeout", "[server]") {
    session_on_pair p;
    p.advance(1ms);
    CHECK_FALSE(p.s->done());
    CHECK(p.s->deadline() == p.t0 + 2000ms);
    p.advance(2000ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason ==
          "no whole test header within 2.0 s (--header-timeout): receive timed out: the peer "
          "went silent");
}

TEST_CASE("session: part of a header ends at the header timeout, saying how much came",
          "[server]") {
    session_on_pair p;
    p.send(std::vector<std::byte>(5, std::byte{0}));
    p.advance(1ms);
    CHECK_FALSE(p.s->done());
    p.advance(2001ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason ==
          "no whole test header within 2.0 s (--header-timeout): the peer sent 5 of the 16 "
          "bytes of a message in 2.0 s (a message must come whole within the I/O timeout)");
}

TEST_CASE("session: a refused header gets its verdict, then the session ends", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::ping_pong, 0, 3);  // payload 0: refused
    p.advance(1ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason == "refused: payload size outside 1..65536 bytes");
    const auto bytes = p.received();
    REQUIRE(bytes.size() == protocol::verdict_size);
}

TEST_CASE("session: the I/O timeout bounds the wait for the next request", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::ping_pong, 4, 10);
    p.advance(1ms);
    expect_accepted(p);
    // Waiting since the settings went out at 1 ms: ends 5 s later, not before.
    p.advance(5000ms);
    CHECK_FALSE(p.s->done());
    p.advance(5001ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason == "receive timed out: the peer went silent");
}

TEST_CASE("session: ping-pong replies of the size the header asks for", "[server]") {
    session_on_pair p;
    // 5-byte requests, 7-byte replies: check bytes at the ends, filler k mod 256 between.
    send_header(p, protocol::test_mode::ping_pong, 5, 2, 0, 7);
    p.advance(1ms);
    expect_accepted(p);
    const std::array<std::byte, 5> request{std::byte{0xa1}, std::byte{1}, std::byte{2},
                                           std::byte{3}, std::byte{0x7f}};
    p.send(request);
    p.advance(2ms);
    CHECK(p.received() == std::vector{std::byte{0xa1}, std::byte{1}, std::byte{2}, std::byte{3},
                                      std::byte{4}, std::byte{5}, std::byte{0x7f}});
    // An echo: a reply of the request's size is the request.
    session_on_pair echo;
    send_header(echo, protocol::test_mode::ping_pong, 5, 1, 0, 5);
    echo.advance(1ms);
    expect_accepted(echo);
    echo.send(request);
    echo.advance(2ms);
    CHECK(echo.received() == std::vector(request.begin(), request.end()));
}

std::uint64_t monotonic_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

TEST_CASE("session: with server timestamps each ping-pong reply carries arrival and departure",
          "[server]") {
    session_on_pair p;
    // 4-byte requests; reply_bytes 0 is then 1 + 16 + 1 = 18 bytes.
    send_header(p, protocol::test_mode::ping_pong, 4, 2, 0, 0, true);
    p.advance(1ms);
    expect_accepted(p);
    const std::array<std::byte, 4> request{std::byte{0x10}, std::byte{1}, std::byte{2},
                                           std::byte{0x20}};
    const auto before = monotonic_ns();
    p.send(request);
    p.advance(2ms);
    const auto after = monotonic_ns();
    const auto reply = p.received();
    REQUIRE(reply.size() == 18);
    CHECK(reply[0] == std::byte{0x10});
    CHECK(reply[17] == std::byte{0x20});
    // Both stamps are this host's CLOCK_MONOTONIC, read while the session
    // ran: between the two reads around it, arrival first.
    const auto stamps = protocol::decode_server_stamps(protocol::test_mode::ping_pong, reply);
    CHECK(before <= stamps.arrival_ns);
    CHECK(stamps.arrival_ns <= stamps.departure_ns);
    CHECK(stamps.departure_ns <= after);
}

TEST_CASE("session: with the server's receive stamps each reply carries its kernel's arrival",
          "[server]") {
    session_on_pair p;
    // 4-byte requests; reply_bytes 0 is then 1 + 24 + 1 = 26 bytes.
    send_header(p, protocol::test_mode::ping_pong, 4, 2, 0, 0, true, true);
    p.advance(1ms);
    expect_accepted(p);
    // The session has turned its stamps on; the kernel starts stamping a
    // moment later when no socket had them on (see
    // await_receive_stamping), and this thread plays both ends without a
    // sleep: without the wait the one request could arrive unstamped.
    const auto unseen = await_receive_stamping(std::chrono::seconds(10));
    INFO(unseen.value_or(""));
    REQUIRE_FALSE(unseen);
    const std::array<std::byte, 4> request{std::byte{0x10}, std::byte{1}, std::byte{2},
                                           std::byte{0x20}};
    const auto before = monotonic_ns();
    p.send(request);
    p.advance(2ms);
    const auto after = monotonic_ns();
    const auto reply = p.received();
    REQUIRE(reply.size() == 26);
    CHECK(reply[0] == std::byte{0x10});
    CHECK(reply[25] == std::byte{0x20});
    // The kernel stamped the request as it arrived, after `before` and
    // before the application read it: moved onto this host's
    // CLOCK_MONOTONIC, it comes first of the three.
    const auto stamps = protocol::decode_server_stamps(protocol::test_mode::ping_pong, reply, true);
    REQUIRE(stamps.kernel_arrival_ns != 0);
    CHECK(before <= stamps.kernel_arrival_ns);
    CHECK(stamps.kernel_arrival_ns <= stamps.arrival_ns);
    CHECK(stamps.arrival_ns <= stamps.departure_ns);
    CHECK(stamps.departure_ns <= after);
}

TEST_CASE("session: with server timestamps each load reply carries them after its header",
          "[server]") {
    session_on_pair p;
    // 16-byte requests, reply_bytes 0: 16 + 16 = 32-byte replies.
    send_header(p, protocol::test_mode::rate, 16, 0, 0, 0, true);
    p.advance(1ms);
    expect_accepted(p);
    const protocol::message_header first{0, 7, protocol::flag_reply_wanted};
    const protocol::message_header end{1, 9,
                                       protocol::flag_end_of_test | protocol::flag_reply_wanted};
    const auto before = monotonic_ns();
    p.send(requests_of({first, end}));
    p.advance(2ms);
    const auto after = monotonic_ns();
    const auto bytes = p.received();
    REQUIRE(bytes.size() > 2 * 32 + protocol::blob_length_size);
    CHECK(protocol::decode_message_header(std::span(bytes).first(16)) == first);
    CHECK(protocol::decode_message_header(std::span(bytes).subspan(32, 16)) == end);
    for (const std::size_t at : {std::size_t{0}, std::size_t{32}}) {
        const auto stamps =
            protocol::decode_server_stamps(protocol::test_mode::rate, std::span(bytes).subspan(at));
        CHECK(before <= stamps.arrival_ns);
        CHECK(stamps.arrival_ns <= stamps.departure_ns);
        CHECK(stamps.departure_ns <= after);
    }
}

TEST_CASE("session: load replies carry the message header, then filler to the size asked",
          "[server]") {
    session_on_pair p;
    // 16-byte requests answered with 40-byte replies.
    send_header(p, protocol::test_mode::rate, 16, 0, 0, 40);
    p.advance(1ms);
    expect_accepted(p);
    const protocol::message_header first{0, 7, protocol::flag_reply_wanted};
    const protocol::message_header second{1, 8, 0};
    const protocol::message_header end{2, 9,
                                       protocol::flag_end_of_test | protocol::flag_reply_wanted};
    p.send(requests_of({first, second, end}));
    p.advance(2ms);
    const auto bytes = p.received();
    REQUIRE(bytes.size() > 2 * 40 + protocol::blob_length_size);
    CHECK(protocol::decode_message_header(std::span(bytes).first(16)) == first);
    for (std::size_t k = 16; k < 40; ++k) {
        CHECK(bytes[k] == std::byte(k));
    }
    CHECK(protocol::decode_message_header(std::span(bytes).subspan(40, 16)) == end);
    const std::string account(reinterpret_cast<const char*>(bytes.data()) + 84, bytes.size() - 84);
    CHECK(account.find("\"replies_sent\":1") != std::string::npos);
    CHECK(account.find("\"bytes_sent\":40") != std::string::npos);
    CHECK(account.find("\"payload_bytes\":16") != std::string::npos);
    CHECK(account.find("\"reply_bytes\":40") != std::string::npos);
}

TEST_CASE("session: a load test's requests, replies and account", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::rate, 16, 0);
    p.advance(1ms);
    expect_accepted(p);
    // Two requests in one send, the first asking for a reply, then the end.
    const protocol::message_header first{0, 7, protocol::flag_reply_wanted};
    const protocol::message_header second{1, 8, 0};
    const protocol::message_header end{2, 9,
                                       protocol::flag_end_of_test | protocol::flag_reply_wanted};
    p.send(requests_of({first, second, end}));
    p.advance(2ms);
    const auto bytes = p.received();
    // Two replies (the first request's and the end's), then the account blob.
    REQUIRE(bytes.size() > 2 * 16 + protocol::blob_length_size);
    CHECK(protocol::decode_message_header(std::span(bytes).first(16)) == first);
    CHECK(protocol::decode_message_header(std::span(bytes).subspan(16, 16)) == end);
    const std::string account(reinterpret_cast<const char*>(bytes.data()) + 36, bytes.size() - 36);
    CHECK(account.find("\"messages_received\":2") != std::string::npos);
    CHECK(account.find("\"replies_sent\":1") != std::string::npos);
    p.client.reset();
    p.advance(3ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().completed);
    CHECK(p.s->outcome().messages_done == 2);
    CHECK(p.s->outcome().unit == "messages");
}

// The account's counts and the order of its keys, captured from the encoder
// before the blob had its own definition in protocol/: the times, CPU, RSS
// and TCP_INFO counters after them differ from run to run.
TEST_CASE("session: the account's exact bytes up to its measured values", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::rate, 16, 0);
    p.advance(1ms);
    expect_accepted(p);
    const protocol::message_header first{0, 7, protocol::flag_reply_wanted};
    const protocol::message_header end{1, 9,
                                       protocol::flag_end_of_test | protocol::flag_reply_wanted};
    p.send(requests_of({first, end}));
    p.advance(2ms);
    const auto bytes = p.received();
    REQUIRE(bytes.size() > 2 * 16 + protocol::blob_length_size);
    const std::string account(reinterpret_cast<const char*>(bytes.data()) + 36, bytes.size() - 36);
    // 1 request of 16 bytes in and 1 reply of 16 bytes out: the end and its
    // reply are not counted.
    const std::string counts =
        R"({"messages_received":1,"bytes_received":16,"replies_sent":1,"bytes_sent":16,)"
        R"("payload_bytes":16,"reply_bytes":16,"duration_s":)";
    CHECK(account.substr(0, counts.size()) == counts);
    const auto cpu = account.find(R"(,"cpu_percent":)");
    const auto rss = account.find(R"(,"rss_kib":)");
    const auto transport =
        account.find(R"(,"transport":{"source":"TCP_INFO","retransmitted_segments":)");
    CHECK(cpu != std::string::npos);
    CHECK(rss > cpu);
    CHECK(transport > rss);
    CHECK(account.find("pr_abandoned") == std::string::npos);  // TCP: no PR-SCTP
    CHECK(account.back() == '}');
    p.client.reset();
    p.advance(3ms);
}

TEST_CASE("session: a client that never reads its replies is held back, then cut off", "[server]") {
    session_on_pair p;
    // Every request asks for a reply, and the client reads none: once the
    // socket's buffer and the session's backlog are full, it stops reading.
    const auto requests = accept_throughput_wanting_replies(p);
    bool held_back = false;
    for (int round = 0; round < 2000 && !held_back; ++round) {
        const auto n = ::send(p.client.get(), requests.data(), requests.size(), MSG_DONTWAIT);
        p.advance(2ms);
        held_back = n < 0 && !p.s->wants_to_read();
    }
    REQUIRE(held_back);
    CHECK(p.s->wants_to_write());
    CHECK_FALSE(p.s->done());
    // Its replies stay untaken for the I/O timeout: the session ends.
    p.advance(2ms + 5001ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason == "send timed out: the peer stopped reading");
}

// A client that stops reading while requests it sent before still come
// (its kernel holds them): each of them queues one more reply behind a front
// that does not move. The send timeout runs from when the replies stopped
// moving; were it started again by each reply queued, a trickle of requests
// would keep such a session alive for as long as they came.
TEST_CASE("session: replies queued behind a stuck front do not put off the send timeout",
          "[server]") {
    session_on_pair p;
    const auto batch = accept_throughput_wanting_replies(p);
    // Batches until the socket has no room for a reply: the front is stuck
    // from then on, and the session still reads (its backlog is not full).
    std::chrono::milliseconds at{1};
    for (int round = 0; round < 2000 && !p.s->wants_to_write(); ++round) {
        p.send(batch);
        at += 2ms;
        p.advance(at);
    }
    REQUIRE(p.s->wants_to_write());
    REQUIRE(p.s->wants_to_read());
    const auto stuck_at = at;
    // A request a second: each is read and its reply queued.
    const auto one = requests_of({{5000, 1, protocol::flag_reply_wanted}});
    for (int second = 1; second <= 4; ++second) {
        p.send(one);
        p.advance(stuck_at + second * 1000ms);
        REQUIRE_FALSE(p.s->done());
    }
    p.send(one);
    p.advance(stuck_at + 5001ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason == "send timed out: the peer stopped reading");
}

TEST_CASE("session: a client of version 2 hears that its version is refused", "[server]") {
    session_on_pair p;
    // A version 2 header is 16 bytes: magic, version 2, flags 0 (ping-pong),
    // payload 4, iterations 3. The session answers from these alone.
    const std::array<unsigned char, 16> v2{'S', 'P', 'R', 'F', 0, 2, 0, 0, 0, 0, 0, 4, 0, 0, 0, 3};
    p.send(std::as_bytes(std::span(v2)));
    p.advance(1ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason ==
          "refused: the client speaks protocol version 2, this server version 3");
    const auto bytes = p.received();
    REQUIRE(bytes.size() == protocol::verdict_size);
    protocol::verdict_bytes verdict{};
    std::copy_n(bytes.begin(), verdict.size(), verdict.begin());
    const auto decoded = protocol::decode_verdict(verdict);
    CHECK(decoded.raw_status == static_cast<std::uint16_t>(protocol::status::unsupported_version));
    CHECK(decoded.server_version == 3);
}

TEST_CASE("session: a header of this version cut short names its 24 bytes", "[server]") {
    session_on_pair p;
    // Past the start (16 bytes, the same in every version), the session
    // waits for the rest.
    const auto header = protocol::encode_header({16, 0, protocol::test_mode::rate});
    p.send(std::span(header).first(20));
    p.advance(1ms);
    CHECK_FALSE(p.s->done());
    p.advance(2001ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason ==
          "no whole test header within 2.0 s (--header-timeout): the peer sent 20 of the 24 "
          "bytes of a message in 2.0 s (a message must come whole within the I/O timeout)");
}

namespace {

server_identity io_timeout_of_1s() {
    auto identity = session_tcp_identity();
    identity.io_timeout = 1000ms;
    return identity;
}

}  // namespace

TEST_CASE("session: a load test waits for the schedule's longest gap + the I/O timeout",
          "[server]") {
    // One message every 2 s (--rate 0.5) against --io-timeout 1: the session
    // waits 2 + 1 = 3 s after each whole request for the next.
    session_on_pair p(io_timeout_of_1s());
    send_header(p, protocol::test_mode::rate, 16, 0, 2000);
    p.advance(1ms);
    expect_accepted(p);
    p.send(requests_of({{0, 1, 0}}));
    p.advance(10ms);  // the last whole request came at 10 ms
    CHECK(p.s->deadline() == p.t0 + 10ms + 3000ms);
    p.advance(2500ms);
    CHECK_FALSE(p.s->done());
    p.send(requests_of({{1, 2, 0}}));
    p.advance(2600ms);  // a request in time: the wait begins again
    p.advance(2600ms + 2999ms);
    CHECK_FALSE(p.s->done());
    p.advance(2600ms + 3000ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason ==
          "receive timed out: no request for 3.0 s (the client's longest scheduled gap 2.0 s + "
          "--io-timeout 1.0 s)");
}

TEST_CASE("session: without a schedule a load test waits the I/O timeout alone", "[server]") {
    session_on_pair p(io_timeout_of_1s());
    send_header(p, protocol::test_mode::rate, 16, 0, 0);
    p.advance(1ms);
    expect_accepted(p);
    p.send(requests_of({{0, 1, 0}}));
    p.advance(10ms);
    p.advance(1009ms);
    CHECK_FALSE(p.s->done());
    p.advance(1010ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason == "receive timed out: no request for 1.0 s (--io-timeout)");
}

TEST_CASE("session: part of a request within the gap bound, then nothing", "[server]") {
    session_on_pair p(io_timeout_of_1s());
    send_header(p, protocol::test_mode::rate, 16, 0, 2000);
    p.advance(1ms);
    expect_accepted(p);
    const auto request = requests_of({{0, 1, 0}});
    p.send(std::span(request).first(8));  // half of it, at 10 ms
    p.advance(10ms);
    p.advance(2999ms);
    CHECK_FALSE(p.s->done());
    p.advance(3001ms);
    REQUIRE(p.s->done());
    CHECK(p.s->outcome().reason ==
          "the client sent 8 bytes but no whole request in 3.0 s (the client's longest "
          "scheduled gap 2.0 s + --io-timeout 1.0 s)");
}
