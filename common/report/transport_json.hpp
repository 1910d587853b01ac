// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the transport did, in the form both blobs and both report formats
// carry it. The members' names belong to the wire protocol
// (protocol/transport_counters_blob.hpp): the reports write the same objects
// the server sends. The SCTP features go the same way through
// transport/sctp_features_blob.hpp.

#include <nlohmann/json.hpp>

#include "transport/transport_counters.hpp"

namespace sctp_perf {

// Flat: {"source": "TCP_INFO", "rtt_us": 31, ...}.
nlohmann::ordered_json transport_counters_json(const transport_counters& counters);

}  // namespace sctp_perf
