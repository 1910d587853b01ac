// SPDX-License-Identifier: Apache-2.0
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <string>

#include "report/run_report.hpp"
#include "runtime/cpu_affinity.hpp"

namespace sctp_perf {

environment_info read_environment() {
    environment_info info;
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) {
        info.hostname = host;
    }
    utsname names{};
    if (::uname(&names) == 0) {
        info.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
    }
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    info.cpu_count = online > 0 ? static_cast<unsigned>(online) : 0;
    info.client_cpu_affinity = current_cpu_affinity();
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char stamp[32] = {};
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    info.started_at = stamp;
    return info;
}

}  // namespace sctp_perf
