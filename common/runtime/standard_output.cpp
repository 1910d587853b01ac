// SPDX-License-Identifier: Apache-2.0
#include "runtime/standard_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <string>
#include <system_error>

namespace sctp_perf {

void write_standard_output(std::string_view text, std::string_view what) {
    std::cout.flush();  // nothing should be buffered there, but keep the order
    while (!text.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::system_error(errno, std::generic_category(),
                                    "cannot write " + std::string(what) + " to standard output");
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

}  // namespace sctp_perf
