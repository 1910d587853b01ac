// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ctrl-C (SIGINT) and SIGTERM while a client measures.
//
// A user who stops a long run wants what it measured so far, as iperf3
// prints its summary when interrupted. So while an interrupt_scope is alive
// the first SIGINT or SIGTERM is only noted: the measuring loops poll
// interrupt_flag() and end early, the report is written and marked
// interrupted, and the program then exits 128 + the signal (130, 143). A
// second signal ends the process at once, as if no handler were there, and
// so does a signal outside any scope (while connecting, or while writing
// the report). "Second" means more than 0.2 s after the first: the same
// signal delivered twice at once (timeout(1) sends it to its child and to
// the child's process group) counts once.

#include <atomic>

namespace sctp_perf {

// The signal that interrupted the measurement, 0 while none has. A loop
// polls it with a relaxed load: it costs one read of memory per iteration.
const std::atomic<int>& interrupt_flag() noexcept;

// The exit status of a program ended by `signal`, as a shell reports it.
inline constexpr int exit_status_for_signal(int signal) noexcept {
    return 128 + signal;
}

// "SIGINT", "SIGTERM", or "signal N".
const char* signal_name(int signal) noexcept;

// Scopes nest, on the main thread: a repeated test holds one over all its
// runs and the pauses between them, and each run holds its own inside it.
// The handlers stay until the outermost scope ends.
class interrupt_scope {
  public:
    // Installs the handlers for SIGINT and SIGTERM, unless an enclosing
    // scope has. Throws std::system_error if the kernel refuses.
    interrupt_scope();
    // The outermost scope puts the default actions back; a signal already
    // noted stays noted.
    ~interrupt_scope();
    interrupt_scope(const interrupt_scope&) = delete;
    interrupt_scope& operator=(const interrupt_scope&) = delete;
};

}  // namespace sctp_perf
