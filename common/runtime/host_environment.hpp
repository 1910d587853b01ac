// SPDX-License-Identifier: Apache-2.0
#pragma once
// The machine a program runs on, read once at start, so that a result says
// where it was measured: the client's report describes its own machine and
// the server's settings blob describes the server's.
//
// Read here, in runtime/, and handed on as a value: report/ and server/ only
// format it.

#include <string>

namespace sctp_perf {

struct host_environment {
    std::string hostname;
    std::string kernel;        // "Linux 6.1.0-28-cloud-amd64 x86_64"
    unsigned cpu_count = 0;    // online CPUs; 0 if sysconf cannot say
    std::string cpu_affinity;  // CPUs this process may run on, e.g. "0-1" or "1"
};

// gethostname, uname and sysconf, and the calling process's affinity: call it
// after --cpu has been applied (pin_process), so that the affinity read is the
// one the program runs with. A part the system does not give stays empty.
host_environment read_host_environment();

}  // namespace sctp_perf
