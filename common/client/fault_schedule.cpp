// SPDX-License-Identifier: Apache-2.0
#include "client/fault_schedule.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace sctp_perf {
namespace {

// How long the schedule's thread sleeps at most while a command runs, so
// that finish() is seen soon; a command's end wakes it at once where the
// kernel has pidfd_open (Linux 5.3), else within the fallback's slice.
constexpr auto longest_poll = std::chrono::milliseconds(20);
constexpr auto fallback_poll = std::chrono::milliseconds(1);

int open_pidfd(int pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    return -1;
#endif
}

// Sleeps until one of `fds` is readable or `wait` has passed.
void wait_for(std::vector<pollfd>& fds, std::chrono::nanoseconds wait) {
    wait = std::max(wait, std::chrono::nanoseconds(0));
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait);
    const timespec timeout{static_cast<time_t>(seconds.count()),
                           static_cast<long>((wait - seconds).count())};
    ::ppoll(fds.data(), fds.size(), &timeout, nullptr);
}

}  // namespace

fault_schedule::fault_schedule(const fault_request& request, std::string program)
    : timeout_(request.timeout) {
    const std::string dir = request.output_dir.empty() ? "" : request.output_dir + "/";
    for (std::size_t k = 0; k < request.commands.size(); ++k) {
        fault_outcome outcome;
        outcome.index = static_cast<unsigned>(k + 1);
        outcome.at = request.commands[k].at;
        outcome.command = request.commands[k].command;
        outcome.output_file = dir + program + "-at-" + std::to_string(k + 1) + ".log";
        outcomes_.push_back(std::move(outcome));
        order_.push_back(k);
    }
    std::stable_sort(order_.begin(), order_.end(), [this](std::size_t a, std::size_t b) {
        return outcomes_[a].at < outcomes_[b].at;
    });
    if (!outcomes_.empty()) {
        thread_ = std::thread([this] { run(); });
    }
}

fault_schedule::~fault_schedule() {
    if (thread_.joinable()) {
        finish();
    }
}

void fault_schedule::start(clock::time_point t0, std::function<void(unsigned)> before_each) {
    {
        const std::lock_guard lock(mutex_);
        if (t0_) {
            return;
        }
        t0_ = t0;
        before_each_ = std::move(before_each);
    }
    changed_.notify_all();
}

void fault_schedule::stop_starting() {
    {
        const std::lock_guard lock(mutex_);
        ending_ = true;
    }
    changed_.notify_all();
}

std::vector<fault_outcome> fault_schedule::finish() {
    stop_starting();
    if (thread_.joinable()) {
        thread_.join();
    }
    for (auto& outcome : outcomes_) {
        if (!outcome.started && outcome.not_started.empty()) {
            outcome.not_started = "not reached: the measured run ended first";
        }
    }
    return outcomes_;
}

void fault_schedule::run() {
    std::size_t next = 0;  // into order_
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return t0_.has_value() || ending_; });
    for (;;) {
        const bool starting = !ending_;
        const auto t0 = t0_.value_or(clock::now());
        if (starting && next < order_.size() && clock::now() >= t0 + outcomes_[order_[next]].at) {
            const std::size_t k = order_[next++];
            const auto before_each = before_each_;
            lock.unlock();
            if (before_each) {
                before_each(outcomes_[k].index);
            }
            spawn(k);
            lock.lock();
            continue;
        }
        const bool more_due = starting && next < order_.size();
        if (!more_due && running_.empty()) {
            return;
        }
        auto wake = more_due ? t0 + outcomes_[order_[next]].at : clock::time_point::max();
        if (running_.empty()) {
            // Nothing to reap: sleep until the next instant, or finish().
            changed_.wait_until(lock, wake);
            continue;
        }
        lock.unlock();
        std::vector<pollfd> fds;
        bool fallback = false;
        for (const auto& r : running_) {
            wake = std::min(wake, r.started + timeout_);
            if (r.pidfd >= 0) {
                fds.push_back({r.pidfd, POLLIN, 0});
            } else {
                fallback = true;
            }
        }
        const auto now = clock::now();
        const auto longest = fallback ? std::chrono::nanoseconds(fallback_poll)
                                      : std::chrono::nanoseconds(longest_poll);
        wait_for(fds, std::min<std::chrono::nanoseconds>(wake - now, longest));
        reap(clock::now());
        lock.lock();
    }
}

int fault_schedule::spawn(std::size_t k) {
    auto& outcome = outcomes_[k];
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attributes;
    ::posix_spawn_file_actions_init(&files);
    ::posix_spawnattr_init(&attributes);
    ::posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, outcome.output_file.c_str(),
                                       O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
    // Its own process group, so that a timeout kills all it started; no
    // signal blocked, and SIGPIPE, which this program ignores, as a shell
    // expects it.
    sigset_t none;
    sigemptyset(&none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    ::posix_spawnattr_setflags(
        &attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    ::posix_spawnattr_setpgroup(&attributes, 0);
    ::posix_spawnattr_setsigmask(&attributes, &none);
    ::posix_spawnattr_setsigdefault(&attributes, &defaults);
    std::string shell = "/bin/sh";
    std::string dash_c = "-c";
    char* argv[] = {shell.data(), dash_c.data(), outcome.command.data(), nullptr};
    pid_t pid = -1;
    // Stamped before the spawn: the command may run, and do what it does,
    // before posix_spawn returns, and no effect of it may come before the
    // instant the report gives for its start.
    const auto started = clock::now();
    const int error = ::posix_spawn(&pid, "/bin/sh", &files, &attributes, argv, environ);
    ::posix_spawn_file_actions_destroy(&files);
    ::posix_spawnattr_destroy(&attributes);
    if (error != 0) {
        outcome.not_started = std::string("cannot start it: ") + std::strerror(error) + " (" +
                              outcome.output_file + ")";
        return -1;
    }
    const auto t0 = *t0_;  // set before any command is due; not changed after
    outcome.started = true;
    outcome.started_at = started - t0;
    outcome.started_wall = std::chrono::system_clock::now();
    running_.push_back({k, pid, open_pidfd(pid), started, false});
    return pid;
}

void fault_schedule::reap(clock::time_point now) {
    for (auto it = running_.begin(); it != running_.end();) {
        auto& outcome = outcomes_[it->k];
        int status = 0;
        const pid_t done = ::waitpid(it->pid, &status, WNOHANG);
        if (done == it->pid || (done < 0 && errno == ECHILD)) {
            outcome.took = now - it->started;
            if (done == it->pid && WIFEXITED(status)) {
                outcome.exit_status = WEXITSTATUS(status);
            } else if (done == it->pid && WIFSIGNALED(status)) {
                outcome.signal = WTERMSIG(status);
            }
            if (it->pidfd >= 0) {
                ::close(it->pidfd);
            }
            it = running_.erase(it);
            continue;
        }
        if (!it->killed && now >= it->started + timeout_) {
            // The whole group: a shell's children too.
            ::killpg(it->pid, SIGKILL);
            it->killed = true;
            outcome.timed_out = true;
        }
        ++it;
    }
}

}  // namespace sctp_perf
