// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one reader of a member of a JSON blob from the peer (the server's
// settings, its account). The peer is not trusted: a member that is missing,
// of another type, negative where a count belongs or out of the range of the
// type asked for reads as nothing. json::value() would throw for a string
// where a number belongs, and converting 1e300 or 2^64-1 to an int is
// undefined; the fuzzers found both.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace sctp_perf::protocol {

// T is bool, std::string, a floating-point type (any JSON number) or an
// unsigned or signed integer type (a whole number from 0 to T's maximum).
// `Json` is nlohmann::json or nlohmann::ordered_json; `object` need not be
// an object.
template <typename T, typename Json>
std::optional<T> blob_member(const Json& object, const char* key) {
    if (!object.is_object()) {
        return std::nullopt;
    }
    const auto it = object.find(key);
    if (it == object.end()) {
        return std::nullopt;
    }
    if constexpr (std::is_same_v<T, bool>) {
        if (it->is_boolean()) {
            return it->template get<bool>();
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        if (it->is_number()) {
            return it->template get<T>();
        }
    } else if constexpr (std::is_integral_v<T>) {
        // A count. A peer's text reads as unsigned when it is >= 0; a
        // document built in code may hold a signed one.
        if (it->is_number_unsigned() ||
            (it->is_number_integer() && it->template get<std::int64_t>() >= 0)) {
            const auto n = it->template get<std::uint64_t>();
            if (n <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
                return static_cast<T>(n);
            }
        }
    } else {
        static_assert(std::is_same_v<T, std::string>, "a blob member is bool, number or string");
        if (it->is_string()) {
            return it->template get<std::string>();
        }
    }
    return std::nullopt;
}

}  // namespace sctp_perf::protocol
