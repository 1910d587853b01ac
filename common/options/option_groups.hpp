// SPDX-License-Identifier: Apache-2.0
#pragma once
// The groups a program's options are registered in. Each program fills the
// groups it has; its help_layout (option_help.hpp) gives them captions and
// an order.

#include <array>
#include <boost/program_options/options_description.hpp>

namespace sctp_perf {

struct option_groups {
    boost::program_options::options_description server;
    boost::program_options::options_description test;
    boost::program_options::options_description histogram;
    boost::program_options::options_description connection;
    boost::program_options::options_description sctp;
    boost::program_options::options_description output;
    boost::program_options::options_description general;
    boost::program_options::options_description hidden;  // parsed, never shown

    // Every group whose options a user is told about, in --help or as the
    // option a typo was probably meant to be: all but `hidden`. The one
    // list of the groups; parsing adds `hidden` to it.
    std::array<const boost::program_options::options_description*, 7> shown() const {
        return {&server, &test, &histogram, &connection, &sctp, &output, &general};
    }
};

}  // namespace sctp_perf
