// SPDX-License-Identifier: Apache-2.0
#include "report/histogram_log.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using sctp_perf::encode_compressed_histogram;
using sctp_perf::encode_histogram;
using sctp_perf::histogram_log_writer;
using sctp_perf::log_linear_histogram;

namespace {

// A reader written from HdrHistogram's format description, independent of the
// encoder: base64 -> outer header -> inflate -> V2 header -> ZigZag counts.

std::vector<std::uint8_t> from_base64(const std::string& text) {
    const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<std::uint8_t> bytes;
    std::uint32_t bits = 0;
    int bit_count = 0;
    for (char c : text) {
        if (c == '=') {
            break;
        }
        const auto digit = alphabet.find(c);
        REQUIRE(digit != std::string::npos);
        bits = (bits << 6) | static_cast<std::uint32_t>(digit);
        bit_count += 6;
        if (bit_count >= 8) {
            bit_count -= 8;
            bytes.push_back(static_cast<std::uint8_t>(bits >> bit_count));
        }
    }
    return bytes;
}

std::uint64_t big_endian(const std::vector<std::uint8_t>& bytes, std::size_t at, int size) {
    std::uint64_t value = 0;
    for (int i = 0; i < size; ++i) {
        value = (value << 8) | bytes.at(at + i);
    }
    return value;
}

struct decoded_histogram {
    std::uint64_t cookie = 0;
    std::uint64_t payload_bytes = 0;
    std::uint64_t normalizing_index_offset = 0;
    std::uint64_t significant_digits = 0;
    std::uint64_t lowest_discernible_value = 0;
    std::uint64_t highest_trackable_value = 0;
    double conversion_ratio = 0.0;
    std::vector<std::uint64_t> counts;
};

decoded_histogram decode(const std::vector<std::uint8_t>& plain) {
    decoded_histogram d;
    d.cookie = big_endian(plain, 0, 4);
    d.payload_bytes = big_endian(plain, 4, 4);
    d.normalizing_index_offset = big_endian(plain, 8, 4);
    d.significant_digits = big_endian(plain, 12, 4);
    d.lowest_discernible_value = big_endian(plain, 16, 8);
    d.highest_trackable_value = big_endian(plain, 24, 8);
    d.conversion_ratio = std::bit_cast<double>(big_endian(plain, 32, 8));
    REQUIRE(plain.size() == 40 + d.payload_bytes);
    std::size_t at = 40;
    while (at < plain.size()) {
        std::uint64_t zigzag = 0;
        for (int shift = 0;; shift += 7) {
            const std::uint8_t byte = plain.at(at++);
            if (shift == 56) {
                zigzag |= std::uint64_t{byte} << 56;  // the 9th byte is whole
                break;
            }
            zigzag |= std::uint64_t{byte & 0x7fu} << shift;
            if ((byte & 0x80) == 0) {
                break;
            }
        }
        const auto value =
            static_cast<std::int64_t>(zigzag >> 1) ^ -static_cast<std::int64_t>(zigzag & 1);
        if (value < 0) {
            d.counts.insert(d.counts.end(), static_cast<std::size_t>(-value), 0);
        } else {
            d.counts.push_back(static_cast<std::uint64_t>(value));
        }
    }
    return d;
}

decoded_histogram decode_compressed(const std::string& text) {
    const std::vector<std::uint8_t> outer = from_base64(text);
    REQUIRE(big_endian(outer, 0, 4) == 0x1c849314);
    REQUIRE(big_endian(outer, 4, 4) == outer.size() - 8);
    std::vector<std::uint8_t> plain(1 << 20);
    uLongf plain_bytes = plain.size();
    REQUIRE(uncompress(plain.data(), &plain_bytes, outer.data() + 8, outer.size() - 8) == Z_OK);
    plain.resize(plain_bytes);
    return decode(plain);
}

// Values 1, 1, 5 and 3000 ns.
//   1 and 5 sit in exact buckets 1 and 5. 3000 has top bit 11, so its
//   bucket width is 2^(11-10) = 2 and its index 2048 + (3000 >> 1) - 1024 =
//   2524, covering 3000..3001.
//   counts: [0]=0, [1]=2, [2..4]=0 (3 zeros), [5]=1, [6..2523]=0 (2518 zeros),
//   [2524]=1, and nothing after the bucket of the maximum.
//   ZigZag: n >= 0 -> 2n, n < 0 -> -2n - 1.
//     0 -> 0x00 (a lone zero is a count), 2 -> 0x04, -3 -> 5 -> 0x05,
//     1 -> 0x02, -2518 -> 5035 = 39 * 128 + 43 -> 0xab (43 | 0x80), 0x27 (39),
//     1 -> 0x02: seven payload bytes.
log_linear_histogram small_histogram() {
    log_linear_histogram h;
    for (std::uint64_t v : {1, 1, 5, 3000}) {
        h.record(v);
    }
    return h;
}

}  // namespace

TEST_CASE("histogram_log: V2 encoding of a hand-checked histogram", "[hdr]") {
    const std::vector<std::uint8_t> expected = {
        0x1c, 0x84, 0x93, 0x13,                          // V2 encoding cookie
        0x00, 0x00, 0x00, 0x07,                          // payload: 7 bytes
        0x00, 0x00, 0x00, 0x00,                          // normalizing index offset
        0x00, 0x00, 0x00, 0x03,                          // 3 significant digits
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,  // lowest discernible value 1
        0x00, 0x00, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff,  // highest trackable 2^44 - 1
        0x3f, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // conversion ratio 1.0
        0x00, 0x04, 0x05, 0x02, 0xab, 0x27, 0x02,        // counts, see small_histogram
    };
    CHECK(encode_histogram(small_histogram()) == expected);
}

TEST_CASE("histogram_log: an empty histogram encodes one zero count", "[hdr]") {
    const auto bytes = encode_histogram(log_linear_histogram{});
    REQUIRE(bytes.size() == 41);
    CHECK(big_endian(bytes, 4, 4) == 1);
    CHECK(bytes[40] == 0x00);
}

TEST_CASE("histogram_log: compressed encoding decodes to the same counts", "[hdr]") {
    log_linear_histogram h;
    // A spread over every range: exact buckets, many octaves, the top bucket
    // [2^44 - 2^33, 2^44) and a value beyond it, which shares the top bucket.
    for (std::uint64_t v = 1; v < 100'000'000; v = v * 3 + 1) {
        h.record(v);
        h.record(v);
    }
    h.record((std::uint64_t{1} << 44) - 1);
    h.record(std::uint64_t{1} << 50);

    const decoded_histogram d = decode_compressed(encode_compressed_histogram(h));
    CHECK(d.cookie == 0x1c849313);
    CHECK(d.normalizing_index_offset == 0);
    CHECK(d.significant_digits == 3);
    CHECK(d.lowest_discernible_value == 1);
    CHECK(d.highest_trackable_value == (std::uint64_t{1} << 44) - 1);
    CHECK(d.conversion_ratio == 1.0);
    // The encoding ends at the last non-zero bucket, here the very last one.
    REQUIRE(d.counts.size() == h.counts().size());
    CHECK(std::equal(d.counts.begin(), d.counts.end(), h.counts().begin()));
    CHECK(d.counts.back() == 2);
}

TEST_CASE("histogram_log: small histogram survives compression", "[hdr]") {
    const log_linear_histogram h = small_histogram();
    const decoded_histogram d = decode_compressed(encode_compressed_histogram(h));
    REQUIRE(d.counts.size() == 2525);  // up to and including bucket 2524
    CHECK(std::equal(d.counts.begin(), d.counts.end(), h.counts().begin()));
}

TEST_CASE("histogram_log: header lines", "[hdr]") {
    std::ostringstream out;
    // 1700000000.123 s since the epoch is Tuesday 14 November 2023, 22:13:20 UTC.
    const std::chrono::system_clock::time_point start{std::chrono::milliseconds(1'700'000'000'123)};
    histogram_log_writer writer(out, start);
    CHECK(out.str() ==
          "#[Histogram log format version 1.3]\n"
          "#[StartTime: 1700000000.123 (seconds since epoch), Tue Nov 14 22:13:20 UTC 2023]\n"
          "#[BaseTime: 1700000000.123 (seconds since epoch)]\n"
          "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
          "\"Interval_Compressed_Histogram\"\n");
}

TEST_CASE("histogram_log: the start time is rounded to the nearest millisecond", "[hdr]") {
    // A start read back on the wall clock lands a few microseconds either
    // side of the instant asked for (--start-at); both sides give the instant.
    const auto start_line = [](std::chrono::nanoseconds since_epoch) {
        std::ostringstream out;
        histogram_log_writer writer(out, std::chrono::system_clock::time_point{since_epoch});
        const auto text = out.str();
        const auto begin = text.find("#[StartTime: ") + 13;
        return text.substr(begin, text.find(' ', begin) - begin);
    };
    using std::chrono::microseconds;
    const std::chrono::nanoseconds instant = std::chrono::seconds(1'795'701'900);
    CHECK(start_line(instant - microseconds(3)) == "1795701900.000");
    CHECK(start_line(instant + microseconds(3)) == "1795701900.000");
    // 0.1234 s rounds down to .123, 0.1236 s up to .124.
    CHECK(start_line(instant + microseconds(123'400)) == "1795701900.123");
    CHECK(start_line(instant + microseconds(123'600)) == "1795701900.124");
}

TEST_CASE("histogram_log: interval lines", "[hdr]") {
    std::ostringstream out;
    histogram_log_writer writer(out, std::chrono::system_clock::time_point{});
    const std::string header = out.str();
    const log_linear_histogram h = small_histogram();
    const std::string histogram = encode_compressed_histogram(h);

    // Start 1.2345 s rounds half up to 1.235; length 1 s. The maximum, 3000 ns,
    // is reported as the top of its bucket, 3001 ns = 0.003001 ms -> 0.003.
    writer.write_interval(std::chrono::nanoseconds(1'234'500'000), std::chrono::seconds(1), h);
    writer.write_interval(std::chrono::nanoseconds(1'234'500'000), std::chrono::seconds(1), h,
                          "uncorrected");
    CHECK(out.str().substr(header.size()) == "1.235,1.000,0.003," + histogram + "\n" +
                                                 "Tag=uncorrected,1.235,1.000,0.003," + histogram +
                                                 "\n");

    // An empty interval: maximum 0.
    out.str("");
    writer.write_interval(std::chrono::seconds(2), std::chrono::milliseconds(500),
                          log_linear_histogram{});
    CHECK(out.str() == "2.000,0.500,0.000," + encode_compressed_histogram({}) + "\n");
}

TEST_CASE("histogram_log: tags the reader would split are refused", "[hdr]") {
    std::ostringstream out;
    histogram_log_writer writer(out, std::chrono::system_clock::time_point{});
    out.str("");
    const log_linear_histogram h = small_histogram();
    for (const char* tag : {"a,b", "a b", "a\nb"}) {
        CHECK_THROWS_AS(
            writer.write_interval(std::chrono::seconds(0), std::chrono::seconds(1), h, tag),
            std::invalid_argument);
    }
    CHECK(out.str().empty());
}
