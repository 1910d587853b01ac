// SPDX-License-Identifier: Apache-2.0
#pragma once
// Standard output, checked as a file is: a full disk, a closed stdout or a
// reader that went away loses what a program wrote there, and that is a
// failure to report, not a silent success. Every program writes its report
// through here.

#include <string_view>

namespace sctp_perf {

// Writes `text` whole, after anything std::cout holds, with write(2) so that
// the error is the kernel's own. Throws std::system_error "cannot write
// WHAT to standard output" (`what`: "the report", ...). A program that
// writes here ignores SIGPIPE, or a reader that went away kills it instead.
void write_standard_output(std::string_view text, std::string_view what);

}  // namespace sctp_perf
