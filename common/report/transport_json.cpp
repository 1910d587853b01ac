// SPDX-License-Identifier: Apache-2.0
#include "report/transport_json.hpp"

#include "protocol/transport_counters_blob.hpp"

namespace sctp_perf {

nlohmann::ordered_json transport_counters_json(const transport_counters& counters) {
    return protocol::encode_transport_counters(counters);
}

}  // namespace sctp_perf
