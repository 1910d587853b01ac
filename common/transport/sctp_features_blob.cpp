// SPDX-License-Identifier: Apache-2.0
#include "transport/sctp_features_blob.hpp"

namespace sctp_perf {

protocol::sctp_features_blob sctp_features_of(const sctp_feature_request& asked,
                                              const sctp_feature_state& got) {
    protocol::sctp_features_blob features;
    features.streams_used = asked.streams;
    features.outbound_streams = got.outbound_streams;
    features.inbound_streams = got.inbound_streams;
    features.unordered = asked.unordered;
    features.pr_sctp = describe(asked.pr);
    features.pr_supported = got.pr_supported;
    features.sack_delay_ms = got.sack_delay_ms;
    features.sack_freq = got.sack_freq;
    features.scheduler = got.scheduler;
    features.interleaving = got.interleaving;
    return features;
}

}  // namespace sctp_perf
