// SPDX-License-Identifier: Apache-2.0
#include "report/latency_file.hpp"

#include <fcntl.h>
#include <fmt/compile.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <system_error>
#include <utility>

namespace sctp_perf {

struct latency_file::buffer_slot {
    fmt::memory_buffer bytes;
};

namespace {

constexpr std::string_view header_row =
    "flow,sequence,due_ns,send_ns,reply_ns,corrected_ns,uncorrected_ns\n";

}  // namespace

latency_file::latency_file(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        throw std::system_error(errno, std::generic_category(),
                                "cannot open latency file " + path_);
    }
    append(header_row);
}

latency_file::~latency_file() {
    try {
        close();
    } catch (const std::system_error&) {
        // Whoever needed the error called close() themselves.
    }
}

void latency_file::append(std::string_view bytes) noexcept {
    const std::lock_guard lock(mutex_);
    append_locked(bytes);
}

void latency_file::append_locked(std::string_view bytes) noexcept {
    // After the first error the rows are lost anyway; retrying on a full disk
    // would only slow the measurement.
    if (fd_ < 0 || write_errno_ != 0) {
        return;
    }
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            write_errno_ = written < 0 ? errno : EIO;
            failed_action_ = "cannot write latency file ";
            return;
        }
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
}

latency_file::writer latency_file::make_writer() {
    auto slot = std::make_unique<buffer_slot>();
    // Reserved once: add() flushes before the buffer would have to grow.
    slot->bytes.reserve(writer_buffer_bytes);
    const std::lock_guard lock(mutex_);
    slots_.push_back(std::move(slot));
    return writer(*this, *slots_.back());
}

void latency_file::close() {
    int error = 0;
    {
        const std::lock_guard lock(mutex_);
        if (fd_ < 0) {
            return;
        }
        for (const auto& slot : slots_) {
            append_locked({slot->bytes.data(), slot->bytes.size()});
            slot->bytes.clear();
        }
        if (::close(fd_) != 0 && write_errno_ == 0) {
            write_errno_ = errno;
            failed_action_ = "cannot close latency file ";
        }
        fd_ = -1;
        error = write_errno_;
    }
    if (error != 0) {
        throw std::system_error(error, std::generic_category(), failed_action_ + path_);
    }
}

latency_file::writer::writer(writer&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)), slot_(std::exchange(other.slot_, nullptr)) {}

latency_file::writer& latency_file::writer::operator=(writer&& other) noexcept {
    if (this != &other) {
        release();
        file_ = std::exchange(other.file_, nullptr);
        slot_ = std::exchange(other.slot_, nullptr);
    }
    return *this;
}

latency_file::writer::~writer() {
    release();
}

void latency_file::writer::release() noexcept {
    if (file_ == nullptr) {
        return;
    }
    flush();
    const std::lock_guard lock(file_->mutex_);
    auto& slots = file_->slots_;
    slots.erase(std::find_if(slots.begin(), slots.end(),
                             [this](const auto& slot) { return slot.get() == slot_; }));
    file_ = nullptr;
    slot_ = nullptr;
}

void latency_file::writer::add(std::uint32_t flow, std::uint64_t sequence, std::int64_t due_ns,
                               std::int64_t send_ns, std::int64_t reply_ns) {
    auto& bytes = slot_->bytes;
    // Compiled format: this runs once per timed message.
    fmt::format_to(std::back_inserter(bytes), FMT_COMPILE("{},{},{},{},{},{},{}\n"), flow, sequence,
                   due_ns, send_ns, reply_ns, reply_ns - due_ns, reply_ns - send_ns);
    if (writer_buffer_bytes - bytes.size() < max_row_bytes) {
        flush();
    }
}

void latency_file::writer::flush() noexcept {
    if (slot_ == nullptr) {
        return;  // moved from
    }
    auto& bytes = slot_->bytes;
    if (bytes.size() == 0) {
        return;
    }
    file_->append({bytes.data(), bytes.size()});
    bytes.clear();
}

std::size_t latency_file::writer::buffered_bytes() const noexcept {
    return slot_ == nullptr ? 0 : slot_->bytes.size();
}

std::size_t latency_file::writer::buffer_capacity_bytes() const noexcept {
    return slot_ == nullptr ? 0 : slot_->bytes.capacity();
}

}  // namespace sctp_perf
