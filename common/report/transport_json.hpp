// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the transport did and used, as JSON: the reports write it, and the
// server sends its own (its settings blob, its account of a load test).

#include <nlohmann/json.hpp>

#include "transport/sctp_features.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {

// Flat: {"source": "TCP_INFO", "rtt_us": 31, ...}.
nlohmann::ordered_json transport_counters_json(const transport_counters& counters);

// Reads the form above back; members that are not whole numbers are skipped.
transport_counters transport_counters_from_json(const nlohmann::ordered_json& doc);

// The SCTP features asked for and what the association got:
// {"streams_used", "outbound_streams", "inbound_streams", "unordered",
// "pr_sctp", "pr_supported", "sack_delay_ms", "sack_freq", "scheduler",
// "interleaving"}.
nlohmann::ordered_json sctp_features_json(const sctp_feature_request& asked,
                                          const sctp_feature_state& got);

}  // namespace sctp_perf
