// The server's decoder of the 16-byte test header, fed any 16 bytes a client
// may send. What an accepted header promises is checked too: the limits of
// wire_protocol.hpp, and that it encodes back to the very bytes received.

#include "protocol/wire_protocol.hpp"
#include "replay_channel.hpp"

using namespace sctp_perf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size != protocol::header_size) {
        return -1;  // the server reads exactly 16 bytes; other sizes teach nothing
    }
    protocol::header_bytes bytes{};
    std::copy_n(fuzz::as_bytes(data, size).begin(), bytes.size(), bytes.begin());
    const auto decoded = protocol::decode_header(bytes);
    if (protocol::describe(decoded.verdict).empty()) {
        fuzz::broken("every verdict has a sentence");
    }
    if (decoded.verdict != protocol::status::accepted) {
        return 0;
    }
    const auto& header = decoded.header;
    if (header.payload_bytes < 1 || header.payload_bytes > protocol::max_payload_bytes) {
        fuzz::broken("an accepted header asks for 1..65536 bytes");
    }
    if (header.mode != protocol::test_mode::ping_pong &&
        header.payload_bytes < protocol::min_load_payload_bytes) {
        fuzz::broken("an accepted framed mode has room for its message header");
    }
    if (header.iterations > protocol::max_iterations) {
        fuzz::broken("an accepted header asks for at most max_iterations");
    }
    if (decoded.peer_version != protocol::version || protocol::encode_header(header) != bytes) {
        fuzz::broken("an accepted header is exactly what encode_header makes of it");
    }
    return 0;
}
