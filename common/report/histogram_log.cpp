// SPDX-License-Identifier: Apache-2.0
#include "report/histogram_log.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <array>
#include <bit>
#include <ostream>
#include <stdexcept>

// Why our buckets are HdrHistogram's counts array, index for index.
//
// HdrHistogram (hdr_histogram.c, AbstractHistogram.java) with lowest
// discernible value 1 and 3 significant digits has unit_magnitude 0,
// sub_bucket_count 2048 (the power of two >= 2 * 10^3), sub_bucket_half_count
// 1024 (magnitude 10) and sub_bucket_mask 2047. For a value v it computes
//   bucket_index     = bit_width(v | 2047) - 11
//   sub_bucket_index = v >> bucket_index
//   counts_index     = (bucket_index + 1) * 1024 + sub_bucket_index - 1024.
// For v < 2048 that is bucket 0, sub-bucket v, index v: our exact buckets.
// For v with top bit t >= 11 it is bucket t - 10, sub-bucket v >> (t - 10)
// in [1024, 2048), index (t - 10) * 1024 + (v >> (t - 10)); ours is
// 2048 + (shift - 1) * 1024 + (v >> shift) - 1024 with shift = t - 10, the
// same number. HdrHistogram sizes the array as (bucket_count + 1) * 1024,
// where bucket_count is the number of doublings from 2048 needed to exceed
// the highest trackable value; for any value in [2^43, 2^44) that is 34, so
// 35 * 1024 = 35840 entries, exactly our bucket count (2048 + 33 * 1024).
// We declare 2^44 - 1, the largest of those, so that a reader's top bucket
// ends where ours does and its array is ours, with no resizing.

namespace sctp_perf {
namespace {

constexpr std::size_t payload_length_offset = 4;

void put_big_endian(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
        out.push_back(static_cast<std::uint8_t>(value >> shift));
    }
}

void patch_big_endian_32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        out[at + i] = static_cast<std::uint8_t>(value >> (24 - 8 * i));
    }
}

// HdrHistogram's "LEB128-64b9B" ZigZag varint (ZigZagEncoding.java): seven
// bits per byte, low bits first, high bit set when more follow; a ninth byte,
// when needed, carries the last eight bits whole, so no value takes 10 bytes.
void put_zigzag(std::vector<std::uint8_t>& out, std::int64_t value) {
    std::uint64_t zigzag =
        (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
    for (int i = 0; i < 8; ++i) {
        if ((zigzag >> 7) == 0) {
            out.push_back(static_cast<std::uint8_t>(zigzag));
            return;
        }
        out.push_back(static_cast<std::uint8_t>((zigzag & 0x7f) | 0x80));
        zigzag >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(zigzag));
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
    constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t group =
            (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
        for (int shift = 18; shift >= 0; shift -= 6) {
            text.push_back(alphabet[(group >> shift) & 0x3f]);
        }
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        std::uint32_t group = std::uint32_t{bytes[i]} << 16;
        if (rest == 2) {
            group |= std::uint32_t{bytes[i + 1]} << 8;
        }
        text.push_back(alphabet[(group >> 18) & 0x3f]);
        text.push_back(alphabet[(group >> 12) & 0x3f]);
        text.push_back(rest == 2 ? alphabet[(group >> 6) & 0x3f] : '=');
        text.push_back('=');
    }
    return text;
}

// "N.nnn" for a whole number of thousandths (ms as s, µs as ms); integer
// arithmetic, so the text never depends on how a double happens to round.
std::string thousandths(std::uint64_t value) {
    return fmt::format("{}.{:03}", value / 1000, value % 1000);
}

std::uint64_t rounded_milliseconds(std::chrono::nanoseconds duration) {
    if (duration.count() < 0) {
        throw std::invalid_argument("histogram log: interval times must not be negative");
    }
    return (static_cast<std::uint64_t>(duration.count()) + 500'000) / 1'000'000;
}

// Java's Date.toString() layout, "Thu Jan 01 00:00:00 UTC 1970", in UTC so
// that the text depends only on the time, not on the machine's time zone.
std::string human_date_utc(std::chrono::sys_days day, std::chrono::milliseconds time_of_day) {
    constexpr std::array<std::string_view, 7> weekdays = {"Sun", "Mon", "Tue", "Wed",
                                                          "Thu", "Fri", "Sat"};
    constexpr std::array<std::string_view, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::chrono::year_month_day date{day};
    const std::chrono::hh_mm_ss clock{time_of_day};
    return fmt::format(
        "{} {} {:02} {:02}:{:02}:{:02} UTC {}", weekdays[std::chrono::weekday{day}.c_encoding()],
        months[static_cast<unsigned>(date.month()) - 1], static_cast<unsigned>(date.day()),
        clock.hours().count(), clock.minutes().count(), clock.seconds().count(),
        static_cast<int>(date.year()));
}

}  // namespace

std::vector<std::uint8_t> encode_histogram(const log_linear_histogram& h) {
    const auto counts = h.counts();
    std::vector<std::uint8_t> out;
    out.reserve(hdr_v2_header_bytes + 64);
    put_big_endian(out, hdr_v2_encoding_cookie, 4);
    put_big_endian(out, 0, 4);  // payload length, patched below
    put_big_endian(out, 0, 4);  // normalizing index offset: no shifted arrays here
    put_big_endian(out, hdr_significant_digits, 4);
    put_big_endian(out, hdr_lowest_discernible_value, 8);
    put_big_endian(out, hdr_highest_trackable_value, 8);
    put_big_endian(out, std::bit_cast<std::uint64_t>(1.0), 8);  // integer histogram

    // HdrHistogram stops at the bucket of the maximum, i.e. the last non-zero
    // count, but always writes at least one count.
    std::size_t limit = counts.size();
    while (limit > 1 && counts[limit - 1] == 0) {
        --limit;
    }
    for (std::size_t i = 0; i < limit;) {
        const std::uint64_t count = counts[i++];
        std::int64_t zeros = 0;
        if (count == 0) {
            zeros = 1;
            while (i < limit && counts[i] == 0) {
                ++zeros;
                ++i;
            }
        }
        // A lone empty bucket is written as count 0 rather than a run of -1,
        // as HdrHistogram's encoder does, so that our bytes equal its bytes.
        put_zigzag(out, zeros > 1 ? -zeros : static_cast<std::int64_t>(count));
    }
    patch_big_endian_32(out, payload_length_offset,
                        static_cast<std::uint32_t>(out.size() - hdr_v2_header_bytes));
    return out;
}

std::string encode_compressed_histogram(const log_linear_histogram& h) {
    const std::vector<std::uint8_t> plain = encode_histogram(h);
    uLongf deflated_bytes = compressBound(static_cast<uLong>(plain.size()));
    std::vector<std::uint8_t> out(8 + deflated_bytes);
    // Java's Deflater and zlib's compress2 both write the zlib format (RFC
    // 1950, with header and Adler-32), which is what every reader inflates.
    const int status = compress2(out.data() + 8, &deflated_bytes, plain.data(),
                                 static_cast<uLong>(plain.size()), Z_BEST_COMPRESSION);
    if (status != Z_OK) {
        // With a compressBound-sized buffer and a valid level, running out of
        // memory is the only way to fail.
        throw std::bad_alloc();
    }
    out.resize(8 + deflated_bytes);
    patch_big_endian_32(out, 0, hdr_v2_compressed_encoding_cookie);
    patch_big_endian_32(out, 4, static_cast<std::uint32_t>(deflated_bytes));
    return base64(out);
}

histogram_log_writer::histogram_log_writer(std::ostream& out,
                                           std::chrono::system_clock::time_point start_time)
    : out_(out) {
    using namespace std::chrono;
    // Rounded, as the intervals' timestamps are: a start a few microseconds
    // before a whole second (--start-at's instant, read back on the wall
    // clock) is written as that second, not a millisecond before it.
    const auto start_ms = round<milliseconds>(start_time).time_since_epoch();
    if (start_ms.count() < 0) {
        throw std::invalid_argument("histogram log: start time precedes the epoch");
    }
    const auto seconds_text = thousandths(static_cast<std::uint64_t>(start_ms.count()));
    const auto day = floor<days>(sys_time<milliseconds>{start_ms});
    const auto date = human_date_utc(day, start_ms - day.time_since_epoch());
    out_ << "#[Histogram log format version 1.3]\n"
         << "#[StartTime: " << seconds_text << " (seconds since epoch), " << date << "]\n"
         << "#[BaseTime: " << seconds_text << " (seconds since epoch)]\n"
         << "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
            "\"Interval_Compressed_Histogram\"\n";
}

void histogram_log_writer::write_interval(std::chrono::nanoseconds interval_start,
                                          std::chrono::nanoseconds interval_length,
                                          const log_linear_histogram& h, std::string_view tag) {
    if (tag.find_first_of(", \r\n") != std::string_view::npos) {
        throw std::invalid_argument(
            fmt::format("histogram log: tag '{}' holds a comma, space or line break", tag));
    }
    const std::uint64_t start_ms = rounded_milliseconds(interval_start);
    const std::uint64_t length_ms = rounded_milliseconds(interval_length);
    std::uint64_t max_equivalent_ns = 0;
    if (h.count() > 0) {
        const std::size_t top = log_linear_histogram::bucket_index(h.max_ns());
        max_equivalent_ns =
            log_linear_histogram::bucket_low(top) + log_linear_histogram::bucket_width(top) - 1;
    }
    // ns -> ms with 3 decimals is ns -> µs rounded half up, printed as ms.
    const std::uint64_t max_us = (max_equivalent_ns + 500) / 1000;

    std::string line;
    if (!tag.empty()) {
        line = fmt::format("Tag={},", tag);
    }
    line += fmt::format("{},{},{},{}\n", thousandths(start_ms), thousandths(length_ms),
                        thousandths(max_us), encode_compressed_histogram(h));
    out_ << line;
}

}  // namespace sctp_perf
