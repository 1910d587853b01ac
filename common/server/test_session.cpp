#include "server/test_session.hpp"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <vector>

#include "errors.hpp"
#include "protocol/wire_protocol.hpp"
#include "report/process_usage.hpp"
#include "report/transport_json.hpp"
#include "server/server_log.hpp"
#include "transport/sctp_delivery.hpp"
#include "transport/sctp_features.hpp"
#include "transport/socket_setup.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {
namespace {

// Large enough that a throughput test is read in few system calls: every
// request of a read is parsed, and the replies of one read leave in one send.
constexpr std::size_t stream_read_bytes = 256 * 1024;

// Over SCTP each reply goes back on its request's stream with its ordering;
// in the load modes it also takes this server's PR-SCTP policy. Ping-pong
// replies stay fully reliable: one given up would stop the client's loop.
struct reply_route {
    bool sctp = false;
    pr_sctp pr;
    sctp_delivery* in() noexcept { return sctp ? &request : nullptr; }
    sctp_delivery out(bool load) const noexcept {
        return {request.stream, request.unordered, load ? pr : pr_sctp{}};
    }
    sctp_delivery request;  // how the last request came
};

void serve_ping_pong(message_channel& channel, const protocol::test_header& header,
                     reply_route& route, session_outcome& outcome) {
    if (header.iterations == 0) {
        log_line(log_level::info, "Test for as many iterations as the client sends");
    } else {
        log_info("Test for {} iterations", header.iterations);
    }
    // Sized by the validated header, never above max_payload_bytes.
    std::vector<std::byte> request(header.payload_bytes);
    const bool until_closed = header.iterations == 0;
    while (until_closed || outcome.messages_done < header.iterations) {
        try {
            channel.receive_message(request, route.in());
        } catch (const peer_closed&) {
            if (until_closed) {
                break;  // the client ends a test of unknown length by closing
            }
            throw;
        }
        channel.send_message(protocol::pingpong_reply(request), route.out(false));
        ++outcome.messages_done;
    }
    outcome.completed = true;
}

// What the server counted in a load test, sent back as a blob at its end.
struct load_account {
    std::uint64_t messages_received = 0;  // requests, end-of-test message not counted
    std::uint64_t bytes_received = 0;
    std::uint64_t replies_sent = 0;  // the end-of-test reply not counted
};

std::string account_json(const load_account& account, std::chrono::duration<double> elapsed,
                         const process_usage& before, const process_usage& after,
                         const message_channel& channel, const server_identity& identity) {
    nlohmann::ordered_json doc = {
        {"messages_received", account.messages_received},
        {"bytes_received", account.bytes_received},
        {"replies_sent", account.replies_sent},
        {"duration_s", elapsed.count()},
        {"cpu_percent", cpu_percent_between(before, after)},
        {"rss_kib", after.rss_kib},
    };
    const int fd = channel.native_handle();
    if (identity.sctp.pr.any()) {
        doc["pr_abandoned"] = read_pr_sctp_abandoned(fd).total();
    }
    doc["transport"] = transport_counters_json(read_transport_counters(fd, identity.transport));
    return doc.dump();
}

// Over SCTP the end-of-test message can overtake requests sent before it (on
// another stream, unordered, or retransmitted). Its sequence number says how
// many came before it, so the server waits for the missing ones to count
// them, until none has come for overtaken_quiet; it does not answer them,
// since the client has stopped waiting for replies. Requests that PR-SCTP
// gave up never come.
constexpr auto overtaken_quiet = std::chrono::milliseconds(200);

void count_overtaken_requests(message_channel& channel, std::size_t size, std::uint64_t expected,
                              load_account& account) {
    std::vector<std::byte> request(size);
    while (account.messages_received < expected) {
        pollfd ready{channel.native_handle(), POLLIN, 0};
        const int n = ::poll(&ready, 1, static_cast<int>(overtaken_quiet.count()));
        if (n == 0) {
            return;
        }
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::system_error(errno, std::generic_category(), "poll failed");
        }
        channel.receive_message(request);
        const auto message = protocol::decode_message_header(request);
        if (!message || message->end_of_test()) {
            throw peer_error("the client sent data after the end of its test");
        }
        ++account.messages_received;
        account.bytes_received += size;
    }
}

void serve_load(message_channel& channel, const protocol::test_header& header,
                const server_identity& identity, reply_route& route, session_outcome& outcome) {
    log_info("Test in {} mode, {}-byte requests", protocol::name_of(header.mode),
             header.payload_bytes);
    const std::size_t size = header.payload_bytes;
    // A byte stream is read in bulk and framed here; SOCK_SEQPACKET keeps one
    // request per message, so it is read a message at a time. Over SCTP a
    // read never spans two messages, so the replies of one read share the
    // route of the request they answer.
    auto* stream = dynamic_cast<stream_channel*>(&channel);
    std::vector<std::byte> buffer(stream ? std::max(stream_read_bytes, 2 * size) : size);
    std::vector<std::byte> replies;
    replies.reserve(stream ? buffer.size() / size * protocol::load_reply_size
                           : protocol::load_reply_size);
    std::size_t filled = 0;
    load_account account;
    std::uint64_t end_sequence = 0;  // also the count of the requests before it
    std::optional<std::chrono::steady_clock::time_point> partial_since;
    const auto usage_before = read_thread_usage();
    const auto started = std::chrono::steady_clock::now();

    // The replies to the primer and to the end-of-test message are never
    // given up: the client waits for each of them.
    const auto send_replies = [&](bool reliable) {
        const auto delivery = route.out(/*load=*/!reliable);
        if (stream) {
            if (!replies.empty()) {
                channel.send_message(replies, delivery);
            }
        } else {
            for (std::size_t at = 0; at < replies.size(); at += protocol::load_reply_size) {
                channel.send_message(std::span(replies).subspan(at, protocol::load_reply_size),
                                     delivery);
            }
        }
        replies.clear();
    };

    for (bool ended = false; !ended;) {
        if (stream) {
            filled += stream->receive_some(std::span(buffer).subspan(filled), route.in());
        } else {
            channel.receive_message(buffer, route.in());
            filled = size;
        }
        std::size_t at = 0;
        bool reliable = false;  // see send_replies
        for (; filled - at >= size && !ended; at += size) {
            const auto request = std::span(buffer).subspan(at, size);
            const auto message = protocol::decode_message_header(request);
            if (!message) {
                throw peer_error(
                    fmt::format("request {} has a malformed message header (unknown flags or "
                                "reserved bits)",
                                account.messages_received + 1));
            }
            ended = message->end_of_test();
            reliable = reliable || ended || message->sequence < protocol::primer_iterations;
            if (ended) {
                end_sequence = message->sequence;
            } else {
                ++account.messages_received;
                account.bytes_received += size;
            }
            if (message->reply_wanted() || ended) {
                replies.insert(replies.end(), request.begin(),
                               request.begin() + protocol::load_reply_size);
                account.replies_sent += ended ? 0 : 1;
            }
        }
        // A read that completed no request: the client must still deliver a
        // whole one within the I/O timeout, or it could hold the session
        // forever by trickling bytes. The clock is read only then.
        if (at == 0) {
            const auto now = std::chrono::steady_clock::now();
            if (!partial_since) {
                partial_since = now;
            } else if (now - *partial_since > identity.io_timeout) {
                throw peer_error(fmt::format(
                    "the client sent {} bytes but no whole request in {:.1f} s (--io-timeout)",
                    filled, std::chrono::duration<double>(identity.io_timeout).count()));
            }
        } else {
            partial_since.reset();
        }
        send_replies(reliable);
        if (ended && at != filled) {
            throw peer_error("the client sent data after the end of its test");
        }
        std::memmove(buffer.data(), buffer.data() + at, filled - at);
        filled -= at;
    }
    const auto elapsed = std::chrono::steady_clock::now() - started;
    if (route.sctp) {
        count_overtaken_requests(channel, size, end_sequence, account);
    }
    send_blob(channel,
              account_json(account, elapsed, usage_before, read_thread_usage(), channel, identity));
    outcome.messages_done = account.messages_received;
    outcome.completed = true;
}

// Once a test is over the client reads its connection's transport counters,
// then closes. The server waits for that close (bounded by its I/O timeout)
// instead of closing first: SCTP removes an association as soon as one end
// has shut it down, and the client's read would find nothing to read.
void await_client_close(message_channel& channel) {
    std::array<std::byte, 1> extra{};
    try {
        channel.receive_message(extra);
    } catch (const peer_closed&) {
        return;  // the expected end
    } catch (const peer_error&) {
        return;  // gone another way or silent: the test itself was complete
    }
    throw peer_error("the client sent data after the end of its test");
}

}  // namespace

session_outcome serve_test(message_channel& channel, const server_identity& identity) {
    session_outcome outcome;
    channel.set_spin(identity.spin);
    try {
        // The header has its own, shorter bound: until it is in, the
        // connection holds a session slot and has proved nothing.
        set_io_timeout(channel.native_handle(), identity.header_timeout);
        channel.set_message_timeout(identity.header_timeout);
        protocol::header_bytes header_bytes{};
        try {
            channel.receive_message(header_bytes);
        } catch (const peer_closed&) {
            throw;
        } catch (const peer_error& e) {
            throw peer_error(fmt::format(
                "no whole test header within {:.1f} s (--header-timeout): {}",
                std::chrono::duration<double>(identity.header_timeout).count(), e.what()));
        }
        set_io_timeout(channel.native_handle(), identity.io_timeout);
        channel.set_message_timeout(identity.io_timeout);
        const auto decoded = protocol::decode_header(header_bytes);
        channel.send_message(protocol::encode_verdict(decoded.verdict));
        if (decoded.verdict == protocol::status::unsupported_version) {
            outcome.reason = fmt::format(
                "refused: the client speaks protocol version {}, this server version {}",
                decoded.peer_version, protocol::version);
            return outcome;
        }
        if (decoded.verdict != protocol::status::accepted) {
            outcome.reason = fmt::format("refused: {}", protocol::describe(decoded.verdict));
            return outcome;
        }
        send_blob(channel, server_settings_json(identity, channel.native_handle()));
        const auto mode = decoded.header.mode;
        if (mode == protocol::test_mode::rate || mode == protocol::test_mode::throughput) {
            outcome.unit = "messages";
        }
        reply_route route;
        route.sctp = identity.transport == transport_protocol::sctp;
        route.pr = identity.sctp.pr;
        if (mode == protocol::test_mode::ping_pong) {
            serve_ping_pong(channel, decoded.header, route, outcome);
        } else {
            serve_load(channel, decoded.header, identity, route, outcome);
        }
        await_client_close(channel);
    } catch (const peer_error& e) {
        outcome.reason = e.what();
    } catch (const std::system_error& e) {
        outcome.reason = e.what();
    }
    return outcome;
}

}  // namespace sctp_perf
