// SPDX-License-Identifier: Apache-2.0
// HdrHistogram's encodings as sctp-perf-compare --merge and --merge-logs
// read them from files a user hands over: the same input as a plain V2
// encoding (decode_histogram), as the base64 text of a compressed one
// (decode_compressed_histogram, the reports' "hdr_histogram") and as an
// interval log (read_histogram_log). Only histogram_decode_error may escape;
// whatever decodes must encode and decode again to the same buckets.

#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

#include "replay_channel.hpp"
#include "report/histogram_log.hpp"
#include "report/histogram_log_reader.hpp"

using namespace sctp_perf;

namespace {

void check_round_trip(const log_linear_histogram& h) {
    const auto again = decode_compressed_histogram(encode_compressed_histogram(h));
    if (again.count() != h.count() ||
        !std::equal(again.counts().begin(), again.counts().end(), h.counts().begin())) {
        fuzz::broken("a decoded histogram encodes and decodes to the same buckets");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        check_round_trip(decode_histogram(std::span(data, size)));
    } catch (const histogram_decode_error&) {
    }
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        check_round_trip(decode_compressed_histogram(text));
    } catch (const histogram_decode_error&) {
    }
    try {
        std::istringstream in{std::string(text)};
        const auto log = read_histogram_log(in, "fuzz.hlog");
        for (const auto& line : log.intervals) {
            if (decode_compressed_histogram(line.histogram_base64).count() != line.count) {
                fuzz::broken("an interval's count is that of its histogram");
            }
        }
    } catch (const histogram_decode_error&) {
    }
    return 0;
}
