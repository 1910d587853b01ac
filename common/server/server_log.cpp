#include "server/server_log.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace sctp_perf {

void log_line(std::string_view message) {
    static std::mutex mutex;
    const auto line = fmt::format("({}|{}) {}\n", ::getpid(), ::syscall(SYS_gettid), message);
    const std::lock_guard lock(mutex);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

}  // namespace sctp_perf
