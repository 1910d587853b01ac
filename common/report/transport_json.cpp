// SPDX-License-Identifier: Apache-2.0
#include "report/transport_json.hpp"

namespace sctp_perf {

nlohmann::ordered_json transport_counters_json(const transport_counters& counters) {
    nlohmann::ordered_json doc = {{"source", counters.source}};
    for (const auto& counter : counters.counters) {
        doc[counter.name] = counter.value;
    }
    return doc;
}

transport_counters transport_counters_from_json(const nlohmann::ordered_json& doc) {
    transport_counters counters;
    for (const auto& [name, value] : doc.items()) {
        if (name == "source" && value.is_string()) {
            counters.source = value.get<std::string>();
        } else if (value.is_number_unsigned()) {
            counters.counters.push_back({name, value.get<std::uint64_t>()});
        }
    }
    return counters;
}

nlohmann::ordered_json sctp_features_json(const sctp_feature_request& asked,
                                          const sctp_feature_state& got) {
    return {
        {"streams_used", asked.streams},
        {"outbound_streams", got.outbound_streams},
        {"inbound_streams", got.inbound_streams},
        {"unordered", asked.unordered},
        {"pr_sctp", describe(asked.pr)},
        {"pr_supported", got.pr_supported},
        {"sack_delay_ms", got.sack_delay_ms},
        {"sack_freq", got.sack_freq},
        {"scheduler", got.scheduler},
        {"interleaving", got.interleaving},
    };
}

}  // namespace sctp_perf
