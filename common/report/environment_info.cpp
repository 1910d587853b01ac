// SPDX-License-Identifier: Apache-2.0
#include <ctime>

#include "report/run_report.hpp"

namespace sctp_perf {

environment_info describe_environment(const host_environment& host,
                                      std::chrono::system_clock::time_point started_at) {
    environment_info info;
    info.hostname = host.hostname;
    info.kernel = host.kernel;
    info.cpu_count = host.cpu_count;
    info.client_cpu_affinity = host.cpu_affinity;
    const std::time_t started = std::chrono::system_clock::to_time_t(started_at);
    std::tm utc{};
    ::gmtime_r(&started, &utc);
    char stamp[32] = {};
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    info.started_at = stamp;
    return info;
}

}  // namespace sctp_perf
