// SPDX-License-Identifier: Apache-2.0
#include "protocol/transport_counters_blob.hpp"

namespace sctp_perf::protocol {

nlohmann::ordered_json encode_transport_counters(const transport_counters& counters) {
    nlohmann::ordered_json doc = {{"source", counters.source}};
    for (const auto& counter : counters.counters) {
        doc[counter.name] = counter.value;
    }
    return doc;
}

transport_counters decode_transport_counters(const nlohmann::ordered_json& doc) {
    transport_counters counters;
    for (const auto& [name, value] : doc.items()) {
        if (name == "source" && value.is_string()) {
            counters.source = value.template get<std::string>();
        } else if (value.is_number_unsigned()) {
            counters.counters.push_back({name, value.template get<std::uint64_t>()});
        }
    }
    return counters;
}

}  // namespace sctp_perf::protocol
