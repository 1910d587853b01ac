// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading back what histogram_log.hpp writes: HdrHistogram's V2 (compressed)
// histogram encoding, and interval logs, whether ours or another writer's
// that uses the same histogram layout. The bytes come from outside (a file a
// user hands over), so every length is checked before it is trusted, and
// anything malformed is refused with one sentence, never a crash.
//
// Only histograms whose counts array is ours can be read: lowest discernible
// value 1, 3 significant digits, integer values (conversion ratio 1.0), no
// normalizing offset, and no count beyond our last bucket (HdrHistogram's
// counts index for 2^44 - 1 ns). A smaller highest trackable value is a
// prefix of our array and is read as it is. All values are nanoseconds.

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {

// The longest base64 text decode_compressed_histogram takes: the compressed
// encoding of a histogram with a large count in every one of our buckets
// takes less. Anything longer is refused before it is decoded.
inline constexpr std::size_t longest_compressed_histogram_text = 1'000'000;

// The inverse of encode_histogram: a V2 encoding (cookie 0x1c849313, or any
// word-size nibble, as HdrHistogram's reader accepts) into a histogram whose
// samples are counted by log_linear_histogram::record_bucket. Throws
// histogram_decode_error.
log_linear_histogram decode_histogram(std::span<const std::uint8_t> encoded);

// The inverse of encode_compressed_histogram: base64, then the compressed
// header (cookie 0x1c849314, deflated length), then zlib inflate of at most
// what the largest V2 encoding of our layout can take, then
// decode_histogram. Throws histogram_decode_error.
log_linear_histogram decode_compressed_histogram(std::string_view base64_text);

// One line of an interval log. Times are whole milliseconds, as the log's
// text has them (3 decimals of a second). The histogram stays encoded (it
// was decoded once, to check it): a decoded one takes 280 KiB, an hour of
// one-second intervals would take gigabytes.
struct histogram_log_interval {
    std::string tag;               // empty for an untagged line
    std::int64_t start_ms = 0;     // since the log's base time
    std::int64_t length_ms = 0;    // the interval's length
    std::string histogram_base64;  // as decode_compressed_histogram takes it
    std::uint64_t count = 0;       // how many values the histogram holds
};

struct histogram_log {
    // Milliseconds since the epoch that the intervals' start times count
    // from: #[BaseTime] if given, else #[StartTime].
    std::int64_t base_time_ms = 0;
    std::int64_t start_time_ms = 0;                 // #[StartTime], or the base time without one
    std::vector<histogram_log_interval> intervals;  // in the log's order
};

// Reads an interval log: `#` comment and header lines, the column legend,
// and `[Tag=NAME,]START,LENGTH,MAX,HISTOGRAM` lines; blank lines are skipped.
// `source` names it in every message. Throws histogram_decode_error naming
// the line, for a line that does not parse or a histogram that does not
// decode, and for a log with neither #[StartTime] nor #[BaseTime] (its
// intervals cannot be placed in time) or with no interval. Reads at most
// `longest_log_bytes`, then refuses.
inline constexpr std::size_t longest_log_bytes = std::size_t{1} << 30;
histogram_log read_histogram_log(std::istream& in, const std::string& source);

}  // namespace sctp_perf
