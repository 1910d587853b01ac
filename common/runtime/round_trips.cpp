#include "runtime/round_trips.hpp"

#include <fmt/format.h>

#include <system_error>
#include <vector>

#include "errors.hpp"
#include "runtime/server_log.hpp"

namespace sctp_perf {

void negotiate_test(message_channel& channel, const protocol::test_header& header) {
    channel.send_message(protocol::encode_header(header));
    protocol::verdict_bytes verdict{};
    try {
        channel.receive_message(verdict);
    } catch (const peer_error& e) {
        throw peer_error(std::string("no answer to the test header: ") + e.what() +
                         " (is the server an sctp-perf server of the same kind?)");
    }
    const auto decoded = protocol::decode_verdict(verdict);
    if (!decoded.well_formed) {
        throw peer_error("the peer is not an sctp-perf server (wrong magic number in its answer)");
    }
    const auto status = static_cast<protocol::status>(decoded.raw_status);
    if (status != protocol::status::accepted) {
        throw test_refused(
            fmt::format("the server refused the test: {}", protocol::describe(status)));
    }
}

std::chrono::nanoseconds run_round_trips(message_channel& channel, std::uint32_t payload_bytes,
                                         std::uint32_t measured_iterations,
                                         latency_recorder& recorder) {
    // Initialised payload: the bytes on the wire are defined, and a capture is
    // recognisable.
    std::vector<std::byte> payload(payload_bytes);
    for (std::size_t i = 0; i < payload.size(); ++i) {
        payload[i] = static_cast<std::byte>(i & 0xff);
    }
    protocol::reply_bytes reply{};
    const std::uint64_t total = std::uint64_t{measured_iterations} + protocol::primer_iterations;
    using clock = std::chrono::steady_clock;
    clock::time_point measuring_since{};

    for (std::uint64_t i = 0; i < total; ++i) {
        if (i == protocol::primer_iterations) {
            measuring_since = clock::now();
        }
        try {
            const auto start = clock::now();
            channel.send_message(payload);
            channel.receive_message(reply);
            const auto stop = clock::now();
            if (i >= protocol::primer_iterations) {
                recorder.record(stop - start, i - protocol::primer_iterations);
            }
        } catch (const peer_error& e) {
            throw peer_error(fmt::format("iteration {} of {}: {}", i + 1, total, e.what()));
        }
        if (!protocol::reply_matches(reply, i)) {
            throw peer_error(fmt::format(
                "iteration {} of {}: the reply does not match the request (the stream is out of "
                "step)",
                i + 1, total));
        }
    }
    return clock::now() - measuring_since;
}

session_outcome serve_test(message_channel& channel, bool refuse_as_busy) {
    session_outcome outcome;
    try {
        protocol::header_bytes header_bytes{};
        // Even a refused client's header is read before the answer: closing
        // with it unread would make TCP reset the connection and SCTP abort
        // the association, and the client would report that instead of why.
        channel.receive_message(header_bytes);
        if (refuse_as_busy) {
            channel.send_message(protocol::encode_verdict(protocol::status::server_busy));
            outcome.reason = "refused: too many clients at once";
            return outcome;
        }
        const auto decoded = protocol::decode_header(header_bytes);
        channel.send_message(protocol::encode_verdict(decoded.verdict));
        if (decoded.verdict != protocol::status::accepted) {
            outcome.reason = fmt::format("refused: {}", protocol::describe(decoded.verdict));
            return outcome;
        }
        const auto& header = decoded.header;
        log_format("Test for {} iterations", header.iterations);
        // Sized by the validated header, never above max_payload_bytes.
        std::vector<std::byte> request(header.payload_bytes);
        for (std::uint32_t i = 0; i < header.iterations; ++i) {
            channel.receive_message(request);
            channel.send_message(protocol::encode_reply(i));
            outcome.iterations_done = i + 1;
        }
        outcome.completed = true;
    } catch (const peer_error& e) {
        outcome.reason = e.what();
    } catch (const std::system_error& e) {
        outcome.reason = e.what();
    }
    return outcome;
}

}  // namespace sctp_perf
