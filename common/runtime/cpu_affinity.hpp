// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which CPUs a program runs on: the --cpu option, and how a set of CPUs is
// written.
//
// A CPU list names CPUs by their kernel numbers, as taskset -c and
// /sys/devices/system/cpu/online write them: numbers and inclusive ranges
// separated by commas, such as "0", "1-3" or "0,2-3". A description is the
// same form written back, sorted and with runs collapsed ("0-1,3").
//
// The parsing and describing are pure, and so is worker_cpus(), which
// places worker threads on the list; pin_process(), pin_thread() and the
// readers ask the kernel.

#include <pthread.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sctp_perf {

// The CPUs `text` names, sorted, each once; nullopt unless `text` is a CPU
// list as above (no blanks, no empty items, no range whose end is below its
// start, numbers below max_cpu_number).
std::optional<std::vector<unsigned>> parse_cpu_list(std::string_view text);

// A bound on CPU numbers, far above any machine's, so that a typo such as
// 1000000 is a malformed list and not a request for a set that large.
inline constexpr unsigned max_cpu_number = 65536;

// "0-1,3" for {0, 1, 3}; "" for none. `cpus` need not be sorted; repeats
// count once.
std::string describe_cpus(std::span<const unsigned> cpus);

// How many CPUs a description (or any CPU list) names: 3 for "0-1,3", 0 for
// "" and for text that is not a CPU list.
std::size_t count_cpus(std::string_view description);

// The CPUs online on this machine (/sys/devices/system/cpu/online; where
// that cannot be read, 0..n-1 for the count sysconf gives).
std::vector<unsigned> online_cpus();

// The CPUs the calling thread may run on, described ("0-1"); "" when the
// kernel does not say.
std::string current_cpu_affinity();

// How many CPUs the calling thread may run on (the online count where the
// kernel does not say), at least 1: the default number of busy worker
// threads, so that two of them never take turns on one CPU by time slices.
unsigned usable_cpu_count();

// Restricts the calling thread, and so every thread it creates later, to
// `cpus` (sched_setaffinity); call it before the first thread is created so
// that the whole process is pinned. Empty `cpus`: nothing changes. Throws
// std::runtime_error naming the --cpu value and what this machine offers
// when a CPU is not online, and when the kernel refuses the set or grants
// only part of it (a cpuset can narrow what a process may use).
void pin_process(std::span<const unsigned> cpus);

// The CPU each of `workers` worker threads is pinned to under --cpu: worker
// i runs on the i-th CPU of the list in ascending order, cpus[i % size], so
// that more workers than CPUs wrap round (two of them then take turns on a
// CPU: see shared_cpus_warning) and fewer leave the list's last CPUs to the
// other threads (the main or listening thread, which keep the whole list).
// Empty, every worker keeping the process's affinity, without a list
// (`cpus` empty) and for a single worker, which runs where the process may,
// as it did before workers were pinned one by one.
std::vector<unsigned> worker_cpus(std::span<const unsigned> cpus, unsigned workers);

// The warning for `workers` busy worker threads on `cpus` CPUs (the --cpu
// list's, or the affinity the process was started with when
// `from_cpu_option` is false), one sentence saying what to do; nullopt when
// each worker has a CPU of its own.
std::optional<std::string> shared_cpus_warning(unsigned workers, unsigned cpus,
                                               bool from_cpu_option);

// Restricts the thread `thread` to `cpu` (pthread_setaffinity_np) and
// reads it back. Throws std::runtime_error naming the CPU when the kernel
// refuses it or grants another set.
void pin_thread(pthread_t thread, unsigned cpu);

}  // namespace sctp_perf
