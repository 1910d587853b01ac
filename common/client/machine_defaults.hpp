// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the client decides from the machine it runs on, not from the command
// line: decided here and not in validation, so that a command line means the
// same options wherever it is read (--check included).

#include <iosfwd>

#include "options/client_options.hpp"

namespace sctp_perf {

// Without --threads: one thread per CPU the client may run on (its --cpu
// list, or the affinity it was started with, as taskset sets it), up to one
// per flow. Online CPUs are not the bound: two busy workers on one allowed
// CPU take turns by time slices, and the report then measures that queue
// (64 flows at 64,000 messages/s, client on one CPU: a corrected p50 of
// 457 us with two workers, 22 us with one). Before pin_process: the --cpu
// list is what the client will run on.
client_options with_machine_defaults(client_options options);

// In a load mode, a warning on `err` ("NAME: warning: ...") when more worker
// threads than CPUs would take turns on one; the default thread count never
// asks for that, an explicit --threads may. Before pin_process: without
// --cpu, the affinity read is the one the client was started with.
void warn_of_shared_cpus(const client_options& options, const program_info& program,
                         std::ostream& err);

}  // namespace sctp_perf
