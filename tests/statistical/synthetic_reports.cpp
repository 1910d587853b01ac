// SPDX-License-Identifier: Apache-2.0
#include "synthetic_reports.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "report/run_notes.hpp"
#include "stats/latency_recorder.hpp"

namespace sctp_perf::statistical {

double draws::uniform() {
    // The top 53 bits: every double in [0, 1) a multiple of 2^-53.
    return static_cast<double>(generator_() >> 11) * 0x1.0p-53;
}

double draws::normal() {
    const double u = 1.0 - uniform();  // (0, 1]: no log of 0
    const double v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
}

const std::vector<spread_model>& spread_models() {
    // A loopback TCP ping-pong run's percentiles (the manual's section
    // 9.4): p50 14.4, p90 17.7, p99 21.7, p99.9 65, max 100 us; the tail
    // percentiles spread more from run to run than the median does.
    static const std::vector<spread_model> models = {
        {"pinned", {14.4, 17.7, 21.7, 65.0, 100.0}, {0.03, 0.05, 0.10, 0.20, 0.40}, 0.0, 1.0},
        {"loaded", {14.4, 17.7, 21.7, 65.0, 100.0}, {0.06, 0.08, 0.15, 0.25, 0.50}, 0.0, 1.0},
        {"drifting", {14.4, 17.7, 21.7, 65.0, 100.0}, {0.03, 0.05, 0.10, 0.20, 0.40}, 0.25, 1.25},
        {"unpinned", {20.4, 25.0, 34.1, 80.0, 150.0}, {0.15, 0.15, 0.25, 0.30, 0.50}, 0.0, 1.0},
    };
    return models;
}

const spread_model& spread_model_named(const std::string& name) {
    for (const auto& model : spread_models()) {
        if (model.name == name) {
            return model;
        }
    }
    throw std::invalid_argument("no spread model is named '" + name + "'");
}

namespace {

double nanosecond_rounded(double us) {
    return std::max(0.001, std::round(us * 1000.0) / 1000.0);
}

}  // namespace

compare::percentile_values_us draw_run(const spread_model& model, draws& random) {
    const double machine = random.uniform() < model.busy_share ? model.busy_factor : 1.0;
    compare::percentile_values_us values{};
    double below = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double own = std::exp(model.log_deviation[i] * random.normal());
        // A percentile is never below the one under it in the same run.
        below = std::max(below, model.typical_us[i] * machine * own);
        values[i] = nanosecond_rounded(below);
    }
    return values;
}

compare::percentile_values_us scaled(const compare::percentile_values_us& values_us,
                                     double factor) {
    compare::percentile_values_us result{};
    for (std::size_t i = 0; i < values_us.size(); ++i) {
        result[i] = nanosecond_rounded(values_us[i] * factor);
    }
    return result;
}

nlohmann::json synthetic_report(const nlohmann::json& template_doc,
                                const compare::percentile_values_us& values_us,
                                const std::string& model, std::uint64_t serial) {
    nlohmann::json doc = template_doc;
    const double max_us = values_us[static_cast<std::size_t>(compare::compared_percentile::max)];
    auto& percentiles = doc["percentiles"];
    for (const auto& point : reported_percentiles) {
        const auto key = percentile_json_key(point);
        if (percentiles.contains(key)) {
            percentiles[key] = max_us;
        }
    }
    for (const auto percentile : compare::all_compared_percentiles) {
        percentiles[compare::report_key_of(percentile)] =
            values_us[static_cast<std::size_t>(percentile)];
    }
    if (doc.contains("summary") && doc["summary"].is_object()) {
        auto& summary = doc["summary"];
        summary["max_us"] = max_us;
        if (summary.contains("min_us") && summary["min_us"].is_number()) {
            summary["min_us"] = std::min(summary["min_us"].get<double>(), values_us[0]);
        }
    }
    doc.erase("hdr_histogram");
    doc.erase("runs");
    doc.erase("aggregate");
    doc["synthetic"] = {{"model", model}, {"serial", serial}};
    return doc;
}

}  // namespace sctp_perf::statistical
