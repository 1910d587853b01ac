// SPDX-License-Identifier: Apache-2.0
#include "runtime/cpu_affinity.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace sctp_perf {
namespace {

// A cpu_set_t sized at run time (CPU_ALLOC), since a machine may number its
// CPUs beyond the fixed type's 1024.
class dynamic_cpu_set {
  public:
    explicit dynamic_cpu_set(unsigned capacity)
        : capacity_(std::max(capacity, unsigned{CPU_SETSIZE})),
          set_(CPU_ALLOC(capacity_), &free_set),
          bytes_(CPU_ALLOC_SIZE(capacity_)) {
        if (!set_) {
            throw std::bad_alloc();
        }
        CPU_ZERO_S(bytes_, set_.get());
    }
    void add(unsigned cpu) noexcept { CPU_SET_S(cpu, bytes_, set_.get()); }
    std::vector<unsigned> members() const {
        std::vector<unsigned> cpus;
        for (unsigned cpu = 0; cpu < capacity_; ++cpu) {
            if (CPU_ISSET_S(cpu, bytes_, set_.get())) {
                cpus.push_back(cpu);
            }
        }
        return cpus;
    }
    cpu_set_t* get() const noexcept { return set_.get(); }
    std::size_t bytes() const noexcept { return bytes_; }
    unsigned capacity() const noexcept { return capacity_; }

  private:
    static void free_set(cpu_set_t* set) noexcept { CPU_FREE(set); }
    unsigned capacity_;
    std::unique_ptr<cpu_set_t, void (*)(cpu_set_t*)> set_;
    std::size_t bytes_;
};

// The calling thread's affinity; nullopt when the kernel does not say. The
// kernel refuses (EINVAL) a mask smaller than its own, so it grows until one
// fits.
std::optional<std::vector<unsigned>> read_affinity() {
    for (unsigned capacity = CPU_SETSIZE; capacity <= max_cpu_number; capacity *= 2) {
        dynamic_cpu_set set(capacity);
        if (::sched_getaffinity(0, set.bytes(), set.get()) == 0) {
            return set.members();
        }
        if (errno != EINVAL) {
            break;
        }
    }
    return std::nullopt;
}

bool parse_number(std::string_view text, unsigned& value) {
    const auto* end = text.data() + text.size();
    const auto [at, error] = std::from_chars(text.data(), end, value);
    return error == std::errc() && at == end && !text.empty() && value < max_cpu_number;
}

}  // namespace

std::optional<std::vector<unsigned>> parse_cpu_list(std::string_view text) {
    std::vector<unsigned> cpus;
    if (text.empty()) {
        return std::nullopt;
    }
    for (;;) {
        const auto comma = text.find(',');
        const auto item = text.substr(0, comma);
        const auto dash = item.find('-');
        unsigned first = 0;
        unsigned last = 0;
        if (!parse_number(item.substr(0, dash), first)) {
            return std::nullopt;
        }
        last = first;
        if (dash != std::string_view::npos &&
            (!parse_number(item.substr(dash + 1), last) || last < first)) {
            return std::nullopt;
        }
        for (unsigned cpu = first; cpu <= last; ++cpu) {
            cpus.push_back(cpu);
        }
        if (comma == std::string_view::npos) {
            break;
        }
        text.remove_prefix(comma + 1);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

std::string describe_cpus(std::span<const unsigned> cpus) {
    std::vector<unsigned> sorted(cpus.begin(), cpus.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::string text;
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t end = i + 1;
        while (end < sorted.size() && sorted[end] == sorted[end - 1] + 1) {
            ++end;
        }
        text += fmt::format("{}{}", text.empty() ? "" : ",", sorted[i]);
        if (end - i > 1) {
            text += fmt::format("-{}", sorted[end - 1]);
        }
        i = end;
    }
    return text;
}

std::size_t count_cpus(std::string_view description) {
    const auto cpus = parse_cpu_list(description);
    return cpus ? cpus->size() : 0;
}

std::vector<unsigned> online_cpus() {
    std::ifstream file("/sys/devices/system/cpu/online");
    std::string line;
    if (std::getline(file, line)) {
        if (auto cpus = parse_cpu_list(line); cpus && !cpus->empty()) {
            return *cpus;
        }
    }
    std::vector<unsigned> cpus;
    const long count = ::sysconf(_SC_NPROCESSORS_ONLN);
    for (long cpu = 0; cpu < count; ++cpu) {
        cpus.push_back(static_cast<unsigned>(cpu));
    }
    return cpus;
}

std::string current_cpu_affinity() {
    const auto cpus = read_affinity();
    return cpus ? describe_cpus(*cpus) : std::string();
}

unsigned usable_cpu_count() {
    const auto allowed = read_affinity();
    const std::size_t count = allowed && !allowed->empty() ? allowed->size() : online_cpus().size();
    return static_cast<unsigned>(std::max<std::size_t>(count, 1));
}

void pin_process(std::span<const unsigned> cpus) {
    if (cpus.empty()) {
        return;
    }
    const auto asked = describe_cpus(cpus);
    const auto online = online_cpus();
    std::vector<unsigned> missing;
    for (const unsigned cpu : cpus) {
        if (!std::binary_search(online.begin(), online.end(), cpu)) {
            missing.push_back(cpu);
        }
    }
    if (!missing.empty()) {
        throw std::runtime_error(
            fmt::format("--cpu {}: this machine has CPUs {}{}", asked, describe_cpus(online),
                        missing.size() < cpus.size()
                            ? fmt::format(" ({} not among them)", describe_cpus(missing))
                            : ""));
    }
    dynamic_cpu_set set(*std::max_element(cpus.begin(), cpus.end()) + 1);
    for (const unsigned cpu : cpus) {
        set.add(cpu);
    }
    if (::sched_setaffinity(0, set.bytes(), set.get()) != 0) {
        // EINVAL: none of them is allowed here (a cpuset or a container
        // limits this process to other CPUs).
        throw std::runtime_error(fmt::format(
            "--cpu {}: the kernel refused it ({}); this process may run on CPUs {} of this "
            "machine's {}",
            asked, std::strerror(errno), current_cpu_affinity(), describe_cpus(online)));
    }
    // A cpuset narrows a request without a word where some of it is allowed.
    const auto granted = read_affinity();
    if (granted && describe_cpus(*granted) != asked) {
        throw std::runtime_error(fmt::format(
            "--cpu {}: the kernel allowed only CPUs {} (a cpuset or a container limits this "
            "process); this machine has CPUs {}",
            asked, describe_cpus(*granted), describe_cpus(online)));
    }
}

std::vector<unsigned> worker_cpus(std::span<const unsigned> cpus, unsigned workers) {
    std::vector<unsigned> sorted(cpus.begin(), cpus.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<unsigned> placed;
    if (sorted.empty() || workers < 2) {
        return placed;
    }
    for (unsigned w = 0; w < workers; ++w) {
        placed.push_back(sorted[w % sorted.size()]);
    }
    return placed;
}

std::optional<std::string> shared_cpus_warning(unsigned workers, unsigned cpus,
                                               bool from_cpu_option) {
    if (workers <= cpus) {
        return std::nullopt;
    }
    return fmt::format(
        "{} worker threads share {} CPU{} ({}), so busy ones take turns by time slices and "
        "the latencies include the wait: give --threads {} or more CPUs with --cpu",
        workers, cpus, cpus == 1 ? "" : "s",
        from_cpu_option ? "the --cpu list" : "the CPUs this process may run on", cpus);
}

void pin_thread(pthread_t thread, unsigned cpu) {
    dynamic_cpu_set set(cpu + 1);
    set.add(cpu);
    int error = ::pthread_setaffinity_np(thread, set.bytes(), set.get());
    if (error == 0) {
        dynamic_cpu_set granted(cpu + 1);
        error = ::pthread_getaffinity_np(thread, granted.bytes(), granted.get());
        if (error == 0 && granted.members() != std::vector<unsigned>{cpu}) {
            throw std::runtime_error(fmt::format(
                "--cpu: a worker thread asked for CPU {} was allowed CPUs {} (a cpuset or a "
                "container limits this process)",
                cpu, describe_cpus(granted.members())));
        }
    }
    if (error != 0) {
        throw std::runtime_error(
            fmt::format("--cpu: the kernel refused to pin a worker thread to CPU {} ({})", cpu,
                        std::strerror(error)));
    }
}

}  // namespace sctp_perf
