// SPDX-License-Identifier: Apache-2.0
#include "report/latency_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

using sctp_perf::latency_file;

namespace {

const std::string csv_header =
    "flow,sequence,due_ns,send_ns,reply_ns,corrected_ns,uncorrected_ns\n";

// A file in the temporary directory, removed at the end of the test.
class temp_path {
  public:
    explicit temp_path(const std::string& name)
        : path_(std::filesystem::temp_directory_path() /
                ("sctp_perf_" + std::to_string(::getpid()) + "_" + name)) {}
    ~temp_path() {
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
    std::string string() const { return path_.string(); }
    std::uintmax_t size() const { return std::filesystem::file_size(path_); }

  private:
    std::filesystem::path path_;
};

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

struct row {
    std::uint32_t flow = 0;
    std::uint64_t sequence = 0;
    std::int64_t due_ns = 0, send_ns = 0, reply_ns = 0, corrected_ns = 0, uncorrected_ns = 0;
};

row parse_row(const std::string& line) {
    std::istringstream in(line);
    row r;
    char c1, c2, c3, c4, c5, c6;
    in >> r.flow >> c1 >> r.sequence >> c2 >> r.due_ns >> c3 >> r.send_ns >> c4 >> r.reply_ns >>
        c5 >> r.corrected_ns >> c6 >> r.uncorrected_ns;
    INFO(line);
    REQUIRE(in);
    REQUIRE(std::string{c1, c2, c3, c4, c5, c6} == ",,,,,,");
    return r;
}

}  // namespace

TEST_CASE("latency file: one row per timed message, header first", "[latency_file]") {
    const temp_path path("one_row.csv");
    latency_file file(path.string());
    {
        auto w = file.make_writer();
        // Due at 1000 ns, sent late at 1500 ns, reply at 21500 ns:
        // corrected 21500 - 1000 = 20500, uncorrected 21500 - 1500 = 20000.
        w.add(3, 42, 1000, 1500, 21500);
    }  // the writer's destructor flushes
    file.close();
    CHECK(read_lines(path.string()) ==
          std::vector<std::string>{csv_header.substr(0, csv_header.size() - 1),
                                   "3,42,1000,1500,21500,20500,20000"});
}

TEST_CASE("latency file: rows of two writer threads all arrive intact", "[latency_file]") {
    const temp_path path("two_writers.csv");
    latency_file file(path.string());
    // 20000 rows of about 45 bytes per thread: several buffers each, so the
    // two threads' chunks interleave in the file.
    constexpr std::uint64_t rows_per_thread = 20000;
    auto record = [&file](std::uint32_t flow) {
        auto w = file.make_writer();
        for (std::uint64_t seq = 0; seq < rows_per_thread; ++seq) {
            // Due every 1000 ns, sent 100 ns late, replied 10000 + flow ns later.
            const auto due_ns = static_cast<std::int64_t>(seq * 1000);
            w.add(flow, seq, due_ns, due_ns + 100, due_ns + 100 + 10000 + flow);
        }
    };
    std::thread a(record, 1);
    std::thread b(record, 2);
    a.join();
    b.join();
    file.close();

    const auto lines = read_lines(path.string());
    REQUIRE(lines.size() == 1 + 2 * rows_per_thread);
    CHECK(lines.front() + "\n" == csv_header);
    std::map<std::uint32_t, std::uint64_t> next_sequence{{1, 0}, {2, 0}};
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const row r = parse_row(lines[i]);
        REQUIRE(next_sequence.count(r.flow) == 1);
        // Within a flow rows keep their order; only whole chunks interleave.
        REQUIRE(r.sequence == next_sequence[r.flow]++);
        REQUIRE(r.due_ns == static_cast<std::int64_t>(r.sequence * 1000));
        REQUIRE(r.send_ns == r.due_ns + 100);
        REQUIRE(r.corrected_ns == 10100 + r.flow);
        REQUIRE(r.uncorrected_ns == 10000 + r.flow);
    }
    CHECK(next_sequence[1] == rows_per_thread);
    CHECK(next_sequence[2] == rows_per_thread);
}

TEST_CASE("latency file: a writer's buffer is flushed at its bound, never grown",
          "[latency_file]") {
    const temp_path path("bounded.csv");
    latency_file file(path.string());
    auto w = file.make_writer();
    const std::size_t capacity = w.buffer_capacity_bytes();
    CHECK(capacity == latency_file::writer_buffer_bytes);
    CHECK(path.size() == csv_header.size());

    // "1,7,1000,1500,21500,20500,20000\n" is 32 bytes. The writer flushes once
    // fewer than 160 bytes remain of 65536, i.e. once 32 n > 65536 - 160 =
    // 65376, first at n = 2044 rows (65408 bytes).
    const std::string row_text = "1,7,1000,1500,21500,20500,20000\n";
    REQUIRE(row_text.size() == 32);
    for (int n = 1; n <= 2043; ++n) {
        w.add(1, 7, 1000, 1500, 21500);
    }
    CHECK(w.buffered_bytes() == 2043 * 32);
    CHECK(path.size() == csv_header.size());
    w.add(1, 7, 1000, 1500, 21500);
    CHECK(w.buffered_bytes() == 0);
    CHECK(path.size() == csv_header.size() + 2044 * 32);

    // A hundred thousand more rows (3.2 MB) pass through the same memory.
    std::size_t most_buffered = 0;
    for (int n = 0; n < 100'000; ++n) {
        w.add(1, 7, 1000, 1500, 21500);
        most_buffered = std::max(most_buffered, w.buffered_bytes());
    }
    CHECK(most_buffered <= latency_file::writer_buffer_bytes);
    CHECK(w.buffer_capacity_bytes() == capacity);
    file.close();  // flushes the writer still alive
    CHECK(path.size() == csv_header.size() + (2044 + 100'000) * 32);
}

TEST_CASE("latency file: a moved writer keeps its rows", "[latency_file]") {
    const temp_path path("moved.csv");
    latency_file file(path.string());
    std::vector<latency_file::writer> writers;
    writers.push_back(file.make_writer());
    writers.front().add(1, 0, 0, 0, 5);
    writers.push_back(file.make_writer());  // may move the first writer
    writers.back().add(2, 0, 0, 0, 7);
    writers.clear();
    file.close();
    CHECK(read_lines(path.string()).size() == 3);
}

TEST_CASE("latency file: a full disk makes close() throw, naming the file", "[latency_file]") {
    latency_file file("/dev/full");
    {
        auto w = file.make_writer();
        w.add(1, 0, 0, 0, 1000);
        w.flush();  // does not throw: the error waits for close()
    }
    try {
        file.close();
        FAIL("close() did not throw");
    } catch (const std::system_error& e) {
        CHECK(e.code() == std::error_code(ENOSPC, std::generic_category()));
        CHECK_THAT(e.what(), Catch::Matchers::Contains("/dev/full"));
    }
    CHECK_NOTHROW(file.close());  // reported once
}

TEST_CASE("latency file: a file that cannot be opened is named", "[latency_file]") {
    CHECK_THROWS_WITH(latency_file("/nonexistent-directory/latency.csv"),
                      Catch::Matchers::Contains("/nonexistent-directory/latency.csv"));
}
