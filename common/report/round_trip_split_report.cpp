// SPDX-License-Identifier: Apache-2.0
#include "report/round_trip_split_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "report/one_way_report.hpp"
#include "report/units.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* beyond_sentence =
    "beyond the client: the network both ways and the server's whole time, from the request "
    "handed to the client's device to the reply's arrival from it";
constexpr const char* receive_only_sentence =
    "the kernel's SCTP stamps only what it receives, so the client's send stack is not told "
    "apart from the network and the server";
constexpr const char* network_sentence =
    "network and server send stack: the network both ways and the server's send path, from "
    "the request handed to the client's device to the reply's arrival from it, less the "
    "server's time from its kernel's arrival stamp to its send of the reply";
constexpr const char* network_alone_sentence =
    "network: the network both ways, from the request handed to the client's device to the "
    "reply's arrival from it, less the server's residence from its kernel's arrival stamp to its "
    "kernel's transmit stamp of the reply";
constexpr const char* server_send_sentence =
    "server send stack: from the server's send of the reply to its kernel's handing it to the "
    "device (the server's transmit stamp, carried in the next reply)";
constexpr const char* receive_only_server_sentence =
    "the kernel's SCTP stamps only what it receives, so the client's send stack is not told "
    "apart from the network and the server's send stack";
constexpr const char* server_sentence =
    "server receive and wake-up: from the server kernel's stamp of the request's arrival to "
    "its application's read of the whole request (its receive path and the wake-up of its "
    "application); server application: from that read to its send of the reply; both by the "
    "server's stamps in every reply (--one-way)";

// What the split says of its parts beyond the client.
std::string note_of(const round_trip_split& split) {
    if (!split.server_stamped()) {
        return split.transmit_stamped() ? beyond_sentence : receive_only_sentence;
    }
    if (split.server_transmit_stamped()) {
        return fmt::format("{}; {}; {}", network_alone_sentence, server_sentence,
                           server_send_sentence);
    }
    return fmt::format("{}; {}",
                       split.transmit_stamped() ? network_sentence : receive_only_server_sentence,
                       server_sentence);
}

// The bands of round trips whose parts' shares the report gives: the
// middle and the slowest.
struct band_of_ranks {
    const char* label;  // the text report's
    const char* key;    // the JSON report's
    std::uint32_t from_ppm;
    std::uint32_t to_ppm;
};
constexpr band_of_ranks share_bands[] = {
    {"the middle, p45 to p55", "p45_to_p55", 450'000, 550'000},
    {"the slowest, p99 and above", "p99_and_above", 990'000, 1'000'000},
};

// The split's parts in the order a round trip passes them, each with its
// title, its JSON key, its distribution and its place in split_band's
// means: the one list every writer here reads. A part the split does not
// have (the send stack without transmit stamps, the server's application
// without the server's stamps) is left empty (null).
struct part_of_split {
    const char* title = nullptr;
    const char* key = nullptr;
    const log_linear_histogram* histogram = nullptr;
    std::size_t band_index = 0;
};
std::array<part_of_split, 6> parts_of(const round_trip_split& split) {
    const bool server = split.server_stamped();
    std::array<part_of_split, 6> parts;
    if (split.transmit_stamped()) {
        parts[0] = {"client send stack", "client_send_stack", &split.send_stack(), 0};
        if (split.server_transmit_stamped()) {
            parts[1] = {"network", "network", &split.beyond_client(), 1};
        } else if (server) {
            parts[1] = {"network and server send stack", "network_and_server_send_stack",
                        &split.beyond_client(), 1};
        } else {
            parts[1] = {"beyond the client", "beyond_the_client", &split.beyond_client(), 1};
        }
    } else {
        parts[0] = server ? part_of_split{"send stack, network and server send stack",
                                          "send_stack_network_and_server_send_stack",
                                          &split.send_stack_and_beyond(), 0}
                          : part_of_split{"send stack and beyond", "send_stack_and_beyond",
                                          &split.send_stack_and_beyond(), 0};
    }
    if (server) {
        parts[2] = {"server receive and wake-up", "server_receive_and_wake_up",
                    &split.server_wake_up(), 4};
        parts[3] = {"server application", "server_application", &split.server_application(), 3};
    }
    if (split.server_transmit_stamped()) {
        parts[4] = {"server send stack", "server_send_stack", &split.server_send_stack(), 5};
    }
    parts[5] = {"client receive stack", "client_receive_stack", &split.receive_stack(), 2};
    return parts;
}

// In percent, to 0.001 as every figure of the JSON report.
double percent_of(double part, double whole) {
    return whole > 0.0 ? std::round(100'000.0 * part / whole) / 1000.0 : 0.0;
}

void write_share_lines(std::ostream& out, const round_trip_split& split) {
    const auto split_parts = parts_of(split);
    for (const auto& b : share_bands) {
        const auto band = split.band(b.from_ppm, b.to_ppm);
        if (band.round_trips == 0) {
            continue;
        }
        std::string parts;
        for (const auto& part : split_parts) {
            if (part.title != nullptr) {
                const double mean_ns = band.part_mean_ns[part.band_index];
                parts +=
                    fmt::format("{}{} {:.3f} ({:.1f} %)", parts.empty() ? "" : ", ", part.title,
                                us_of_ns(mean_ns), percent_of(mean_ns, band.round_trip_mean_ns));
            }
        }
        fmt::print(out, "\t{}: {} round trips of {:.3f} on average: {}\n", b.label,
                   band.round_trips, us_of_ns(band.round_trip_mean_ns), parts);
    }
}

json shares_json(const round_trip_split& split) {
    const auto split_parts = parts_of(split);
    json shares = json::object();
    for (const auto& b : share_bands) {
        const auto band = split.band(b.from_ppm, b.to_ppm);
        json parts = json::object();
        for (const auto& part : split_parts) {
            if (part.key != nullptr) {
                const double mean_ns = band.part_mean_ns[part.band_index];
                parts[part.key] = {{"mean_us", us_of_ns(mean_ns)},
                                   {"share_percent", percent_of(mean_ns, band.round_trip_mean_ns)}};
            }
        }
        shares[b.key] = {{"round_trips", band.round_trips},
                         {"round_trip_mean_us", us_of_ns(band.round_trip_mean_ns)},
                         {"parts", parts}};
    }
    return shares;
}

// Which stamps the round trips left out lacked: "" when none was left out.
std::string missing_detail(const round_trip_split& split) {
    if (split.missing_stamps() == 0) {
        return "";
    }
    const auto& m = split.missing_by_stamp();
    std::string lacked;
    const auto add = [&lacked](std::uint64_t count, const char* what) {
        if (count != 0) {
            lacked += fmt::format("{}{} without {}", lacked.empty() ? "" : ", ", count, what);
        }
    };
    add(m.client_transmit, "the client's transmit stamp");
    add(m.client_arrival, "the client's arrival stamp");
    add(m.server_arrival, "the server's arrival stamp");
    add(m.server_transmit, "the server's transmit stamp");
    return ": " + lacked;
}

// Under load: why replies lacked the client's arrival stamp, when that was
// their read's sharing (client/load/flow_stamps.hpp).
std::string shared_read_clause(const round_trip_split& split) {
    if (split.shared_reads == 0) {
        return "";
    }
    return fmt::format(
        "; of those without the client's arrival stamp, {} came in a read that brought more "
        "than their reply, whose stamp is then the last segment's, not theirs",
        split.shared_reads);
}

std::string account_sentence(const round_trip_split& split) {
    return fmt::format(
        "{} round trips split; {} missing a stamp (not in the split{}); {} parts below 0 "
        "(counted as 0); {} transmit stamps that matched no round trip{}{}",
        split.split_count(), split.missing_stamps(), missing_detail(split), split.negative_parts(),
        split.stray_transmit_stamps,
        split.clock_set_round_trips == 0
            ? ""
            : fmt::format("; {} round trips left out, the wall clock set while they ran",
                          split.clock_set_round_trips),
        shared_read_clause(split));
}

}  // namespace

void write_round_trip_split_block(std::ostream& out, const round_trip_split& split) {
    fmt::print(out,
               "where the round trip went (microseconds, the kernel's software stamps at the "
               "client, CLOCK_REALTIME{}; the parts of each round trip add up to it):\n",
               split.server_stamped() ? ", and the server's stamps" : "");
    std::vector<percentile_column> columns;
    for (const auto& part : parts_of(split)) {
        if (part.histogram != nullptr) {
            columns.push_back({part.title, part.histogram});
        }
    }
    write_percentile_columns(out, columns);
    fmt::print(out, "\t{}\n", note_of(split));
    fmt::print(out,
               "\twhere the middle and the slowest round trips went (microseconds, each part's "
               "mean over the round trips of a band of the split round trip, and its share):\n");
    write_share_lines(out, split);
    fmt::print(out, "\tstamps: {}\n", account_sentence(split));
}

json round_trip_split_json(const round_trip_split& split) {
    json parts = json::object();
    for (const auto& part : parts_of(split)) {
        if (part.histogram != nullptr) {
            parts[part.key] = part_json(*part.histogram);
        }
    }
    return {
        {"units", "microseconds"},
        {"clock", split.server_stamped()
                      ? "CLOCK_REALTIME, the kernel's software stamps at the client; the "
                        "server's parts from its own CLOCK_MONOTONIC, its kernel's stamps "
                        "moved onto it"
                      : "CLOCK_REALTIME, the kernel's software stamps at the client"},
        {"transmit_stamps", split.transmit_stamped()},
        {"server_stamps", split.server_stamped()},
        {"server_transmit_stamps", split.server_transmit_stamped()},
        {"note", note_of(split)},
        {"split_round_trips", split.split_count()},
        {"missing_stamps", split.missing_stamps()},
        {"missing_by_stamp",
         {{"client_transmit", split.missing_by_stamp().client_transmit},
          {"client_arrival", split.missing_by_stamp().client_arrival},
          {"server_arrival", split.missing_by_stamp().server_arrival},
          {"server_transmit", split.missing_by_stamp().server_transmit}}},
        {"negative_parts", split.negative_parts()},
        {"stray_transmit_stamps", split.stray_transmit_stamps},
        {"clock_set_round_trips", split.clock_set_round_trips},
        {"shared_reads", split.shared_reads},
        {"parts", parts},
        {"shares", shares_json(split)},
    };
}

}  // namespace sctp_perf
