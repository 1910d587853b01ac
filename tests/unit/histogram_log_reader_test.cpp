// SPDX-License-Identifier: Apache-2.0
#include "report/histogram_log_reader.hpp"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "report/histogram_log.hpp"

using sctp_perf::decode_compressed_histogram;
using sctp_perf::decode_histogram;
using sctp_perf::encode_compressed_histogram;
using sctp_perf::encode_histogram;
using sctp_perf::histogram_decode_error;
using sctp_perf::log_linear_histogram;

namespace {

void check_same_buckets(const log_linear_histogram& a, const log_linear_histogram& b) {
    REQUIRE(a.counts().size() == b.counts().size());
    for (std::size_t i = 0; i < a.counts().size(); ++i) {
        INFO("bucket " << i);
        REQUIRE(a.counts()[i] == b.counts()[i]);
    }
    CHECK(a.count() == b.count());
}

// The 40-byte V2 header of our layout, then `counts` (ZigZag bytes as given).
std::vector<std::uint8_t> v2_bytes(const std::vector<std::uint8_t>& counts) {
    log_linear_histogram empty;
    auto bytes = encode_histogram(empty);
    bytes.resize(sctp_perf::hdr_v2_header_bytes);
    bytes.insert(bytes.end(), counts.begin(), counts.end());
    const auto payload = static_cast<std::uint32_t>(counts.size());
    for (int i = 0; i < 4; ++i) {
        bytes[4 + i] = static_cast<std::uint8_t>(payload >> (24 - 8 * i));
    }
    return bytes;
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
    constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t group = std::uint32_t{bytes[i]} << 16;
        if (i + 1 < bytes.size())
            group |= std::uint32_t{bytes[i + 1]} << 8;
        if (i + 2 < bytes.size())
            group |= bytes[i + 2];
        text += alphabet[(group >> 18) & 63];
        text += alphabet[(group >> 12) & 63];
        text += i + 1 < bytes.size() ? alphabet[(group >> 6) & 63] : '=';
        text += i + 2 < bytes.size() ? alphabet[group & 63] : '=';
    }
    return text;
}

// The compressed encoding of arbitrary plain bytes, as the encoder frames it.
std::string compressed(const std::vector<std::uint8_t>& plain) {
    uLongf size = compressBound(static_cast<uLong>(plain.size()));
    std::vector<std::uint8_t> out(8 + size);
    REQUIRE(compress2(out.data() + 8, &size, plain.data(), static_cast<uLong>(plain.size()), 9) ==
            Z_OK);
    out.resize(8 + size);
    const std::uint32_t words[] = {sctp_perf::hdr_v2_compressed_encoding_cookie,
                                   static_cast<std::uint32_t>(size)};
    for (int w = 0; w < 2; ++w) {
        for (int i = 0; i < 4; ++i) {
            out[4 * w + i] = static_cast<std::uint8_t>(words[w] >> (24 - 8 * i));
        }
    }
    return base64(out);
}

void check_refused(const std::string& text, const std::string& words) {
    INFO(text.substr(0, 80));
    CHECK_THROWS_WITH(decode_compressed_histogram(text), Catch::Contains(words));
}

}  // namespace

TEST_CASE("histogram decode: encode then decode gives every bucket back") {
    log_linear_histogram h;
    // Exact buckets, wide ones, a run of empty buckets, and a saturated value.
    for (std::uint64_t v :
         {1ull, 1ull, 2047ull, 2048ull, 20'000ull, 20'001ull, 5'000'000ull, (1ull << 44) + 5}) {
        h.record(v);
    }
    const auto decoded = decode_compressed_histogram(encode_compressed_histogram(h));
    check_same_buckets(decoded, h);
    // Extremes known only to the bucket: the lowest value of the lowest
    // bucket, the highest of the highest (the last, for the saturated value).
    CHECK(decoded.min_ns() == 1);
    CHECK(decoded.max_ns() == (1ull << 44) - 1);
    CHECK(
        decode_compressed_histogram(encode_compressed_histogram(log_linear_histogram{})).count() ==
        0);
}

TEST_CASE("histogram decode: a hand-made encoding") {
    // 5 empty buckets (-5, ZigZag 9), 2 values of 5 ns (ZigZag 4), one empty
    // bucket written as count 0, one value of 7 ns (ZigZag 2).
    const auto h = decode_histogram(v2_bytes({9, 4, 0, 2}));
    CHECK(h.count() == 3);
    CHECK(h.counts()[5] == 2);
    CHECK(h.counts()[6] == 0);
    CHECK(h.counts()[7] == 1);
    CHECK(h.min_ns() == 5);
    CHECK(h.max_ns() == 7);
    CHECK(h.percentile_ns(500'000) == 5.0);  // rank 2 of 3
    // A count of 300 takes two bytes: ZigZag 600 = 0x258 -> 0xd8 0x04.
    const auto two_bytes = decode_histogram(v2_bytes({0xd8, 0x04}));
    CHECK(two_bytes.counts()[0] == 300);
}

TEST_CASE("histogram decode: restored extremes bound the percentiles as a client's do") {
    log_linear_histogram h;
    // 40,010 ns lies in [32768, 65536), in buckets 32 ns wide: [40000, 40031].
    for (std::uint64_t v : {3000ull, 3001ull, 40'010ull}) {
        h.record(v);
    }
    auto decoded = decode_compressed_histogram(encode_compressed_histogram(h));
    CHECK(decoded.max_ns() == 40'031);
    CHECK_FALSE(decoded.restore_extremes(3000, 50'000));  // 50 us is not in the top bucket
    REQUIRE(decoded.restore_extremes(3000, 40'010));
    for (std::uint32_t ppm : {500'000u, 990'000u, 1'000'000u}) {
        CHECK(decoded.percentile_ns(ppm) == h.percentile_ns(ppm));
    }
}

TEST_CASE("histogram decode: garbage is refused with a sentence") {
    log_linear_histogram h;
    h.record(1000);
    const auto good = encode_histogram(h);

    auto bad_cookie = good;
    bad_cookie[0] = 0x48;
    check_refused(compressed(bad_cookie), "not HdrHistogram's V2 encoding");

    auto long_payload = good;
    long_payload[7] += 1;
    check_refused(compressed(long_payload), "announces");

    auto digits = good;
    digits[15] = 2;
    check_refused(compressed(digits), "is not ours");

    check_refused(compressed({good.begin(), good.begin() + 20}), "shorter than");
    // A run of 40000 empty buckets (-40000, ZigZag 79999 = 0xff 0xf0 0x04).
    check_refused(compressed(v2_bytes({0xff, 0xf0, 0x04})), "goes past our last");
    check_refused(compressed(v2_bytes({0x80})), "truncated");
    // Two counts of 2^62 each: their sum overflows nothing, four do.
    const std::vector<std::uint8_t> huge = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    std::vector<std::uint8_t> four_huge;
    for (int i = 0; i < 4; ++i) {
        four_huge.insert(four_huge.end(), huge.begin(), huge.end());
    }
    check_refused(compressed(v2_bytes(four_huge)), "more than 2^64");

    const auto text = encode_compressed_histogram(h);
    check_refused(text.substr(0, text.size() - 4), "announces");  // compressed bytes cut off
    check_refused(text + "AAAA", "histogram: ");
    check_refused("HISTFAAA", "too short");
    check_refused("AAAAAAAAAAAA", "not HdrHistogram's V2 compressed encoding");
    check_refused("ab!d", "not base64");
    check_refused("abc", "multiple of 4");
    check_refused("", "multiple of 4");
    check_refused(std::string(sctp_perf::longest_compressed_histogram_text + 4, 'A'),
                  "more than any histogram");
    // 400 kB of zeros deflate to a few hundred bytes but inflate beyond any
    // encoding of ours.
    check_refused(compressed(std::vector<std::uint8_t>(400'000, 0)), "inflates to more than");
    // Not zlib data at all behind a valid outer header.
    std::vector<std::uint8_t> junk = {0x1c, 0x84, 0x93, 0x14, 0, 0, 0, 4, 1, 2, 3, 4};
    check_refused(base64(junk), "not zlib data");
}

TEST_CASE("histogram log reader: reads back what the writer wrote") {
    std::ostringstream out;
    using namespace std::chrono;
    const system_clock::time_point start{milliseconds(1'700'000'000'123)};
    sctp_perf::histogram_log_writer writer(out, start);
    log_linear_histogram a;
    a.record(1500);
    a.record(2'000'000);
    log_linear_histogram b;
    b.record(900);
    writer.write_interval(milliseconds(0), milliseconds(1000), a);
    writer.write_interval(milliseconds(0), milliseconds(1000), b, "uncorrected");
    writer.write_interval(milliseconds(1000), milliseconds(412), b);

    std::istringstream in(out.str());
    const auto log = sctp_perf::read_histogram_log(in, "x.hlog");
    CHECK(log.start_time_ms == 1'700'000'000'123);
    CHECK(log.base_time_ms == 1'700'000'000'123);
    REQUIRE(log.intervals.size() == 3);
    CHECK(log.intervals[0].tag.empty());
    CHECK(log.intervals[0].count == 2);
    CHECK(log.intervals[1].tag == "uncorrected");
    CHECK(log.intervals[2].start_ms == 1000);
    CHECK(log.intervals[2].length_ms == 412);
    check_same_buckets(decode_compressed_histogram(log.intervals[0].histogram_base64), a);
}

TEST_CASE("histogram log reader: refuses what it cannot place or decode") {
    const auto refused = [](const std::string& text, const std::string& words) {
        std::istringstream in(text);
        INFO(text);
        CHECK_THROWS_WITH(sctp_perf::read_histogram_log(in, "x.hlog"), Catch::Contains(words));
    };
    log_linear_histogram h;
    h.record(10);
    const auto histogram = encode_compressed_histogram(h);
    const std::string header = "#[StartTime: 100.000 (seconds since epoch), x]\n";
    refused("0.000,1.000,0.0," + histogram + "\n", "neither #[StartTime] nor #[BaseTime]");
    refused(header, "holds no interval");
    refused(header + "0.000,1.000," + histogram + "\n", "x.hlog line 2: 3 fields");
    refused(header + "zero,1.000,0.0," + histogram + "\n", "is not a time in seconds");
    refused(header + "0.000,1.000,0.0,AAAA\n", "x.hlog line 2: histogram:");
    refused("#[BaseTime: soon]\n", "is not a time in seconds");
    // Java's own logs: BaseTime 0 with absolute times; a 4th decimal rounds.
    std::istringstream java(
        "#[BaseTime: 0.000 (seconds since epoch)]\n\"StartTimestamp\",x\n"
        "1700000000.0005,1.000,0.0," +
        histogram + "\r\n");
    const auto log = sctp_perf::read_histogram_log(java, "java.hlog");
    CHECK(log.base_time_ms == 0);
    CHECK(log.intervals.at(0).start_ms == 1'700'000'000'001);
}
