// SPDX-License-Identifier: Apache-2.0
#pragma once
// The SCTP features of one association in the form the server's settings
// blob carries them (protocol/server_settings_blob.hpp): the server sends
// its own, and the client's reports write its own the same way.

#include "protocol/server_settings_blob.hpp"
#include "transport/sctp_features.hpp"

namespace sctp_perf {

// What was asked for and what the association got, as the settings blob's
// "sctp" object holds them.
protocol::sctp_features_blob sctp_features_of(const sctp_feature_request& asked,
                                              const sctp_feature_state& got);

}  // namespace sctp_perf
