// SPDX-License-Identifier: Apache-2.0
#pragma once
// Both sides' percentile spectra on one chart, drawn by gnuplot: x is
// 1 / (1 - percentile) on a log scale, as HdrHistogram's plotter draws a
// spectrum (50 % at 2, 90 % at 10, 99 % at 100, 99.9 % at 1000, so each
// "nine" takes the same room; the maximum one decade past 99.9 %); y is the
// median over each side's runs, log scale, with a band for the median's
// order-statistic interval over the runs.

#include <chrono>
#include <string>

#include "compare/comparison.hpp"
#include "errors.hpp"

namespace sctp_perf::compare {

// The gnuplot script that draws `result` into `png_path`, its data inline,
// so the script alone redraws the chart. Pure: no I/O.
std::string spectrum_plot_script(const comparison_result& result, const std::string& png_path);

// How long gnuplot may take before it is stopped: a chart of ten points
// takes well under a second.
inline constexpr std::chrono::seconds gnuplot_time_limit{60};

// Draws `result` into `png_path` with gnuplot (found in PATH), waiting for
// it at most `limit`. Throws plot_error when gnuplot is missing, fails,
// runs out of time or draws no PNG, or `png_path` cannot be written; the
// file at `png_path` is replaced only by a whole PNG.
void draw_spectrum_plot(const comparison_result& result, const std::string& png_path,
                        std::chrono::seconds limit = gnuplot_time_limit);

}  // namespace sctp_perf::compare
