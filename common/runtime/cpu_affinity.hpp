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
// The parsing and describing are pure; pin_process() and the two readers
// ask the kernel.

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

}  // namespace sctp_perf
