// SPDX-License-Identifier: Apache-2.0
#include "client/load/interval_collector.hpp"

#include <algorithm>

namespace sctp_perf {
namespace {

void clear_interval(sample_sink& sink) {
    sink.interval_sent = 0;
    sink.interval_replies = 0;
    sink.corrected_interval.reset();
    sink.uncorrected_interval.reset();
}

}  // namespace

std::uint64_t interval_collector::add_part(std::uint64_t index,
                                           std::chrono::steady_clock::time_point end,
                                           sample_sink& sink) {
    index = std::max(index, next_);
    auto& slot = slots_[index];
    if (!slot) {
        slot = std::make_unique<interval_slot>();
    }
    slot->end = std::max(slot->end, end);
    slot->sent += sink.interval_sent;
    slot->replies += sink.interval_replies;
    slot->corrected.merge(sink.corrected_interval);
    slot->uncorrected.merge(sink.uncorrected_interval);
    ++slot->parts;
    return index;
}

void interval_collector::hand_in(std::uint64_t index, std::chrono::steady_clock::time_point end,
                                 sample_sink& sink) {
    {
        const std::lock_guard lock(mutex_);
        add_part(index, end, sink);
    }
    clear_interval(sink);
    changed_.notify_all();
}

void interval_collector::hand_in_last(std::uint64_t index,
                                      std::chrono::steady_clock::time_point end,
                                      sample_sink& sink) {
    {
        // One step, so that the interval the part went to cannot be taken
        // before the worker is known to be done with it.
        const std::lock_guard lock(mutex_);
        last_indices_.push_back(add_part(index, end, sink));
    }
    clear_interval(sink);
    changed_.notify_all();
}

bool interval_collector::complete(std::uint64_t index) const {
    const auto it = slots_.find(index);
    const unsigned parts = it == slots_.end() ? 0 : it->second->parts;
    const auto absent =
        static_cast<unsigned>(std::count_if(last_indices_.begin(), last_indices_.end(),
                                            [index](std::uint64_t last) { return last < index; }));
    return it != slots_.end() && parts + absent == workers_;
}

std::unique_ptr<interval_slot> interval_collector::next(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    // Also woken when the last worker is done, so that the end of a run is
    // not held up by the wait.
    const bool ready = changed_.wait_for(lock, wait, [this] {
        return complete(next_) || (last_indices_.size() == workers_ && slots_.empty());
    });
    if (!ready || !complete(next_)) {
        return nullptr;
    }
    auto slot = std::move(slots_[next_]);
    slots_.erase(next_);
    ++next_;
    return slot;
}

bool interval_collector::drained() {
    const std::lock_guard lock(mutex_);
    return last_indices_.size() == workers_ && slots_.empty();
}

}  // namespace sctp_perf
