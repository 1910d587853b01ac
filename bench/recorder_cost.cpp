// SPDX-License-Identifier: Apache-2.0
// What recording one latency sample costs, next to the least it could cost.
//
// Every variant records the same pre-generated round-trip times, so the branch
// predictor and the caches see what they would see in a real run, and the
// variants differ only in what they do with a sample:
//  - floor: an HdrHistogram-style bucket index and one increment of a plain
//    counts array, nothing else; no recorder can do less.
//  - log_linear_histogram/record: what the load modes pay per sample.
//  - log_linear_histogram/record_pair: one sample into two histograms, as a
//    load mode keeps a corrected and an uncorrected one per flow; reported per
//    record. It comes out cheaper than the single case: back-to-back records
//    into one histogram wait on each other's count, minimum and maximum
//    (stored, then loaded again at once), while two histograms overlap.
//  - latency_recorder/record: what the ping-pong client pays per round trip
//    (summary, ACE bins and percentiles), outside its timed window.
//
// After the usual Google Benchmark table a summary prints nanoseconds per
// record for each variant and its ratio to the floor, from the median of the
// repetitions.

#include <benchmark/benchmark.h>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "stats/latency_recorder.hpp"
#include "stats/log_linear_histogram.hpp"

namespace sctp_perf {
namespace {

// 2^20 samples: 8 MiB, more than L1 and L2 hold, so the samples stream in
// like fresh measurements while the histograms keep the caches they would.
constexpr std::size_t sample_count = std::size_t{1} << 20;

// Round trips as a loaded loopback or LAN path gives them: a log-normal body
// around 20 us, and one sample in 200 from a tail around 300 us (scheduler
// and interrupt delays) that reaches a few milliseconds. Seeded, so every run
// and every variant records the same values.
const std::vector<std::uint64_t>& rtt_samples_ns() {
    static const std::vector<std::uint64_t> samples = [] {
        std::mt19937_64 rng(20'000);
        std::lognormal_distribution<double> body_ns(std::log(20'000.0), 0.25);
        std::lognormal_distribution<double> tail_ns(std::log(300'000.0), 1.0);
        std::bernoulli_distribution in_tail(1.0 / 200.0);
        std::vector<std::uint64_t> values(sample_count);
        for (auto& value : values) {
            const double rtt_ns = in_tail(rng) ? tail_ns(rng) : body_ns(rng);
            value = static_cast<std::uint64_t>(std::clamp(rtt_ns, 1'000.0, 10'000'000.0));
        }
        return values;
    }();
    return samples;
}

// HdrHistogram_c's counts_index for lowest trackable value 1 and 3
// significant digits (sub_bucket_count 2048, half count magnitude 10). Values
// must stay below 2^44 to fall inside the array; the samples above do.
constexpr unsigned hdr_half_count_magnitude = 10;
constexpr std::uint64_t hdr_sub_bucket_mask =
    (std::uint64_t{1} << (hdr_half_count_magnitude + 1)) - 1;
constexpr std::size_t hdr_counts_length = (44 - hdr_half_count_magnitude + 1)
                                          << hdr_half_count_magnitude;

inline std::size_t hdr_counts_index(std::uint64_t value_ns) noexcept {
    const auto bucket = static_cast<unsigned>(std::bit_width(value_ns | hdr_sub_bucket_mask)) -
                        (hdr_half_count_magnitude + 1);
    return (std::size_t{bucket} << hdr_half_count_magnitude) +
           static_cast<std::size_t>(value_ns >> bucket);
}

// The per-record figure: a rate over records, inverted, hence seconds per
// record (the table prints "4.2ns"). It is CPU time, as Google Benchmark's
// rates are: a shared machine deschedules the process now and then, and
// wall time would charge those pauses to the recorder.
void report_per_record(benchmark::State& state, std::size_t records_per_iteration) {
    state.counters["per_record"] = benchmark::Counter(
        static_cast<double>(records_per_iteration),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void floor_hdr_counts(benchmark::State& state) {
    const auto& samples = rtt_samples_ns();
    std::vector<std::uint64_t> counts(hdr_counts_length, 0);
    for (auto _ : state) {
        for (const std::uint64_t rtt_ns : samples) {
            ++counts[hdr_counts_index(rtt_ns)];
        }
        benchmark::DoNotOptimize(counts.data());
        benchmark::ClobberMemory();
    }
    report_per_record(state, samples.size());
}

void log_linear_record(benchmark::State& state) {
    const auto& samples = rtt_samples_ns();
    log_linear_histogram histogram;
    for (auto _ : state) {
        for (const std::uint64_t rtt_ns : samples) {
            histogram.record(rtt_ns);
        }
        benchmark::DoNotOptimize(histogram);
        benchmark::ClobberMemory();
    }
    report_per_record(state, samples.size());
}

void log_linear_record_pair(benchmark::State& state) {
    const auto& samples = rtt_samples_ns();
    // A sender that keeps up has equal corrected and uncorrected times, so
    // both histograms get the same value.
    log_linear_histogram corrected;
    log_linear_histogram uncorrected;
    for (auto _ : state) {
        for (const std::uint64_t rtt_ns : samples) {
            uncorrected.record(rtt_ns);
            corrected.record(rtt_ns);
        }
        benchmark::DoNotOptimize(corrected);
        benchmark::DoNotOptimize(uncorrected);
        benchmark::ClobberMemory();
    }
    report_per_record(state, 2 * samples.size());
}

void latency_recorder_record(benchmark::State& state) {
    const auto& samples = rtt_samples_ns();
    latency_recorder recorder{bin_layout{}};
    std::uint64_t iteration = 0;
    for (auto _ : state) {
        for (const std::uint64_t rtt_ns : samples) {
            recorder.record(std::chrono::nanoseconds(rtt_ns), iteration++);
        }
        benchmark::DoNotOptimize(recorder);
        benchmark::ClobberMemory();
    }
    report_per_record(state, samples.size());
}

BENCHMARK(floor_hdr_counts)->Name("floor/hdr_counts_increment");
BENCHMARK(log_linear_record)->Name("log_linear_histogram/record");
BENCHMARK(log_linear_record_pair)->Name("log_linear_histogram/record_pair");
BENCHMARK(latency_recorder_record)->Name("latency_recorder/record");

// The console table as usual, keeping one ns/record figure per variant: the
// median when there are repetitions, the only run otherwise.
class summary_reporter : public benchmark::ConsoleReporter {
  public:
    struct figure {
        std::string name;
        double ns_per_record;
        bool is_median;
    };

    // Colour only on a terminal, so that output piped to a file stays plain
    // (a reporter made here does not see --benchmark_color).
    summary_reporter() : ConsoleReporter(::isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular) {}

    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            const bool is_median =
                run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
            const bool is_single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
            const auto counter = run.counters.find("per_record");
            if (run.error_occurred || (!is_median && !is_single) || counter == run.counters.end()) {
                continue;
            }
            figures_.push_back(
                {run.run_name.function_name, counter->second.value * 1e9, is_median});
        }
    }

    const std::vector<figure>& figures() const noexcept { return figures_; }

  private:
    std::vector<figure> figures_;
};

void print_summary(const std::vector<summary_reporter::figure>& figures) {
    const auto floor = std::find_if(figures.begin(), figures.end(), [](const auto& f) {
        return std::string_view(f.name).starts_with("floor/");
    });
    if (figures.empty()) {
        return;
    }
    fmt::print("\nns per record ({} of {} samples per pass)\n",
               figures.front().is_median ? "median of the repetitions" : "single run",
               sample_count);
    fmt::print("{:<36} {:>10} {:>9}\n", "variant", "ns/record", "x floor");
    for (const auto& f : figures) {
        if (floor != figures.end() && floor->ns_per_record > 0.0) {
            fmt::print("{:<36} {:>10.2f} {:>9.2f}\n", f.name, f.ns_per_record,
                       f.ns_per_record / floor->ns_per_record);
        } else {
            fmt::print("{:<36} {:>10.2f} {:>9}\n", f.name, f.ns_per_record, "-");
        }
    }
}

}  // namespace
}  // namespace sctp_perf

int main(int argc, char** argv) {
    // Defaults that make the summary a median of several runs; flags given on
    // the command line come later and override them.
    std::vector<char*> args{argv[0]};
    std::string repetitions = "--benchmark_repetitions=15";
    std::string aggregates_only = "--benchmark_report_aggregates_only=true";
    args.push_back(repetitions.data());
    args.push_back(aggregates_only.data());
    args.insert(args.end(), argv + 1, argv + argc);
    int arg_count = static_cast<int>(args.size());

    benchmark::Initialize(&arg_count, args.data());
    if (benchmark::ReportUnrecognizedArguments(arg_count, args.data())) {
        return 2;
    }
    sctp_perf::summary_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    sctp_perf::print_summary(reporter.figures());
    return 0;
}
