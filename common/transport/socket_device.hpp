// SPDX-License-Identifier: Apache-2.0
#pragma once
// The device a socket is tied to and the segment size it uses, each set
// from the command line before the socket connects or listens and read back
// from the kernel afterwards: the report gives what the kernel took, never
// only what was asked.
//
// --bind-device IFACE: SO_BINDTODEVICE, so that the socket sends and
// receives through that interface only, whatever the routing table says.
//
// --max-seg BYTES: the largest payload of one segment. TCP_MAXSEG clamps
// the MSS TCP announces in its SYN and uses; SCTP_MAXSEG (struct
// sctp_assoc_value) sets the point at which SCTP fragments a message into
// DATA chunks. Read back on a connection, both give what the kernel uses:
// TCP's current MSS, less the TCP options (timestamps take 12 bytes), and
// SCTP's fragmentation point, rounded down to 4 bytes and bounded by the
// path's MTU. Either may be below what was asked.

#include <cstdint>
#include <string>

#include "transport/transport_protocol.hpp"

namespace sctp_perf {

// The --max-seg range each kernel takes on every socket of the transport:
// TCP's TCP_MIN_MSS..MAX_TCP_WINDOW; SCTP's smallest fragment over IPv4
// (512 bytes less the IPv4, SCTP and DATA headers) up to the largest chunk
// less an I-DATA header. (The kernel's own SCTP bounds move with the
// address family and the chunk type: 444 over IPv6, 65516 with DATA.)
inline constexpr std::uint32_t min_tcp_max_seg = 88;
inline constexpr std::uint32_t max_tcp_max_seg = 32767;
inline constexpr std::uint32_t min_sctp_max_seg = 464;
inline constexpr std::uint32_t max_sctp_max_seg = 65512;

// SO_BINDTODEVICE. Throws std::system_error; EPERM says that root or
// CAP_NET_RAW is needed (kernels before 5.7 ask it of everyone).
void bind_to_device(int fd, const std::string& device);

// The device the socket is tied to, read back (SO_BINDTODEVICE); empty
// when it is tied to none. Throws std::system_error.
std::string bound_device_of(int fd);

// TCP_MAXSEG or SCTP_MAXSEG (for every association to come, on a
// one-to-many socket). Call before connect or listen. Throws
// std::system_error naming the option.
void apply_max_segment(int fd, transport_protocol transport, std::uint32_t bytes);

// The segment size in use, read back: on a connection, what the kernel
// uses; `assoc_id` names the association on a shared one-to-many socket.
// Throws std::system_error.
std::uint32_t read_max_segment(int fd, transport_protocol transport, std::int32_t assoc_id = 0);

}  // namespace sctp_perf
