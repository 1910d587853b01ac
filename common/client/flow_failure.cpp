// SPDX-License-Identifier: Apache-2.0
#include "client/flow_failure.hpp"

#include <fmt/format.h>

#include "errors.hpp"

namespace sctp_perf {

void rethrow_flow_failure(unsigned flow, unsigned flows, unsigned accepted) {
    try {
        throw;
    } catch (const connect_error& e) {
        if (flow == 0) {
            throw;
        }
        throw connect_error(fmt::format("flow {} of {}: {}", flow, flows, e.what()), false);
    } catch (const test_refused& e) {
        if (flow == 0) {
            throw;
        }
        throw test_refused(fmt::format("flow {} of {}, after {} were accepted: {}", flow, flows,
                                       accepted, e.what()));
    }
}

}  // namespace sctp_perf
