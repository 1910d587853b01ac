// SPDX-License-Identifier: Apache-2.0
#include "transport/transport_counters.hpp"

// glibc's <netinet/tcp.h> has an older struct tcp_info without
// tcpi_segs_out and tcpi_segs_in; the kernel's header has them. The two
// cannot share a translation unit, so this one takes only the kernel's.
#include <linux/tcp.h>
#include <netinet/sctp.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>

namespace sctp_perf {

namespace {

transport_counters read_sctp_counters(int fd, std::int32_t assoc_id) {
    // Association id 0 names the one association of a one-to-one or
    // peeled-off socket.
    sctp_assoc_stats stats{};
    stats.sas_assoc_id = assoc_id;
    socklen_t length = sizeof stats;
    if (::getsockopt(fd, IPPROTO_SCTP, SCTP_GET_ASSOC_STATS, &stats, &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot read SCTP_GET_ASSOC_STATS");
    }
    // Linux hands sas_maxrto over as the transport's RTO in jiffies, kernel
    // ticks of 1/CONFIG_HZ s (4 ms on Debian's kernels, HZ=250), which no
    // interface tells a program: the name says the unit instead of guessing.
    return {"SCTP_GET_ASSOC_STATS",
            {
                {"retransmitted_chunks", stats.sas_rtxchunks},
                {"gap_acks_received", stats.sas_gapcnt},
                {"out_of_sequence_tsns", stats.sas_outofseqtsns},
                {"sacks_sent", stats.sas_osacks},
                {"sacks_received", stats.sas_isacks},
                {"control_chunks_sent", stats.sas_octrlchunks},
                {"control_chunks_received", stats.sas_ictrlchunks},
                {"ordered_chunks_sent", stats.sas_oodchunks},
                {"ordered_chunks_received", stats.sas_iodchunks},
                {"unordered_chunks_sent", stats.sas_ouodchunks},
                {"unordered_chunks_received", stats.sas_iuodchunks},
                {"duplicate_chunks_received", stats.sas_idupchunks},
                {"packets_sent", stats.sas_opackets},
                {"packets_received", stats.sas_ipackets},
                {"max_rto_jiffies", stats.sas_maxrto},
            }};
}

transport_counters read_tcp_counters(int fd) {
    // An older kernel fills a shorter struct; the fields it leaves out stay 0.
    tcp_info info{};
    socklen_t length = sizeof info;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) {
        throw std::system_error(errno, std::generic_category(), "cannot read TCP_INFO");
    }
    return {"TCP_INFO",
            {
                {"retransmitted_segments", info.tcpi_total_retrans},
                {"lost_segments", info.tcpi_lost},
                {"rtt_us", info.tcpi_rtt},
                {"rtt_var_us", info.tcpi_rttvar},
                {"rto_us", info.tcpi_rto},
                {"cwnd_segments", info.tcpi_snd_cwnd},
                {"segments_sent", info.tcpi_segs_out},
                {"segments_received", info.tcpi_segs_in},
                {"reordering", info.tcpi_reordering},
            }};
}

}  // namespace

transport_counters read_transport_counters(int fd, transport_protocol transport,
                                           std::int32_t assoc_id) {
    return transport == transport_protocol::sctp ? read_sctp_counters(fd, assoc_id)
                                                 : read_tcp_counters(fd);
}

}  // namespace sctp_perf
