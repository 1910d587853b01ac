// SPDX-License-Identifier: Apache-2.0
#pragma once
// The transport's counters of one connection (transport/transport_counters.hpp
// reads them), and their JSON form, the same in the server's account and in
// the reports: flat, {"source": "TCP_INFO", "rtt_us": 31, ...}, in the order
// they were read.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sctp_perf {

struct transport_counter {
    std::string
        name;  // snake_case, with its unit when it has one: "rtt_us", "retransmitted_chunks"
    std::uint64_t value = 0;
    friend bool operator==(const transport_counter&, const transport_counter&) = default;
};

struct transport_counters {
    std::string source;                       // "SCTP_GET_ASSOC_STATS" or "TCP_INFO"
    std::vector<transport_counter> counters;  // in a fixed order, the same for every run
};

namespace protocol {

nlohmann::ordered_json encode_transport_counters(const transport_counters& counters);

// Reads the form above back; members that are not whole numbers are
// skipped, and so is a "source" that is not a string.
transport_counters decode_transport_counters(const nlohmann::ordered_json& doc);

}  // namespace protocol
}  // namespace sctp_perf
