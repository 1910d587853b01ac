// SPDX-License-Identifier: Apache-2.0
#include "stats/binned_histogram.hpp"

#include <algorithm>

namespace sctp_perf {

binned_histogram::binned_histogram(const bin_layout& layout)
    : layout_(layout), range_us_(layout.max_us - layout.min_us), bins_(layout.bin_count, 0) {
    kept_.reserve(layout.max_outliers);
}

double binned_histogram::bin_low(std::size_t index) const noexcept {
    // The top edge is max_us itself, not min + range * n / n, which can miss
    // it by an ulp (0..0.7 us in 3 bins: 0.7 * 3 / 3 is 0.6999999999999998);
    // otherwise the last bin's printed high edge and the `above` test in
    // record() would disagree.
    if (index >= layout_.bin_count) {
        return layout_.max_us;
    }
    return layout_.min_us +
           range_us_ * static_cast<double>(index) / static_cast<double>(layout_.bin_count);
}

double binned_histogram::bin_high(std::size_t index) const noexcept {
    return bin_low(index + 1);
}

bool binned_histogram::record(double value_us, std::uint64_t iteration) noexcept {
    ++total_;
    if (value_us < layout_.min_us) {
        ++below_;
        keep_outlier(value_us, iteration);
        return false;
    }
    if (value_us >= layout_.max_us) {
        ++above_;
        keep_outlier(value_us, iteration);
        return false;
    }
    // (v - min) * n / range is rounded differently from the edges bin_low()
    // computes, so a value exactly on an edge can come out one bin low (32.3 us
    // in 1000 bins over 0..100 us: 32.3 * 1000 / 100 is 322.99999999999994),
    // and a value a hair below max_us at index bin_count. Comparing the
    // estimate with the very edges the report prints settles it: the bin is
    // the one whose [bin_low(i), bin_low(i + 1)) holds the value. Both
    // roundings are a few ulps, so each loop below tests once and steps at
    // most once unless bins are only ulps wide; they end because
    // bin_low(0) = min_us <= value_us < max_us = bin_low(bin_count).
    auto index = static_cast<std::size_t>((value_us - layout_.min_us) *
                                          static_cast<double>(layout_.bin_count) / range_us_);
    index = std::min(index, layout_.bin_count - 1);
    while (value_us < bin_low(index)) {
        --index;
    }
    while (value_us >= bin_low(index + 1)) {
        ++index;
    }
    ++bins_[index];
    return true;
}

void binned_histogram::merge(const binned_histogram& other, std::uint64_t iteration_offset) {
    for (std::size_t i = 0; i < bins_.size() && i < other.bins_.size(); ++i) {
        bins_[i] += other.bins_[i];
    }
    below_ += other.below_;
    above_ += other.above_;
    total_ += other.total_;
    // In their iteration order, so that of two equally extreme outliers of
    // `other` the earlier is kept, as when they were recorded.
    std::vector<outlier> theirs = other.kept_;
    std::sort(theirs.begin(), theirs.end(),
              [](const outlier& a, const outlier& b) { return a.iteration < b.iteration; });
    for (const auto& o : theirs) {
        keep_outlier(o.value_us, o.iteration + iteration_offset);
    }
}

double binned_histogram::distance_outside(double value_us) const noexcept {
    return value_us < layout_.min_us ? layout_.min_us - value_us : value_us - layout_.max_us;
}

void binned_histogram::keep_outlier(double value_us, std::uint64_t iteration) noexcept {
    if (layout_.max_outliers == 0) {
        return;
    }
    const auto less_extreme_first = [this](const outlier& a, const outlier& b) {
        return distance_outside(a.value_us) > distance_outside(b.value_us);
    };
    if (kept_.size() < layout_.max_outliers) {
        kept_.push_back({value_us, iteration});
        std::push_heap(kept_.begin(), kept_.end(), less_extreme_first);
        return;
    }
    if (distance_outside(value_us) <= distance_outside(kept_.front().value_us)) {
        return;  // ties keep the earlier sample
    }
    std::pop_heap(kept_.begin(), kept_.end(), less_extreme_first);
    kept_.back() = {value_us, iteration};
    std::push_heap(kept_.begin(), kept_.end(), less_extreme_first);
}

std::vector<outlier> binned_histogram::outliers() const {
    std::vector<outlier> sorted = kept_;
    std::sort(sorted.begin(), sorted.end(), [](const outlier& a, const outlier& b) {
        return a.value_us != b.value_us ? a.value_us > b.value_us : a.iteration < b.iteration;
    });
    return sorted;
}

}  // namespace sctp_perf
