// SPDX-License-Identifier: Apache-2.0
#include "runtime/host_environment.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include "runtime/cpu_affinity.hpp"

namespace sctp_perf {

host_environment read_host_environment() {
    host_environment host;
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0) {
        host.hostname = name;
    }
    utsname names{};
    if (::uname(&names) == 0) {
        host.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
    }
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    host.cpu_count = online > 0 ? static_cast<unsigned>(online) : 0;
    host.cpu_affinity = current_cpu_affinity();
    return host;
}

}  // namespace sctp_perf
