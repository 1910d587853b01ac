// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the transport did and used, in the form both blobs and both report
// formats carry it. The members' names belong to the wire protocol
// (protocol/server_settings_blob.hpp, protocol/transport_counters_blob.hpp):
// the reports write the same objects the server sends.

#include <nlohmann/json.hpp>

#include "protocol/server_settings_blob.hpp"
#include "transport/sctp_features.hpp"
#include "transport/transport_counters.hpp"

namespace sctp_perf {

// Flat: {"source": "TCP_INFO", "rtt_us": 31, ...}.
nlohmann::ordered_json transport_counters_json(const transport_counters& counters);

// The SCTP features asked for and what the association got, as the
// settings blob's "sctp" object holds them.
protocol::sctp_features_blob sctp_features_of(const sctp_feature_request& asked,
                                              const sctp_feature_state& got);

}  // namespace sctp_perf
