// SPDX-License-Identifier: Apache-2.0
#include "runtime/interrupt.hpp"

#include <cerrno>
#include <csignal>
#include <system_error>

namespace sctp_perf {
namespace {

std::atomic<int> caught{0};
static_assert(std::atomic<int>::is_always_lock_free,
              "a signal handler may only touch lock-free atomics");

constexpr int handled_signals[] = {SIGINT, SIGTERM};

// How many scopes are alive. Only the main thread makes them, and the
// handler never reads it, so a plain counter will do.
int open_scopes = 0;

void set_action(int signal, void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: a wait in epoll or poll returns at once, and the loops
    // look at the flag; blocking socket calls retry EINTR themselves.
    action.sa_flags = 0;
    if (::sigaction(signal, &action, nullptr) != 0) {
        throw std::system_error(errno, std::generic_category(), "sigaction failed");
    }
}

// One signal is often delivered twice in the same instant: timeout(1)
// passes it to its child and to the child's process group, and a script
// may pass on the Ctrl-C that the terminal also sent to its children. A
// repeat within this window is that, not a person pressing Ctrl-C again.
constexpr long long same_signal_window_ns = 200'000'000;
std::atomic<long long> caught_at_ns{0};
static_assert(std::atomic<long long>::is_always_lock_free,
              "a signal handler may only touch lock-free atomics");

long long monotonic_ns() noexcept {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
    return static_cast<long long>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

extern "C" void note_interrupt(int signal) {
    const int saved_errno = errno;
    int none = 0;
    if (caught.compare_exchange_strong(none, signal)) {
        caught_at_ns = monotonic_ns();
    } else if (monotonic_ns() - caught_at_ns.load() > same_signal_window_ns) {
        // A second one: end now, with the status the signal itself gives.
        ::signal(signal, SIG_DFL);
        ::raise(signal);
    }
    errno = saved_errno;
}

}  // namespace

const std::atomic<int>& interrupt_flag() noexcept {
    return caught;
}

const char* signal_name(int signal) noexcept {
    switch (signal) {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        default:
            return "a signal";
    }
}

interrupt_scope::interrupt_scope() {
    if (open_scopes == 0) {
        for (const int signal : handled_signals) {
            set_action(signal, note_interrupt);
        }
    }
    ++open_scopes;
}

interrupt_scope::~interrupt_scope() {
    if (--open_scopes == 0) {
        for (const int signal : handled_signals) {
            ::signal(signal, SIG_DFL);
        }
    }
}

}  // namespace sctp_perf
