// SPDX-License-Identifier: Apache-2.0
#include "report/histogram_log_reader.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <istream>
#include <limits>
#include <optional>
#include <utility>

#include "report/histogram_log.hpp"

namespace sctp_perf {
namespace {

// The longest V2 encoding of our layout: the header, then one count per
// bucket, none longer than 9 bytes. A compressed histogram that inflates to
// more is not ours (or is a zip bomb), and inflating stops there.
constexpr std::size_t longest_encoding_bytes = hdr_v2_header_bytes + 35840 * 9;
static_assert(35840 == log_linear_histogram::counts_size());

[[noreturn]] void refuse(const std::string& why) {
    throw histogram_decode_error(why);
}

std::uint64_t big_endian(std::span<const std::uint8_t> bytes, std::size_t at, int width) {
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) {
        value = (value << 8) | bytes[at + static_cast<std::size_t>(i)];
    }
    return value;
}

bool cookie_is(std::uint32_t cookie, std::uint32_t expected) {
    return (cookie & ~hdr_cookie_word_size_bits) == (expected & ~hdr_cookie_word_size_bits);
}

// HdrHistogram's "LEB128-64b9B" ZigZag varint (see put_zigzag in
// histogram_log.cpp): seven bits a byte, low first, a ninth byte whole.
std::int64_t read_zigzag(std::span<const std::uint8_t> bytes, std::size_t& at) {
    std::uint64_t value = 0;
    for (unsigned i = 0; i < 9; ++i) {
        if (at >= bytes.size()) {
            refuse("histogram: its counts end inside a number (truncated)");
        }
        const std::uint8_t byte = bytes[at++];
        if (i == 8) {
            value |= std::uint64_t{byte} << 56;
            break;
        }
        value |= std::uint64_t{byte & 0x7fu} << (7 * i);
        if ((byte & 0x80) == 0) {
            break;
        }
    }
    return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

void check_header(std::span<const std::uint8_t> encoded) {
    if (encoded.size() < hdr_v2_header_bytes) {
        refuse(fmt::format("histogram: {} bytes, shorter than the {}-byte V2 header",
                           encoded.size(), hdr_v2_header_bytes));
    }
    const auto cookie = static_cast<std::uint32_t>(big_endian(encoded, 0, 4));
    if (!cookie_is(cookie, hdr_v2_encoding_cookie)) {
        refuse(
            fmt::format("histogram: cookie {:#010x} is not HdrHistogram's V2 encoding ({:#010x})",
                        cookie, hdr_v2_encoding_cookie));
    }
    const std::uint64_t payload_bytes = big_endian(encoded, 4, 4);
    if (payload_bytes != encoded.size() - hdr_v2_header_bytes) {
        refuse(fmt::format("histogram: its header announces {} bytes of counts, {} follow",
                           payload_bytes, encoded.size() - hdr_v2_header_bytes));
    }
    const std::uint64_t offset = big_endian(encoded, 8, 4);
    const std::uint64_t digits = big_endian(encoded, 12, 4);
    const std::uint64_t lowest = big_endian(encoded, 16, 8);
    const auto highest = static_cast<std::int64_t>(big_endian(encoded, 24, 8));
    const std::uint64_t ratio = big_endian(encoded, 32, 8);
    if (offset != 0 || digits != static_cast<std::uint64_t>(hdr_significant_digits) ||
        lowest != static_cast<std::uint64_t>(hdr_lowest_discernible_value) ||
        ratio != std::bit_cast<std::uint64_t>(1.0) || highest < 2) {
        refuse(fmt::format(
            "histogram: its layout (lowest discernible value {}, {} significant digits, "
            "highest trackable value {}, normalizing offset {}) is not ours (1, {}, up to {}, 0)",
            lowest, digits, highest, offset, hdr_significant_digits, hdr_highest_trackable_value));
    }
}

}  // namespace

log_linear_histogram decode_histogram(std::span<const std::uint8_t> encoded) {
    check_header(encoded);
    log_linear_histogram h;
    const std::size_t buckets = log_linear_histogram::counts_size();
    std::size_t index = 0;
    for (std::size_t at = hdr_v2_header_bytes; at < encoded.size();) {
        const std::int64_t value = read_zigzag(encoded, at);
        if (value < 0) {  // a run of -value empty buckets
            const std::uint64_t zeros = 0 - static_cast<std::uint64_t>(value);
            if (index > buckets || zeros > buckets - index) {
                refuse(fmt::format("histogram: a run of {} empty buckets goes past our last, {}",
                                   zeros, buckets - 1));
            }
            index += zeros;
            continue;
        }
        if (value > 0 && index >= buckets) {
            refuse(
                fmt::format("histogram: a count beyond our last bucket ({}), for values above "
                            "{} ns",
                            buckets - 1, hdr_highest_trackable_value));
        }
        if (!h.record_bucket(std::min(index, buckets - 1), static_cast<std::uint64_t>(value))) {
            refuse("histogram: its counts add up to more than 2^64");
        }
        ++index;
    }
    return h;
}

namespace {

std::vector<std::uint8_t> from_base64(std::string_view text) {
    if (text.size() > longest_compressed_histogram_text) {
        refuse(
            fmt::format("histogram: {} characters of base64, more than any histogram of ours "
                        "takes ({})",
                        text.size(), longest_compressed_histogram_text));
    }
    if (text.empty() || text.size() % 4 != 0) {
        refuse(
            fmt::format("histogram: {} characters is not base64 (a multiple of 4)", text.size()));
    }
    std::array<int, 256> value{};
    value.fill(-1);
    constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (std::size_t i = 0; i < alphabet.size(); ++i) {
        value[static_cast<unsigned char>(alphabet[i])] = static_cast<int>(i);
    }
    const std::size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
    std::vector<std::uint8_t> bytes;
    bytes.reserve(text.size() / 4 * 3);
    std::uint32_t group = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool pad = i >= text.size() - padding;
        const int digit = pad ? 0 : value[static_cast<unsigned char>(text[i])];
        if (digit < 0) {
            refuse(fmt::format("histogram: character {} of its base64 is not base64", i + 1));
        }
        group = (group << 6) | static_cast<std::uint32_t>(digit);
        if (i % 4 == 3) {
            for (int shift = 16; shift >= 0; shift -= 8) {
                bytes.push_back(static_cast<std::uint8_t>(group >> shift));
            }
            group = 0;
        }
    }
    bytes.resize(bytes.size() - padding);
    return bytes;
}

// zlib's inflate of `deflated`, stopping with a refusal at `limit` bytes.
std::vector<std::uint8_t> inflate_bounded(std::span<const std::uint8_t> deflated,
                                          std::size_t limit) {
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK) {
        throw std::bad_alloc();
    }
    std::vector<std::uint8_t> plain(limit + 1);
    stream.next_in = const_cast<Bytef*>(deflated.data());  // zlib's API is not const-correct
    stream.avail_in = static_cast<uInt>(deflated.size());
    stream.next_out = plain.data();
    stream.avail_out = static_cast<uInt>(plain.size());
    const int status = inflate(&stream, Z_FINISH);
    const std::size_t produced = plain.size() - stream.avail_out;
    const std::size_t unused = stream.avail_in;
    inflateEnd(&stream);
    if (status == Z_STREAM_END && unused != 0) {
        refuse(fmt::format("histogram: {} bytes follow its compressed counts", unused));
    }
    if (status == Z_STREAM_END) {
        plain.resize(produced);
        return plain;
    }
    if (produced > limit) {
        refuse(fmt::format("histogram: it inflates to more than {} bytes, more than any of ours",
                           limit));
    }
    if (status == Z_DATA_ERROR || status == Z_NEED_DICT) {
        refuse("histogram: its compressed counts are not zlib data");
    }
    refuse("histogram: its compressed counts end early (truncated)");
}

}  // namespace

log_linear_histogram decode_compressed_histogram(std::string_view base64_text) {
    const std::vector<std::uint8_t> bytes = from_base64(base64_text);
    if (bytes.size() < 8) {
        refuse(
            fmt::format("histogram: {} bytes, too short for a compressed histogram", bytes.size()));
    }
    const auto cookie = static_cast<std::uint32_t>(big_endian(bytes, 0, 4));
    if (!cookie_is(cookie, hdr_v2_compressed_encoding_cookie)) {
        refuse(fmt::format(
            "histogram: cookie {:#010x} is not HdrHistogram's V2 compressed encoding ({:#010x})",
            cookie, hdr_v2_compressed_encoding_cookie));
    }
    const std::uint64_t deflated_bytes = big_endian(bytes, 4, 4);
    if (deflated_bytes != bytes.size() - 8) {
        refuse(fmt::format("histogram: its header announces {} compressed bytes, {} follow",
                           deflated_bytes, bytes.size() - 8));
    }
    const auto plain = inflate_bounded(std::span(bytes).subspan(8), longest_encoding_bytes);
    return decode_histogram(plain);
}

namespace {

// "S", "S.f", "S.fff...": seconds as the log writes them, into whole
// milliseconds (rounded half up beyond 3 decimals). nullopt when the text is
// not that or exceeds what 64 bits of milliseconds hold.
std::optional<std::int64_t> read_seconds_ms(std::string_view text) {
    const auto point = text.find('.');
    const auto whole = text.substr(0, point);
    std::string_view fraction;
    if (point != std::string_view::npos) {
        fraction = text.substr(point + 1);
    }
    std::int64_t seconds = 0;
    const auto [stop, error] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
    if (whole.empty() || whole.front() == '-' || error != std::errc() ||
        stop != whole.data() + whole.size() ||
        (point != std::string_view::npos && fraction.empty()) ||
        seconds > std::numeric_limits<std::int64_t>::max() / 1000 - 1) {
        return std::nullopt;
    }
    std::int64_t ms = 0;
    for (std::size_t i = 0; i < fraction.size(); ++i) {
        if (fraction[i] < '0' || fraction[i] > '9') {
            return std::nullopt;
        }
        const int digit = fraction[i] - '0';
        if (i < 3) {
            ms = ms * 10 + digit;
        } else if (i == 3 && digit >= 5) {
            ++ms;
        }
    }
    for (std::size_t i = fraction.size(); i < 3; ++i) {
        ms *= 10;
    }
    return seconds * 1000 + ms;
}

// The seconds of a "#[StartTime: 1764120000.123 (seconds since epoch), ...]"
// header; nullopt when `line` is not the header `name`.
std::optional<std::string_view> header_value(std::string_view line, std::string_view name) {
    if (!line.starts_with("#[") || line.substr(2).substr(0, name.size()) != name ||
        line.substr(2 + name.size()).substr(0, 2) != ": ") {
        return std::nullopt;
    }
    auto value = line.substr(4 + name.size());
    return value.substr(0, value.find(' '));
}

// Splits `line` at commas into at most `n` fields, the last taking the rest.
std::vector<std::string_view> split_fields(std::string_view line, std::size_t n) {
    std::vector<std::string_view> fields;
    while (fields.size() + 1 < n) {
        const auto comma = line.find(',');
        if (comma == std::string_view::npos) {
            break;
        }
        fields.push_back(line.substr(0, comma));
        line.remove_prefix(comma + 1);
    }
    fields.push_back(line);
    return fields;
}

histogram_log_interval read_interval(std::string_view line) {
    histogram_log_interval interval{};
    if (line.starts_with("Tag=")) {
        const auto comma = line.find(',');
        if (comma == std::string_view::npos) {
            refuse("a Tag= with nothing after it");
        }
        interval.tag = std::string(line.substr(4, comma - 4));
        line.remove_prefix(comma + 1);
    }
    const auto fields = split_fields(line, 4);
    if (fields.size() != 4) {
        refuse(fmt::format("{} fields, not START,LENGTH,MAX,HISTOGRAM", fields.size()));
    }
    const auto start_ms = read_seconds_ms(fields[0]);
    const auto length_ms = read_seconds_ms(fields[1]);
    if (!start_ms || !length_ms) {
        refuse(fmt::format("its start '{}' or length '{}' is not a time in seconds", fields[0],
                           fields[1]));
    }
    interval.start_ms = *start_ms;
    interval.length_ms = *length_ms;
    interval.count = decode_compressed_histogram(fields[3]).count();
    interval.histogram_base64 = std::string(fields[3]);
    return interval;
}

}  // namespace

histogram_log read_histogram_log(std::istream& in, const std::string& source) {
    histogram_log log;
    std::optional<std::int64_t> start_ms;
    std::optional<std::int64_t> base_ms;
    std::string line;
    std::size_t bytes_read = 0;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        bytes_read += line.size() + 1;
        if (bytes_read > longest_log_bytes) {
            refuse(fmt::format("{}: longer than {} bytes, more than this program reads", source,
                               longest_log_bytes));
        }
        std::string_view text = line;
        if (text.ends_with('\r')) {
            text.remove_suffix(1);
        }
        if (text.empty() || text.starts_with("\"StartTimestamp\"")) {
            continue;
        }
        const std::pair<std::string_view, std::optional<std::int64_t>*> headers[] = {
            {"StartTime", &start_ms}, {"BaseTime", &base_ms}};
        for (const auto& [name, target] : headers) {
            if (const auto value = header_value(text, name)) {
                *target = read_seconds_ms(*value);
                if (!*target) {
                    refuse(fmt::format("{} line {}: its {} '{}' is not a time in seconds", source,
                                       number, name, *value));
                }
            }
        }
        if (text.starts_with('#')) {
            continue;
        }
        try {
            log.intervals.push_back(read_interval(text));
        } catch (const histogram_decode_error& e) {
            refuse(fmt::format("{} line {}: {}", source, number, e.what()));
        }
    }
    if (in.bad()) {
        refuse(fmt::format("{}: reading failed", source));
    }
    if (!start_ms && !base_ms) {
        refuse(
            fmt::format("{} has neither #[StartTime] nor #[BaseTime], so its intervals "
                        "cannot be placed in time: is it an interval log?",
                        source));
    }
    if (log.intervals.empty()) {
        refuse(fmt::format("{} holds no interval", source));
    }
    log.base_time_ms = base_ms.value_or(*start_ms);
    log.start_time_ms = start_ms.value_or(*base_ms);
    return log;
}

}  // namespace sctp_perf
