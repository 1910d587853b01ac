// SPDX-License-Identifier: Apache-2.0
#pragma once
// Latency histograms in HdrHistogram's interval-log format, so that the
// HdrHistogram tools (HistogramLogProcessor, HistogramLogAnalyzer, the C and
// Python readers) can read, merge and plot what a run recorded.
//
// An interval log is a text file: a few `#[...]` header lines, a column
// legend, then one line per interval holding that interval's histogram in
// HdrHistogram's "V2 compressed" binary encoding, as base64. A line may carry
// a tag (`Tag=NAME,`), which lets one file hold several series side by side.
//
// The buckets of log_linear_histogram are HdrHistogram's counts array for
// lowest discernible value 1, 3 significant digits and highest trackable
// value 2^44 - 1 (see histogram_log.cpp for why they coincide), so a
// histogram is encoded bucket for bucket, without re-binning. All values are
// nanoseconds.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {

// The header fields every encoded histogram declares, as HdrHistogram names
// them. A reader sizes its own histogram from these.
inline constexpr std::int32_t hdr_significant_digits = 3;
inline constexpr std::int64_t hdr_lowest_discernible_value = 1;
inline constexpr std::int64_t hdr_highest_trackable_value = (std::int64_t{1} << 44) - 1;

// From AbstractHistogram.java: V2EncodingCookieBase (0x1c849303) and
// V2CompressedEncodingCookieBase (0x1c849304), each ORed with 0x10, the word
// size field that V2 no longer uses but still sets. A reader ignores that
// field (bits 4..7).
inline constexpr std::uint32_t hdr_v2_encoding_cookie = 0x1c849313;
inline constexpr std::uint32_t hdr_v2_compressed_encoding_cookie = 0x1c849314;
inline constexpr std::uint32_t hdr_cookie_word_size_bits = 0xf0;
// The V2 header before the counts: cookie, payload length, normalizing
// index offset, significant digits (4 bytes each), lowest discernible value,
// highest trackable value, value conversion ratio (8 bytes each).
inline constexpr std::size_t hdr_v2_header_bytes = 40;

// HdrHistogram's V2 encoding of `h`, before compression: a 40-byte big-endian
// header (cookie 0x1c849313, payload length, normalizing index offset 0,
// significant digits, lowest discernible value, highest trackable value,
// value conversion ratio 1.0 as an IEEE double), then the bucket counts up to
// the last non-zero one as ZigZag LEB128 varints, a run of two or more empty
// buckets written as one negative count. An empty histogram encodes a single
// zero count, as HdrHistogram's own encoder does. Samples of 2^44 ns or more,
// which `h` keeps in its last bucket, appear to a reader as values of that
// bucket, [2^44 - 2^33, 2^44 - 1].
std::vector<std::uint8_t> encode_histogram(const log_linear_histogram& h);

// The base64 text (standard alphabet, padded) of HdrHistogram's V2
// compressed encoding of `h`: cookie 0x1c849314, the length in bytes of what
// follows as a big-endian int32, then encode_histogram(h) deflated in zlib
// format at the best compression level. This is the last column of an
// interval-log line.
std::string encode_compressed_histogram(const log_linear_histogram& h);

// Writes an interval log to `out`, one histogram per call of write_interval.
// The stream is borrowed: it must outlive the writer. Nothing is flushed.
class histogram_log_writer {
  public:
    // Writes the header: the format version, `#[StartTime: ...]` and an equal
    // `#[BaseTime: ...]` (both to the nearest millisecond since the epoch, printed as
    // seconds, with the date in UTC), and the column legend. The explicit
    // BaseTime tells readers that interval timestamps are relative to
    // `start_time`, rather than leaving them to guess. `start_time` must not
    // precede the epoch.
    histogram_log_writer(std::ostream& out, std::chrono::system_clock::time_point start_time);

    // Writes one interval line:
    //   [Tag=TAG,]START,LENGTH,MAX,HISTOGRAM
    // START is `interval_start` (time since the log's start time) and LENGTH
    // is `interval_length`, both in seconds with 3 decimals (rounded half up
    // to the millisecond); both must be >= 0. MAX is the highest value
    // equivalent to the largest sample (the top of its bucket), in
    // milliseconds with 3 decimals, as HdrHistogram's writer reports it; 0 for
    // an empty histogram. HISTOGRAM is encode_compressed_histogram(h).
    // `tag` is empty for an untagged line; otherwise it must hold no comma,
    // space, carriage return or line feed (the reader splits on those), else
    // std::invalid_argument is thrown and nothing is written.
    void write_interval(std::chrono::nanoseconds interval_start,
                        std::chrono::nanoseconds interval_length, const log_linear_histogram& h,
                        std::string_view tag = {});

  private:
    std::ostream& out_;
};

}  // namespace sctp_perf
