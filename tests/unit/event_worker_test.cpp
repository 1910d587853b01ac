// SPDX-License-Identifier: Apache-2.0
// A server worker (server/event_worker.hpp) taking sessions in, over TCP on
// loopback: the test plays the listener's thread, which hands each session
// to the worker, and the clients, with plain send()/recv().

#include "server/event_worker.hpp"

#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <thread>

#include "loopback_connection.hpp"
#include "protocol/wire_protocol.hpp"
#include "runtime/cpu_affinity.hpp"
#include "server/server_log.hpp"
#include "transport/message_channel.hpp"
#include "transport/socket_setup.hpp"
#include "transport/unique_fd.hpp"

using namespace sctp_perf;
using namespace std::chrono_literals;

namespace {

// The wake signals the worker's thread has taken, counted by a handler
// standing in for the worker's own, which does nothing either.
std::atomic<unsigned> wake_signals{0};
extern "C" void count_wake_signal(int) {
    ++wake_signals;
}

// Counts the wake signals while it lives, then puts the worker's handler back.
class wake_signal_count {
  public:
    wake_signal_count() {
        struct sigaction counting {};
        counting.sa_handler = count_wake_signal;
        sigemptyset(&counting.sa_mask);
        counting.sa_flags = SA_RESTART;  // as the worker's: a timed receive still ends
        REQUIRE(::sigaction(event_worker::wake_signal, &counting, &previous_) == 0);
        wake_signals = 0;
    }
    ~wake_signal_count() { ::sigaction(event_worker::wake_signal, &previous_, nullptr); }
    wake_signal_count(const wake_signal_count&) = delete;
    wake_signal_count& operator=(const wake_signal_count&) = delete;

  private:
    struct sigaction previous_ {};
};

// No info lines while it lives: a worker's write to stderr would wake its
// reader (ctest), which could take the worker's CPU in the middle of the
// order a test sets up.
struct quiet_log {
    quiet_log() { set_log_quiet(true); }
    ~quiet_log() { set_log_quiet(false); }
};

server_identity worker_tcp_identity() {
    server_identity identity;
    identity.program = "SOCK_STREAM_srv";
    identity.transport = transport_protocol::tcp;
    identity.data_path = "one-to-one";
    return identity;
}

// A connection on loopback whose receives, on either end, wait at most the
// I/O timeout, so that a test that goes wrong fails rather than hangs.
testing::loopback_connection connect_with_timeout(std::chrono::milliseconds io_timeout) {
    auto c = testing::connect_on_loopback();
    set_io_timeout(c.client.get(), io_timeout);
    set_io_timeout(c.server.get(), io_timeout);
    return c;
}

void send_all(int fd, std::span<const std::byte> bytes) {
    REQUIRE(::send(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()));
}

// Reads the server's verdict on `fd` and requires it to accept the test.
void require_accepted(int fd) {
    protocol::verdict_bytes verdict{};
    REQUIRE(::recv(fd, verdict.data(), verdict.size(), MSG_WAITALL) ==
            static_cast<ssize_t>(verdict.size()));
    REQUIRE(protocol::decode_verdict(verdict).raw_status == 0);
}

// Hands `s` to `worker` as the server's listener does, but from a thread of
// the idle policy on `cpu`, the worker's, which gives way at once to the
// worker its eventfd wakes: the worker takes the session, answers it and
// waits in its receive before add() looks at the worker again. That order
// came in about half of the server's restarts; here it comes nearly always
// (a CPU busy with other programs can let the idle thread run first now
// and then). Throws what the thread met.
void hand_in_from_idle_thread(event_worker& worker, std::unique_ptr<session> s, unsigned cpu) {
    std::exception_ptr failure;  // Catch's assertions belong to the test's thread
    std::thread listener([&] {
        try {
            pin_thread(::pthread_self(), cpu);
            const sched_param idle{};
            if (const int e = ::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &idle)) {
                throw std::system_error(e, std::generic_category(), "SCHED_IDLE refused");
            }
            worker.add(std::move(s));
        } catch (...) {
            failure = std::current_exception();
        }
    });
    listener.join();
    if (failure) {
        std::rethrow_exception(failure);
    }
}

}  // namespace

TEST_CASE("event worker: handing in a session does not interrupt the worker's wait in it",
          "[server]") {
    const auto identity = worker_tcp_identity();
    const quiet_log quiet;
    event_worker worker(identity, nullptr);
    worker.start();
    const auto cpu = static_cast<unsigned>(::sched_getcpu());
    worker.pin(cpu);
    const wake_signal_count signals;

    // Five clients of a load test, one after another, each the worker's
    // only session, each with its header there before its session is
    // handed in.
    for (int client = 1; client <= 5; ++client) {
        INFO("client " << client);
        auto c = connect_with_timeout(identity.io_timeout);
        protocol::test_header header;
        header.mode = protocol::test_mode::rate;
        header.payload_bytes = 16;
        send_all(c.client.get(), protocol::encode_header(header));
        hand_in_from_idle_thread(
            worker,
            std::make_unique<session>(std::make_unique<stream_channel>(std::move(c.server)),
                                      "test:" + std::to_string(client), identity,
                                      session::clock::now()),
            cpu);
        require_accepted(c.client.get());
        // No signal: add() found the worker waiting in the receive of the
        // very session it handed in, which signals would only cut short
        // again and again while holding the listener (up to 4000 times,
        // about 0.45 s, as long as the client keeps sending) with no
        // connection accepted.
        CHECK(wake_signals == 0);

        // The end of its test, then its close (the reading side stays open
        // for the account): the worker has no session again.
        std::array<std::byte, protocol::message_header_size> end{};
        protocol::encode_message_header({0, 1, protocol::flag_end_of_test}, end);
        send_all(c.client.get(), end);
        REQUIRE(::shutdown(c.client.get(), SHUT_WR) == 0);
        for (int look = 0; look < 10'000 && worker.load() != 0; ++look) {
            std::this_thread::sleep_for(1ms);
        }
        REQUIRE(worker.load() == 0);
    }
}

namespace {

// A ping-pong client of `worker` on its own connection: its header, then,
// once its session is handed in, the verdict and the server's settings read.
struct ping_pong_client {
    testing::loopback_connection c;

    ping_pong_client(event_worker& worker, const server_identity& identity, const char* name)
        : c(connect_with_timeout(2000ms)) {
        protocol::test_header header;
        header.mode = protocol::test_mode::ping_pong;
        header.payload_bytes = 16;  // iterations 0: until the client closes
        send_all(c.client.get(), protocol::encode_header(header));
        worker.add(std::make_unique<session>(std::make_unique<stream_channel>(std::move(c.server)),
                                             name, identity, session::clock::now()));
        require_accepted(c.client.get());
        protocol::blob_length_bytes length_bytes{};
        REQUIRE(::recv(c.client.get(), length_bytes.data(), length_bytes.size(), MSG_WAITALL) ==
                static_cast<ssize_t>(length_bytes.size()));
        const auto length = protocol::decode_blob_length(length_bytes);
        REQUIRE(length);
        std::string settings(*length, '\0');
        REQUIRE(::recv(c.client.get(), settings.data(), settings.size(), MSG_WAITALL) ==
                static_cast<ssize_t>(settings.size()));
    }

    // One request and its reply; false when no reply came within the
    // connection's 2 s receive timeout.
    bool round_trip() {
        std::array<std::byte, 16> request{};
        send_all(c.client.get(), request);
        std::array<std::byte, 2> reply{};
        return ::recv(c.client.get(), reply.data(), reply.size(), MSG_WAITALL) ==
               static_cast<ssize_t>(reply.size());
    }
};

}  // namespace

TEST_CASE("event worker: a ping-pong session waited in is watched again once another comes",
          "[server]") {
    // A lone ping-pong session's socket leaves the worker's epoll set while
    // the worker waits in its receive; a second session ends that wait, and
    // from then on the loop serves both, so the first must be back in the
    // set: a request of its then is answered, not left to time out.
    const auto identity = worker_tcp_identity();
    const quiet_log quiet;
    event_worker worker(identity, nullptr);
    worker.start();
    ping_pong_client first(worker, identity, "test:1");
    for (int i = 0; i < 100; ++i) {
        REQUIRE(first.round_trip());  // the worker now waits in its receive
    }
    ping_pong_client second(worker, identity, "test:2");
    for (int i = 0; i < 100; ++i) {
        INFO("round trip " << i);
        REQUIRE(first.round_trip());
        REQUIRE(second.round_trip());
    }
    CHECK(worker.load() == 2);
}
