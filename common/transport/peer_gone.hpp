// SPDX-License-Identifier: Apache-2.0
#pragma once
// The connection itself ended in the middle of a test: the peer closed it,
// reset it or aborted it. A client with --reconnect sets such a flow up
// again (client/load/flow_reconnector.hpp); to everything else it is a
// peer_error like any other (garbage, silence, a reply out of step), which
// ends the run.

#include "errors.hpp"

namespace sctp_perf {

class peer_gone : public peer_error {
  public:
    using peer_error::peer_error;
};

}  // namespace sctp_perf
