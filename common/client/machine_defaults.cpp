// SPDX-License-Identifier: Apache-2.0
#include "client/machine_defaults.hpp"

#include <algorithm>
#include <ostream>

#include "runtime/cpu_affinity.hpp"

namespace sctp_perf {

client_options with_machine_defaults(client_options options) {
    if (options.threads == 0) {
        const auto cpus = options.common.cpus.empty()
                              ? usable_cpu_count()
                              : static_cast<unsigned>(options.common.cpus.size());
        options.threads = std::max(1u, std::min(options.flows, cpus));
    }
    return options;
}

void warn_of_shared_cpus(const client_options& options, const program_info& program,
                         std::ostream& err) {
    if (!options.load_mode()) {
        return;
    }
    const unsigned workers = std::max(1u, std::min(options.threads, options.flows));
    const bool listed = !options.common.cpus.empty();
    const unsigned cpus =
        listed ? static_cast<unsigned>(options.common.cpus.size()) : usable_cpu_count();
    if (const auto warning = shared_cpus_warning(workers, cpus, listed)) {
        err << program.name << ": warning: " << *warning << '\n';
    }
}

}  // namespace sctp_perf
