#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <string>

#include "report/run_report.hpp"

namespace sctp_perf {
namespace {

// "0-1,3": the CPUs in `set`, with runs collapsed.
std::string describe_cpu_set(const cpu_set_t& set) {
    std::string text;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &set)) {
            continue;
        }
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) {
            ++last;
        }
        text += (text.empty() ? "" : ",") + std::to_string(cpu);
        if (last > cpu) {
            text += "-" + std::to_string(last);
        }
        cpu = last;
    }
    return text;
}

}  // namespace

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
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0) {
        info.client_cpu_affinity = describe_cpu_set(set);
    }
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char stamp[32] = {};
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    info.started_at = stamp;
    return info;
}

}  // namespace sctp_perf
