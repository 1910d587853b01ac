// SPDX-License-Identifier: Apache-2.0
// Path notifications as the decoder reads them, and the watch that keeps
// them and tells replies' paths apart by their source addresses.
#include "transport/sctp_path_events.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/sctp.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "transport/sctp_notification.hpp"

using namespace sctp_perf;

namespace {

template <typename T>
std::vector<std::byte> bytes_of(const T& value) {
    std::vector<std::byte> bytes(sizeof value);
    std::memcpy(bytes.data(), &value, sizeof value);
    return bytes;
}

sockaddr_storage v4(const char* address, std::uint16_t port) {
    sockaddr_storage storage{};
    auto& sin = reinterpret_cast<sockaddr_in&>(storage);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    ::inet_pton(AF_INET, address, &sin.sin_addr);
    return storage;
}

sctp_paddr_change change_of(int state, const char* address, int error = 0) {
    sctp_paddr_change change{};
    change.spc_type = SCTP_PEER_ADDR_CHANGE;
    change.spc_length = sizeof change;
    const auto peer = v4(address, 45453);
    std::memcpy(&change.spc_aaddr, &peer, sizeof peer);
    change.spc_state = state;
    change.spc_error = error;
    change.spc_assoc_id = 5;
    return change;
}

std::vector<std::byte> from_hex(const std::string& hex) {
    std::vector<std::byte> bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
        bytes.push_back(static_cast<std::byte>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    return bytes;
}

// SCTP_PEER_ADDR_CHANGE as Linux 6.1 (x86_64) wrote them, captured by
// tests/vm/sctp_notification_capture.cpp in the VM check
// path_notifications: 148 bytes, of which type 0x8002, flags 0, length
// 0x94 = 148, then the 128-byte sockaddr_storage (AF_INET 2, port 0xb3af
// = 45999 in network order, 10.77.1.2), state, error and association id,
// each 4 bytes in the host's order.
std::string captured_change(const char* address_and_port, const char* state, const char* assoc) {
    return std::string("02800000940000000200") + address_and_port + std::string(120 * 2, '0') +
           state + "00000000" + assoc;
}
// The client's path 10.77.1.2 unreachable (1), and available (0) again.
const std::string client_unreachable = captured_change("b3af0a4d0102", "01000000", "0d000000");
const std::string client_available = captured_change("b3af0a4d0102", "00000000", "0d000000");
// The server's path to the client's 10.77.2.1 (port 0xec03 = 60419)
// confirmed (5) by its first heartbeat.
const std::string server_confirmed = captured_change("ec030a4d0201", "05000000", "0e000000");
// With path-max-retrans 2 (another run): the client's path potentially
// failed (6) at its first timeout, and the server's path to the client's
// 10.77.1.1 (port 0xbfd3 = 49107) unreachable (1).
const std::string client_potentially_failed =
    captured_change("b3af0a4d0102", "06000000", "0f000000");
const std::string server_unreachable = captured_change("bfd30a4d0101", "01000000", "10000000");

}  // namespace

TEST_CASE("decode_sctp_notification: peer address changes captured from a kernel") {
    struct captured {
        const std::string& hex;
        sctp_path_change change;
        const char* address;
        std::int32_t assoc_id;
    };
    for (const auto& c :
         {captured{client_unreachable, sctp_path_change::unreachable, "10.77.1.2:45999", 13},
          captured{client_available, sctp_path_change::available, "10.77.1.2:45999", 13},
          captured{server_confirmed, sctp_path_change::confirmed, "10.77.2.1:60419", 14},
          captured{client_potentially_failed, sctp_path_change::potentially_failed,
                   "10.77.1.2:45999", 15},
          captured{server_unreachable, sctp_path_change::unreachable, "10.77.1.1:49107", 16}}) {
        const auto bytes = from_hex(c.hex);
        REQUIRE(bytes.size() == 148);
        const auto got = decode_sctp_notification(bytes);
        REQUIRE(got.has_value());
        CHECK(got->event == association_event::other);
        CHECK(got->assoc_id == c.assoc_id);
        REQUIRE(got->path.has_value());
        CHECK(got->path->change == c.change);
        CHECK(got->path->error == 0);
        // As a reader keeps it: the watch names the address.
        sctp_path_watch watch;
        watch.record(*got->path);
        REQUIRE(watch.events().size() == 1);
        CHECK(watch.events()[0].address == c.address);
    }
}

TEST_CASE("decode_sctp_notification: a peer address change is a path's, not the association's") {
    for (const auto& [state, expected] :
         {std::pair<int, sctp_path_change>{SCTP_ADDR_AVAILABLE, sctp_path_change::available},
          {SCTP_ADDR_UNREACHABLE, sctp_path_change::unreachable},
          {SCTP_ADDR_REMOVED, sctp_path_change::removed},
          {SCTP_ADDR_ADDED, sctp_path_change::added},
          {SCTP_ADDR_MADE_PRIM, sctp_path_change::made_primary},
          {SCTP_ADDR_CONFIRMED, sctp_path_change::confirmed},
          {SCTP_ADDR_POTENTIALLY_FAILED, sctp_path_change::potentially_failed},
          {99, sctp_path_change::unknown}}) {
        const auto got = decode_sctp_notification(bytes_of(change_of(state, "10.77.1.2", 7)));
        REQUIRE(got.has_value());
        CHECK(got->event == association_event::other);  // says nothing of the association's end
        CHECK(got->assoc_id == 5);
        REQUIRE(got->path.has_value());
        CHECK(got->path->change == expected);
        CHECK(got->path->error == 7);
        CHECK(got->path->address.ss_family == AF_INET);
    }
    // Cut before its association id: dropped, as any notification too short to say.
    const auto cut = bytes_of(change_of(SCTP_ADDR_UNREACHABLE, "10.77.1.2"));
    CHECK_FALSE(decode_sctp_notification(std::span(cut).first(sizeof(sctp_paddr_change) - 1)));
    // The whole of it fits the head every reader keeps.
    CHECK(sctp_notification_head_size >= sizeof(sctp_paddr_change));
}

TEST_CASE("decode_sctp_notification: a message given up is a send failure, with its error") {
    sctp_send_failed_event failed{};
    failed.ssf_type = SCTP_SEND_FAILED_EVENT;
    failed.ssf_length = sizeof failed + 16;
    failed.ssf_flags = SCTP_DATA_SENT;
    failed.ssf_error = 42;
    failed.ssf_assoc_id = 3;
    auto bytes = bytes_of(failed);
    bytes.resize(bytes.size() + 16);  // the data that was not delivered follows
    const auto got = decode_sctp_notification(bytes);
    REQUIRE(got.has_value());
    CHECK(got->event == association_event::other);
    CHECK(got->assoc_id == 3);
    REQUIRE(got->path.has_value());
    CHECK(got->path->change == sctp_path_change::send_failed);
    CHECK(got->path->error == 42);
    // The older SCTP_SEND_FAILED, from a kernel that has no other.
    sctp_send_failed old{};
    old.ssf_type = SCTP_SEND_FAILED;
    old.ssf_error = 9;
    old.ssf_assoc_id = 4;
    const auto older = decode_sctp_notification(bytes_of(old));
    REQUIRE(older.has_value());
    CHECK(older->path->change == sctp_path_change::send_failed);
    CHECK(older->assoc_id == 4);
}

TEST_CASE("sctp_path_watch: events kept with their addresses, send failures counted") {
    sctp_path_watch watch;
    const auto before = std::chrono::steady_clock::now();
    sctp_path_notice down;
    down.change = sctp_path_change::unreachable;
    down.address = v4("10.77.1.2", 45453);
    watch.record(down);
    sctp_path_notice failed;
    failed.change = sctp_path_change::send_failed;
    failed.error = 5;
    watch.record(failed);
    watch.record(failed);
    const auto events = watch.events();
    REQUIRE(events.size() == 1);
    CHECK(events[0].change == sctp_path_change::unreachable);
    CHECK(events[0].address == "10.77.1.2:45453");
    CHECK(events[0].monotonic_ns >=
          std::chrono::duration_cast<std::chrono::nanoseconds>(before.time_since_epoch()).count());
    CHECK(watch.sends_failed() == 2);
    CHECK(watch.last_send_error() == 5);
    // A flapping path cannot grow the list without bound.
    for (std::size_t i = 0; i < sctp_path_watch::max_events + 10; ++i) {
        watch.record(down);
    }
    CHECK(watch.events().size() == sctp_path_watch::max_events);
    CHECK(watch.events_dropped() == 11);
}

TEST_CASE("sctp_path_watch: a reply's path by its source address, in the order first seen") {
    sctp_path_watch watch;
    const auto first = v4("10.77.1.2", 45453);
    const auto second = v4("10.77.2.2", 45453);
    CHECK(watch.path_of(first, sizeof(sockaddr_in)) == 1);
    CHECK(watch.path_of(first, sizeof(sockaddr_in)) == 1);
    CHECK(watch.path_of(second, sizeof(sockaddr_in)) == 2);
    CHECK(watch.path_of(first, sizeof(sockaddr_in)) == 1);
    // The same address mapped into IPv6 is the same path.
    sockaddr_storage mapped{};
    auto& sin6 = reinterpret_cast<sockaddr_in6&>(mapped);
    sin6.sin6_family = AF_INET6;
    sin6.sin6_port = htons(45453);
    ::inet_pton(AF_INET6, "::ffff:10.77.2.2", &sin6.sin6_addr);
    CHECK(watch.path_of(mapped, sizeof(sockaddr_in6)) == 2);
    // Nothing read (no source): unknown.
    CHECK(watch.path_of(sockaddr_storage{}, 0) == 0);
    CHECK(watch.path_addresses() == std::vector<std::string>{"10.77.1.2:45453", "10.77.2.2:45453"});
}
