// SPDX-License-Identifier: Apache-2.0
#include "report/round_trip_split_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "report/one_way_report.hpp"

namespace sctp_perf {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* beyond_sentence =
    "beyond the client: the network both ways and the server's whole time, from the request "
    "handed to the client's device to the reply's arrival from it";
constexpr const char* receive_only_sentence =
    "the kernel's SCTP stamps only what it receives, so the client's send stack is not told "
    "apart from the network and the server";

std::string account_sentence(const round_trip_split& split) {
    return fmt::format(
        "{} round trips split; {} missing a stamp (not in the split); {} parts below 0 "
        "(counted as 0); {} transmit stamps that matched no round trip",
        split.split_count(), split.missing_stamps(), split.negative_parts(),
        split.stray_transmit_stamps);
}

}  // namespace

void write_round_trip_split_block(std::ostream& out, const round_trip_split& split) {
    fmt::print(out,
               "where the round trip went (microseconds, the kernel's software stamps at the "
               "client, CLOCK_REALTIME; the parts of each round trip add up to it):\n");
    if (split.transmit_stamped()) {
        const percentile_column columns[] = {{"client send stack", &split.send_stack()},
                                             {"beyond the client", &split.beyond_client()},
                                             {"client receive stack", &split.receive_stack()}};
        write_percentile_columns(out, columns);
        fmt::print(out, "\t{}\n", beyond_sentence);
    } else {
        const percentile_column columns[] = {
            {"send stack and beyond", &split.send_stack_and_beyond()},
            {"client receive stack", &split.receive_stack()}};
        write_percentile_columns(out, columns);
        fmt::print(out, "\t{}\n", receive_only_sentence);
    }
    fmt::print(out, "\tstamps: {}\n", account_sentence(split));
}

json round_trip_split_json(const round_trip_split& split) {
    json parts = json::object();
    if (split.transmit_stamped()) {
        parts["client_send_stack"] = part_json(split.send_stack());
        parts["beyond_the_client"] = part_json(split.beyond_client());
    } else {
        parts["send_stack_and_beyond"] = part_json(split.send_stack_and_beyond());
    }
    parts["client_receive_stack"] = part_json(split.receive_stack());
    return {
        {"units", "microseconds"},
        {"clock", "CLOCK_REALTIME, the kernel's software stamps at the client"},
        {"transmit_stamps", split.transmit_stamped()},
        {"note", split.transmit_stamped() ? beyond_sentence : receive_only_sentence},
        {"split_round_trips", split.split_count()},
        {"missing_stamps", split.missing_stamps()},
        {"negative_parts", split.negative_parts()},
        {"stray_transmit_stamps", split.stray_transmit_stamps},
        {"parts", parts},
    };
}

}  // namespace sctp_perf
