// The server's session state machine over a TCP connection on loopback,
// driven as its event loop drives it: advance() at chosen times, so every
// bound is checked without waiting for it. The other end plays the client
// with plain send()/recv().

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "protocol/wire_protocol.hpp"
#include "server/session.hpp"
#include "transport/message_channel.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;

namespace {

server_identity tcp_identity() {
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
    server_identity identity = tcp_identity();
    unique_fd client;
    session::clock::time_point t0 = session::clock::now();
    std::unique_ptr<session> s;
    std::vector<std::byte> scratch = std::vector<std::byte>(session::scratch_bytes);

    // A real TCP connection on loopback: the account reads TCP_INFO.
    session_on_pair() {
        unique_fd listener(::socket(AF_INET, SOCK_STREAM, 0));
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        REQUIRE(::bind(listener.get(), reinterpret_cast<sockaddr*>(&address), length) == 0);
        REQUIRE(::listen(listener.get(), 1) == 0);
        REQUIRE(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&address), &length) == 0);
        client = unique_fd(::socket(AF_INET, SOCK_STREAM, 0));
        REQUIRE(::connect(client.get(), reinterpret_cast<sockaddr*>(&address), length) == 0);
        unique_fd accepted(::accept(listener.get(), nullptr, nullptr));
        REQUIRE(accepted);
        const int one = 1;
        ::setsockopt(client.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        s = std::make_unique<session>(std::make_unique<stream_channel>(std::move(accepted)),
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
                 std::uint32_t iterations) {
    protocol::test_header header;
    header.mode = mode;
    header.payload_bytes = payload;
    header.iterations = iterations;
    p.send(protocol::encode_header(header));
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

TEST_CASE("session: a load test's requests, replies and account", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::rate, 16, 0);
    p.advance(1ms);
    expect_accepted(p);
    // Two requests in one send, the first asking for a reply, then the end.
    std::vector<std::byte> requests(3 * 16);
    protocol::message_header first{0, 7, protocol::flag_reply_wanted};
    protocol::message_header second{1, 8, 0};
    protocol::message_header end{2, 9, protocol::flag_end_of_test | protocol::flag_reply_wanted};
    protocol::encode_message_header(first, std::span(requests).subspan(0, 16));
    protocol::encode_message_header(second, std::span(requests).subspan(16, 16));
    protocol::encode_message_header(end, std::span(requests).subspan(32, 16));
    p.send(requests);
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

TEST_CASE("session: a client that never reads its replies is held back, then cut off", "[server]") {
    session_on_pair p;
    send_header(p, protocol::test_mode::throughput, 16, 0);
    p.advance(1ms);
    expect_accepted(p);
    // Every request asks for a reply, and the client reads none: once the
    // socket's buffer and the session's backlog are full, it stops reading.
    std::vector<std::byte> requests(16 * 1024);
    for (std::size_t r = 0; r < requests.size() / 16; ++r) {
        protocol::encode_message_header({100 + r, 1, protocol::flag_reply_wanted},
                                        std::span(requests).subspan(r * 16, 16));
    }
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
