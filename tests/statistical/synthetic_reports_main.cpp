// SPDX-License-Identifier: Apache-2.0
// Writes synthetic client reports with a known truth (synthetic_reports.hpp)
// for the statistical tier's run through the real sctp-perf-compare:
//
//   sctp_perf_synthetic_reports TEMPLATE DIR RUNS [FACTOR [MODEL [SEED]]]
//
// writes DIR/run-1.json ... DIR/run-RUNS.json, each the report TEMPLATE (a
// client's JSON report) with one run of MODEL (pinned, loaded, drifting,
// unpinned; drifting by default), drawn from SEED (1 by default), every
// percentile times FACTOR (1 by default). Two sides drawn with different
// seeds, one with FACTOR 1.2, differ by exactly 20 % in truth.

#include <fmt/format.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "synthetic_reports.hpp"

int main(int argc, char** argv) {
    using namespace sctp_perf::statistical;
    if (argc < 4 || argc > 7) {
        std::cerr << "usage: " << argv[0] << " TEMPLATE DIR RUNS [FACTOR [MODEL [SEED]]]\n";
        return 2;
    }
    try {
        std::ifstream template_file(argv[1], std::ios::binary);
        std::ostringstream text;
        text << template_file.rdbuf();
        if (!template_file) {
            throw std::runtime_error(fmt::format("cannot read {}", argv[1]));
        }
        const auto template_doc = nlohmann::json::parse(text.str());
        const std::filesystem::path dir = argv[2];
        const auto runs = std::stoul(argv[3]);
        const double factor = argc > 4 ? std::stod(argv[4]) : 1.0;
        const auto& model = spread_model_named(argc > 5 ? argv[5] : "drifting");
        const auto seed = argc > 6 ? std::stoull(argv[6]) : 1ULL;
        std::filesystem::create_directories(dir);
        draws random(seed);
        for (unsigned long k = 1; k <= runs; ++k) {
            const auto values = scaled(draw_run(model, random), factor);
            const auto path = dir / fmt::format("run-{}.json", k);
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out << synthetic_report(template_doc, values, model.name, seed * 1'000'000 + k).dump(2)
                << '\n';
            if (!out) {
                throw std::runtime_error(fmt::format("cannot write {}", path.string()));
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": " << e.what() << '\n';
        return 1;
    }
}
