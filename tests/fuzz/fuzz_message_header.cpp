// SPDX-License-Identifier: Apache-2.0
// The load modes' message header, as both ends decode it: the server from
// every request, the client from every reply, which it then hands to its
// reply_matcher. The input is a run of 16-byte replies to a flow that has
// eight requests in flight, sequences 0..7, each with its token below.

#include "client/load/reply_matcher.hpp"
#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"

using namespace sctp_perf;

namespace {

constexpr std::uint64_t requests_in_flight = 8;

// Fixed, so that the fuzzer can find the tokens that match.
std::uint32_t token_of(std::uint64_t sequence) noexcept {
    return static_cast<std::uint32_t>(0x9e3779b9U * (sequence + 1));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto input = fuzz::as_bytes(data, size);
    // A span of any length, as test_session and load_flow pass them.
    for (std::size_t n = 0; n < protocol::message_header_size && n <= input.size(); ++n) {
        if (protocol::decode_message_header(input.first(n))) {
            fuzz::broken("a span shorter than a header decodes to nothing");
        }
    }

    reply_matcher matcher;
    for (std::uint64_t sequence = 0; sequence < requests_in_flight; ++sequence) {
        matcher.expect({sequence, token_of(sequence), {}, {}});
    }
    for (; input.size() >= protocol::message_header_size;
         input = input.subspan(protocol::message_header_size)) {
        const auto reply = input.first(protocol::message_header_size);
        const auto header = protocol::decode_message_header(reply);
        if (!header) {
            continue;  // load_flow ends the flow here with peer_error
        }
        protocol::message_header_bytes again{};
        protocol::encode_message_header(*header, again);
        if (!std::equal(again.begin(), again.end(), reply.begin())) {
            fuzz::broken("a decoded header is exactly what encode_message_header makes of it");
        }
        const auto outstanding = matcher.outstanding();
        const auto match = matcher.match(header->sequence, header->token);
        const bool ours =
            header->sequence < requests_in_flight && header->token == token_of(header->sequence);
        switch (match.what) {
            case reply_matcher::verdict::matched:
                if (!ours || match.request.sequence != header->sequence ||
                    matcher.outstanding() != outstanding - 1) {
                    fuzz::broken("a match is the request with this sequence and token");
                }
                break;
            case reply_matcher::verdict::wrong_token:
                if (header->sequence >= requests_in_flight || ours) {
                    fuzz::broken("a wrong token is one of a request in flight");
                }
                [[fallthrough]];
            case reply_matcher::verdict::duplicate:
            case reply_matcher::verdict::unknown:
                if (matcher.outstanding() != outstanding) {
                    fuzz::broken("only a match settles a request");
                }
                break;
        }
    }
    if (matcher.abandon_outstanding() > requests_in_flight || matcher.outstanding() != 0) {
        fuzz::broken("abandoning settles every request still in flight");
    }
    return 0;
}
