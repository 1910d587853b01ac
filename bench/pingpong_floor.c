// SPDX-License-Identifier: Apache-2.0
/* The least a TCP ping-pong over loopback can cost: what SOCK_STREAM_clt's
 * ping-pong p50 is compared with (bench/pingpong_vs_floor.sh).
 *
 * Two processes from one fork: the child listens on 127.0.0.1 and answers
 * every 128-byte request with 2 bytes; the parent times each round trip with
 * CLOCK_MONOTONIC around one blocking send and the receive of the reply, on a
 * TCP_NODELAY connection, the same shape as sctp-perf's ping-pong. No
 * framing, no checks beyond byte counts, no histogram: the samples go into an
 * array, and after the run the array is sorted and its middle printed.
 *
 * Usage: pingpong_floor [-s] [-p PRIMER] [-g GAP_US] [-S SERVER_CPU] COUNT
 *   COUNT round trips are timed after PRIMER untimed ones (default 100, as
 *   sctp-perf's primer). Prints "p50_us <value>" and "count <COUNT>".
 *   -s spins: both ends wait for data by polling their socket, recv with
 *   MSG_DONTWAIT in a busy loop, instead of sleeping in a blocking recv (the
 *   floor for sctp-perf's --spin; bench/spin_vs_floor.sh). No clock, no
 *   bound, no yield in that loop: nothing a spin can do less. A peer that
 *   closes still ends it; one that hangs is left to the caller's timeout.
 *   -g starts round trip k at t0 + k * GAP_US (sleeping in between) instead
 *   of back to back, so the floor can be set against a paced run (--rate)
 *   whose ends idle between messages. -S pins the answering process to one
 *   CPU (by default it inherits the caller's affinity).
 *   Every blocking call gives up after 10 s (SO_RCVTIMEO / SO_SNDTIMEO).
 * Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { request_bytes = 128, reply_bytes = 2, io_timeout_s = 10 };

static void fail(const char *what) {
    fprintf(stderr, "pingpong_floor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void bound_io(int fd) {
    const struct timeval limit = {io_timeout_s, 0};
    const int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit) != 0 ||
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
        fail("setsockopt");
    }
}

/* Whole buffers only: a short count on loopback is rare but legal. */
static int send_all(int fd, const char *buf, size_t len) {
    while (len > 0) {
        const ssize_t n = send(fd, buf, len, 0);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* 0 to block in recv, MSG_DONTWAIT to spin (-s). */
static int recv_flags;

static int recv_all(int fd, char *buf, size_t len) {
    while (len > 0) {
        const ssize_t n = recv(fd, buf, len, recv_flags);
        if (n <= 0) {
            if (n < 0 && (errno == EINTR || (recv_flags != 0 && errno == EAGAIN))) continue;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void serve(int listener) {
    char request[request_bytes];
    char reply[reply_bytes] = {0};
    const int fd = accept(listener, NULL, NULL);
    if (fd < 0) fail("accept");
    bound_io(fd);
    while (recv_all(fd, request, sizeof request) == 0) {
        reply[0] = request[0];
        reply[1] = request[request_bytes - 1];
        if (send_all(fd, reply, sizeof reply) != 0) break;
    }
    _exit(0);
}

static int compare_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void usage(void) {
    fprintf(stderr, "usage: pingpong_floor [-s] [-p PRIMER] [-g GAP_US] [-S SERVER_CPU] COUNT\n"
                    "  COUNT 1..1e8, PRIMER 0..1e6 (default 100), GAP_US 0..1e6 (default 0)\n");
    exit(2);
}

static long number(const char *text, long low, long high) {
    char *end;
    errno = 0;
    const long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < low || value > high) usage();
    return value;
}

int main(int argc, char **argv) {
    long primer = 100, gap_us = 0, server_cpu = -1;
    for (int opt; (opt = getopt(argc, argv, "sp:g:S:")) != -1;) {
        switch (opt) {
            case 's': recv_flags = MSG_DONTWAIT; break;
            case 'p': primer = number(optarg, 0, 1000000); break;
            case 'g': gap_us = number(optarg, 0, 1000000); break;
            case 'S': server_cpu = number(optarg, 0, CPU_SETSIZE - 1); break;
            default: usage();
        }
    }
    if (optind != argc - 1) usage();
    const long count = number(argv[optind], 1, 100000000);

    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) fail("socket");
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t addr_len = sizeof addr;
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) != 0) fail("bind");
    if (listen(listener, 1) != 0) fail("listen");
    if (getsockname(listener, (struct sockaddr *)&addr, &addr_len) != 0) fail("getsockname");

    const pid_t child = fork();
    if (child < 0) fail("fork");
    if (child == 0) {
        if (server_cpu >= 0) {
            cpu_set_t cpus;
            CPU_ZERO(&cpus);
            CPU_SET(server_cpu, &cpus);
            if (sched_setaffinity(0, sizeof cpus, &cpus) != 0) fail("sched_setaffinity");
        }
        serve(listener);
    }
    close(listener);

    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) fail("socket");
    bound_io(fd);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) fail("connect");

    uint64_t *rtt_ns = malloc((size_t)count * sizeof *rtt_ns);
    if (rtt_ns == NULL) fail("malloc");
    char request[request_bytes];
    char reply[reply_bytes];
    for (size_t i = 0; i < sizeof request; ++i) request[i] = (char)i;
    const uint64_t t0 = now_ns();
    for (long i = 0; i < primer + count; ++i) {
        request[0] = (char)i;
        if (gap_us > 0) {
            const uint64_t due = t0 + (uint64_t)i * (uint64_t)gap_us * 1000u;
            const struct timespec at = {(time_t)(due / 1000000000u), (long)(due % 1000000000u)};
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {
            }
        }
        const uint64_t start = now_ns();
        if (send_all(fd, request, sizeof request) != 0) fail("send");
        if (recv_all(fd, reply, sizeof reply) != 0) fail("recv");
        const uint64_t stop = now_ns();
        if (i >= primer) rtt_ns[i - primer] = stop - start;
    }
    close(fd);
    waitpid(child, NULL, 0);

    qsort(rtt_ns, (size_t)count, sizeof *rtt_ns, compare_u64);
    /* The lower middle for an even count: the sample at rank ceil(count/2). */
    printf("p50_us %.3f\ncount %ld\n", (double)rtt_ns[(count - 1) / 2] / 1000.0, count);
    free(rtt_ns);
    return 0;
}
