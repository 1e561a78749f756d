/*
 * SPDX-License-Identifier: Apache-2.0
 * net.h - the TCP side of `iobench durability`: addresses, a
 * listening or connected socket, and whole lines in and out.
 *
 * Addresses are "HOST:PORT", "[V6ADDR]:PORT" or "HOST" (port DUR_DEFAULT_PORT).
 * Every function returns 0 (or a descriptor) or -errno and writes a one-line
 * reason without the "iobench: " prefix into err where it takes one. Sends
 * never raise SIGPIPE. Thread-safe on distinct sockets.
 */
#ifndef IOBENCH_DURABILITY_NET_H
#define IOBENCH_DURABILITY_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "durability/stamp.h"

/*
 * Split spec into host and port (host "" for ":PORT"). 0, or -EINVAL for a
 * malformed spec or a port outside 0..65535 (0 only when allow_zero).
 */
int dur_net_split(const char *spec, char *host, size_t hostlen, unsigned *port, bool allow_zero);

/*
 * False in the static build (make static): it links no getaddrinfo, whose
 * name service needs the linking glibc's shared libraries at run time, and
 * takes numeric addresses only. True in the dynamic build.
 */
extern const bool dur_net_resolves_names;

/* True when host is a numeric IPv4 or IPv6 address (no name lookup). */
bool dur_net_numeric(const char *host);

/*
 * Listen on spec (an empty host or "*" means every address; port 0 picks a
 * free one). Returns the socket (close-on-exec, non-blocking) and the address
 * it is bound to as "ADDR:PORT" in bound, or -errno.
 */
int dur_net_listen(const char *spec, char *bound, size_t boundlen, char *err, size_t errlen);

/* How long a writer or verifier waits for the server to take its connection. */
#define DUR_CONNECT_TIMEOUT_MS 10000

/* Connect to spec within timeout_ms. Returns a blocking, close-on-exec socket or -errno. */
int dur_net_connect(const char *spec, int timeout_ms, char *err, size_t errlen);

/*
 * Send all len bytes (retrying short sends and EINTR). 0 or -errno (-EPIPE
 * when the peer left, -ETIMEDOUT when a SO_SNDTIMEO on fd ran out).
 */
int dur_net_send(int fd, const void *buf, size_t len);

struct sockaddr;

/* An address block of --allow: "10.0.0.0/8", "192.0.2.7" (a /32), "fd00::/8", "::1". */
struct dur_cidr {
	int family; /* AF_INET or AF_INET6 */
	unsigned char addr[16];
	unsigned prefix;
};

/* Parse s into *c. 0, or -EINVAL (not an address, prefix too long, host bits set). */
int dur_cidr_parse(const char *s, struct dur_cidr *c);

/* True when sa (IPv4, IPv6 or IPv4-mapped IPv6) lies in c. */
bool dur_cidr_match(const struct dur_cidr *c, const struct sockaddr *sa);

/* sa as "ADDR:PORT" or "[ADDR]:PORT" ("?" for another family). */
void dur_net_format_addr(const struct sockaddr *sa, char *out, size_t len);

/* Buffered reader of '\n'-terminated lines from a socket. Zero-initialise, set fd. */
struct dur_reader {
	int fd;
	char buf[4 * DUR_LINE_MAX];
	size_t start, len; /* unread bytes are buf[start .. start+len) */
};

/*
 * Next line (without its newline, NUL-terminated) into line, waiting at most
 * timeout_ms for it (-1: forever). Returns 1, 0 at end of stream (a partial
 * last line is dropped), -ETIMEDOUT, -E2BIG for a line longer than
 * DUR_LINE_MAX (or len), or another -errno.
 */
int dur_read_line(struct dur_reader *r, char *line, size_t len, int timeout_ms);

#endif
