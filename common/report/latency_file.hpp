// SPDX-License-Identifier: Apache-2.0
#pragma once
// --latency-file FILE: every timed message as one CSV row, for analysis that a
// histogram cannot do (latency against time, per flow, around a stall).
//
// Columns: flow,sequence,due_ns,send_ns,reply_ns,corrected_ns,uncorrected_ns
// Times are nanoseconds since measuring started. corrected = reply - due (the
// latency a user would see if the message had left on schedule), uncorrected
// = reply - send; in throughput mode nothing is scheduled and due equals send.
//
// A row is written per timed message, so the hot path formats into memory
// only: each worker thread owns a writer whose buffer of at most
// writer_buffer_bytes is appended to the file, under a mutex, when it fills.
// Memory is thus bounded by the number of writers, whatever the run length.
// Rows of different writers arrive in chunks: the file is not in time order
// (sort by send_ns when that matters).
//
// Write errors (a full disk) must not stop the measurement nor throw from a
// destructor, so the first one is remembered, later writes are skipped, and
// close() reports it.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace sctp_perf {

class latency_file {
    struct buffer_slot;

  public:
    // A row never exceeds max_row_bytes: a 10-digit flow, a 20-digit sequence,
    // five 20-character times, six commas and a newline make 137.
    static constexpr std::size_t writer_buffer_bytes = 64 * 1024;
    static constexpr std::size_t max_row_bytes = 160;

    // Opens (creating or truncating) `path` and writes the header row. Throws
    // std::system_error naming the file if it cannot be opened.
    explicit latency_file(const std::string& path);
    // Closes quietly if close() was not called; a write error is then lost.
    ~latency_file();
    latency_file(const latency_file&) = delete;
    latency_file& operator=(const latency_file&) = delete;

    // One per worker thread; never shared between threads. Must not outlive
    // its file.
    class writer {
      public:
        writer(writer&& other) noexcept;
        writer& operator=(writer&& other) noexcept;
        writer(const writer&) = delete;
        writer& operator=(const writer&) = delete;
        // Flushes; an error is remembered by the file, for close() to report.
        ~writer();

        // Buffers one row; appends the buffer to the file once it is nearly
        // full. Not on a moved-from writer.
        void add(std::uint32_t flow, std::uint64_t sequence, std::int64_t due_ns,
                 std::int64_t send_ns, std::int64_t reply_ns);
        // Appends the buffered rows to the file. Never throws: see close().
        void flush() noexcept;

        // For tests of the memory bound.
        std::size_t buffered_bytes() const noexcept;
        std::size_t buffer_capacity_bytes() const noexcept;

      private:
        friend class latency_file;
        writer(latency_file& file, buffer_slot& slot) noexcept : file_(&file), slot_(&slot) {}
        void release() noexcept;

        latency_file* file_ = nullptr;  // null once moved from
        buffer_slot* slot_ = nullptr;
    };

    writer make_writer();

    // Flushes every writer still alive, then closes the file. Call it after
    // the worker threads stopped recording; writers may be destroyed before
    // or after. Throws std::system_error naming the file if any write (or the
    // close itself) failed. A second call does nothing.
    void close();

    const std::string& path() const noexcept { return path_; }

  private:
    // Appends under mutex_; remembers the first error instead of throwing.
    void append(std::string_view bytes) noexcept;
    void append_locked(std::string_view bytes) noexcept;

    std::string path_;
    std::mutex mutex_;  // guards everything below, and the file offset
    int fd_ = -1;
    int write_errno_ = 0;        // the first write error, 0 if none
    std::string failed_action_;  // what failed, for close()'s message
    // Owned here rather than by the writers so that close() can flush the
    // writers still alive; a writer points at its slot.
    std::vector<std::unique_ptr<buffer_slot>> slots_;
};

}  // namespace sctp_perf
