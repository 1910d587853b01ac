// SPDX-License-Identifier: Apache-2.0
#include "compare/spectrum_plot.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>
#include <thread>

extern char** environ;

namespace sctp_perf::compare {
namespace {

// A text as a gnuplot string literal: in single quotes nothing is an
// escape but '' for a quote.
std::string quoted(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        out += c == '\'' ? std::string("''") : std::string(1, c);
    }
    return out + "'";
}

std::string side_title(char name, const side_runs& side) {
    return fmt::format(
        "{} ({} run{}, {}): {}", name, side.runs.size(), side.runs.size() == 1 ? "" : "s",
        side.paths.empty() ? std::string("?") : side.paths.front(), describe_config(side.config));
}

// One side's points: x, median, and its interval's ends.
std::string data_block(const std::string& name, const comparison_result& result, bool b_side) {
    std::string block =
        fmt::format("${} << EOD\n# 1/(1-percentile) median_us low_us high_us\n", name);
    for (const auto& row : result.rows) {
        const auto& figures = b_side ? row.b : row.a;
        block += fmt::format("{} {} {} {}\n", spectrum_position(row.percentile), figures.median_us,
                             figures.median_interval_us.low, figures.median_interval_us.high);
    }
    return block + "EOD\n";
}

// The latency the reports' percentiles hold, by mode (as the clients'
// reports and run_spectrum.pl's plot name it).
std::string latency_label(const std::string& mode) {
    if (mode == "rate") {
        return "corrected round-trip latency";
    }
    if (mode == "throughput") {
        return "uncorrected round-trip latency";
    }
    return "round-trip latency";
}

double coverage_percent(const comparison_result& result, bool b_side) {
    return result.rows.empty() ? 0.0
           : b_side            ? result.rows.front().b.median_interval_us.coverage * 100.0
                               : result.rows.front().a.median_interval_us.coverage * 100.0;
}

// Removes what it names when it goes: the plot's scratch directory.
struct scratch_directory {
    std::filesystem::path path;
    ~scratch_directory() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

scratch_directory make_scratch_directory() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/sctp-perf-compare.XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw plot_error(fmt::format("cannot make a directory for gnuplot's script ({}): {}",
                                     pattern, std::generic_category().message(errno)));
    }
    return {pattern};
}

// The last non-empty line gnuplot wrote: its error, when it failed.
std::string last_line_of(const std::filesystem::path& log) {
    std::ifstream file(log);
    std::string line;
    std::string last;
    while (std::getline(file, line)) {
        if (line.find_first_not_of(" \t\r^") != std::string::npos) {
            last = line;
        }
    }
    return last.empty() ? "it said nothing" : "it said: " + last;
}

bool has_png_signature(const std::filesystem::path& path) {
    static constexpr std::array<char, 8> signature{'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};
    std::ifstream file(path, std::ios::binary);
    std::array<char, 8> head{};
    file.read(head.data(), head.size());
    return file.gcount() == static_cast<std::streamsize>(head.size()) && head == signature;
}

// Waits for `pid` at most `limit`; kills it when the time is up. Returns
// its wait status, or nullopt when it had to be killed.
std::optional<int> wait_bounded(pid_t pid, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (true) {
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            return status;
        }
        if (done < 0 && errno != EINTR) {
            throw plot_error(
                fmt::format("cannot wait for gnuplot: {}", std::generic_category().message(errno)));
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return std::nullopt;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void write_script(const std::filesystem::path& path, const std::string& script) {
    std::ofstream file(path);
    file << script;
    file.close();
    if (!file) {
        throw plot_error(fmt::format("cannot write gnuplot's script {}: {}", path.string(),
                                     std::generic_category().message(errno)));
    }
}

// Starts `gnuplot SCRIPT` with nothing on its input and its output and
// errors in `log`, for last_line_of() to quote when it fails.
pid_t spawn_gnuplot(const std::filesystem::path& script_path, const std::filesystem::path& log) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    std::string program = "gnuplot";
    std::string argument = script_path.string();
    char* argv[] = {program.data(), argument.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned == ENOENT) {
        throw plot_error(
            "--plot needs gnuplot, which is not in PATH: install gnuplot-nox, or leave out "
            "--plot");
    }
    if (spawned != 0) {
        throw plot_error(
            fmt::format("cannot run gnuplot: {}", std::generic_category().message(spawned)));
    }
    return pid;
}

// Throws unless gnuplot, given `limit`, ended well and left a PNG at
// `drawn_path`; names `png_path`, the file the user asked for.
void check_drawing(pid_t pid, std::chrono::seconds limit, const std::string& png_path,
                   const std::filesystem::path& drawn_path, const std::filesystem::path& log) {
    const auto status = wait_bounded(pid, limit);
    if (!status) {
        throw plot_error(
            fmt::format("gnuplot did not finish drawing {} within {} s", png_path, limit.count()));
    }
    if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
        throw plot_error(fmt::format("gnuplot failed drawing {} ({}); {}", png_path,
                                     WIFEXITED(*status)
                                         ? fmt::format("exit {}", WEXITSTATUS(*status))
                                         : fmt::format("signal {}", WTERMSIG(*status)),
                                     last_line_of(log)));
    }
    if (!has_png_signature(drawn_path)) {
        throw plot_error(
            fmt::format("gnuplot drew no PNG for {}; {}", png_path, last_line_of(log)));
    }
}

}  // namespace

std::string spectrum_plot_script(const comparison_result& result, const std::string& png_path) {
    std::string script = fmt::format(
        "# Drawn by sctp-perf-compare: both sides' percentile spectra, the median over\n"
        "# each side's runs with its interval as a band. Redraw with: gnuplot THIS_FILE\n"
        "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {{\n"
        "    set terminal pngcairo size 1000,650 noenhanced font ',10'\n"
        "}} else {{\n"
        "    set terminal png size 1000,650 noenhanced\n"
        "}}\n"
        "set output {}\n"
        "set title {} noenhanced\n"
        "set xlabel 'percentile (log scale of 1/(1 - percentile))'\n"
        "set ylabel {}\n"
        "set logscale x 10\n"
        "set logscale y 10\n"
        "set xrange [1.5 : 15000]\n"
        // A tic's label is a format for its position: %% is a percent sign.
        "set xtics ('50%%' 2, '90%%' 10, '99%%' 100, '99.9%%' 1000, 'max' 10000)\n"
        "set grid xtics ytics mytics\n"
        // Room below for the tics, the label and the key's four lines:
        // gnuplot's own reckoning runs the key into the label.
        "set key below Left reverse\n"
        "set bmargin 8\n"
        "set style fill transparent solid 0.2 noborder\n",
        quoted(png_path),
        quoted(fmt::format("sctp-perf-compare: B against A, median over runs, B/A at p50 {:.3f} "
                           "({:.3f} to {:.3f})",
                           result.rows.front().ratio.ratio, result.rows.front().ratio.low,
                           result.rows.front().ratio.high)),
        quoted(latency_label(result.a.config.mode) +
               " (microseconds, log scale): median over runs"));
    script += data_block("A", result, false);
    script += data_block("B", result, true);
    script += fmt::format(
        "plot $A using 1:3:4 with filledcurves linecolor rgb '#1f77b4' title {}, \\\n"
        "     $B using 1:3:4 with filledcurves linecolor rgb '#d62728' title {}, \\\n"
        "     $A using 1:2 with linespoints linecolor rgb '#1f77b4' linewidth 2 pointtype 7 "
        "title {}, \\\n"
        "     $B using 1:2 with linespoints linecolor rgb '#d62728' linewidth 2 pointtype 5 "
        "title {}\n",
        quoted(fmt::format("A: the median's {:g} % interval over runs",
                           coverage_percent(result, false))),
        quoted(fmt::format("B: the median's {:g} % interval over runs",
                           coverage_percent(result, true))),
        quoted(side_title('A', result.a)), quoted(side_title('B', result.b)));
    return script;
}

void draw_spectrum_plot(const comparison_result& result, const std::string& png_path,
                        std::chrono::seconds limit) {
    const auto scratch = make_scratch_directory();
    const auto script_path = scratch.path / "spectrum.gp";
    const auto log_path = scratch.path / "gnuplot.log";
    // gnuplot draws into the scratch directory and the PNG is copied into
    // place when whole: a failed drawing never clobbers an older plot, and a
    // path that cannot be written gets the system's reason, not gnuplot's.
    const auto drawn_path = scratch.path / "spectrum.png";
    write_script(script_path, spectrum_plot_script(result, drawn_path.string()));
    const pid_t pid = spawn_gnuplot(script_path, log_path);
    check_drawing(pid, limit, png_path, drawn_path, log_path);
    // Copied, not renamed: the scratch directory may be on another file system.
    std::error_code error;
    std::filesystem::copy_file(drawn_path, png_path,
                               std::filesystem::copy_options::overwrite_existing, error);
    if (error) {
        throw plot_error(fmt::format("cannot write the plot {}: {}", png_path, error.message()));
    }
}

}  // namespace sctp_perf::compare
