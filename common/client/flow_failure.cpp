// SPDX-License-Identifier: Apache-2.0
#include "client/flow_failure.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "errors.hpp"

namespace sctp_perf {

void rethrow_flow_failure(unsigned flow, unsigned flows, unsigned accepted,
                          const std::vector<server_endpoint>& servers) {
    const bool fan_out = servers.size() > 1;
    std::string server;
    if (fan_out) {
        const auto s = server_of_flow(flow, servers.size());
        server =
            fmt::format("server {} of {} ({}), ", s + 1, servers.size(), endpoint_text(servers[s]));
    }
    const bool first_of_server = flow < std::max<std::size_t>(servers.size(), 1);
    try {
        throw;
    } catch (const connect_error& e) {
        if (flow == 0 && !fan_out) {
            throw;
        }
        throw connect_error(fmt::format("{}flow {} of {}: {}", server, flow, flows, e.what()),
                            e.refused() && first_of_server);
    } catch (const test_refused& e) {
        if (flow == 0 && !fan_out) {
            throw;
        }
        throw test_refused(fmt::format("{}flow {} of {}, after {} were accepted: {}", server, flow,
                                       flows, accepted, e.what()));
    } catch (const peer_error& e) {
        if (!fan_out) {
            throw;
        }
        throw peer_error(fmt::format("{}flow {} of {}: {}", server, flow, flows, e.what()));
    }
}

}  // namespace sctp_perf
