/* net.c - sockets and lines for `iobench durability`. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "durability/net.h"
#include "lib/clock.h"
#include "lib/err.h"
#include "lib/fileio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/*
 * A host as the user means it: a name, a dotted quad, or (bracketed) an
 * IPv6 address. inet_aton's shorthands are not: getaddrinfo would take
 * "1.5" for 1.0.0.5, "0x7f.1" or "2130706433" for 127.0.0.1.
 */
static bool host_form_ok(const char *host, bool bracketed)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (bracketed)
		return inet_pton(AF_INET6, host, &a6) == 1;
	return inet_aton(host, &a4) == 0 || inet_pton(AF_INET, host, &a4) == 1;
}

int dur_net_split(const char *spec, char *host, size_t hostlen, unsigned *port, bool allow_zero)
{
	const char *colon, *h = spec;
	size_t hlen;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || (close[1] != '\0' && close[1] != ':'))
			return -EINVAL;
		h = spec + 1;
		hlen = (size_t)(close - h);
		colon = close[1] == ':' ? close + 1 : NULL;
	} else {
		colon = strrchr(spec, ':');
		if (colon && strchr(spec, ':') != colon)
			return -EINVAL; /* a bare IPv6 address needs brackets */
		hlen = colon ? (size_t)(colon - spec) : strlen(spec);
	}
	if (hlen >= hostlen)
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	if (!host_form_ok(host, spec[0] == '['))
		return -EINVAL;
	*port = DUR_DEFAULT_PORT;
	if (colon) {
		char *end;
		errno = 0;
		unsigned long p = strtoul(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || errno || p > 65535 || (p == 0 && !allow_zero))
			return -EINVAL;
		*port = (unsigned)p;
	}
	return 0;
}

/* Up to this many addresses of a name are tried in turn. */
#define MAX_ADDRS 16

/* One address to bind or connect to. */
struct net_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

bool dur_net_numeric(const char *host)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1;
}

/* host as one numeric address (or, passive, "" and "*" as every IPv4 then IPv6 address); the count. */
static size_t numeric_addrs(const char *host, unsigned port, bool any, struct net_addr *out)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	size_t n = 0;
	if (any || inet_pton(AF_INET, host, &in.sin_addr) == 1) {
		in.sin_addr.s_addr = any ? htonl(INADDR_ANY) : in.sin_addr.s_addr;
		memcpy(&out[n].ss, &in, sizeof(in));
		out[n++].len = sizeof(in);
	}
	if (any || inet_pton(AF_INET6, host, &in6.sin6_addr) == 1) {
		in6.sin6_addr = any ? in6addr_any : in6.sin6_addr;
		memcpy(&out[n].ss, &in6, sizeof(in6));
		out[n++].len = sizeof(in6);
	}
	return n;
}

#ifdef IOBENCH_STATIC
/*
 * The static build links no getaddrinfo: glibc's needs its own shared NSS
 * modules at run time, which would break "runs on any x86-64 Linux". It
 * takes addresses only (names are refused before this, by the command).
 */
const bool dur_net_resolves_names = false;

static int lookup(const char *host, unsigned port, bool passive, struct net_addr *out, size_t *n,
		  char *err, size_t errlen)
{
	(void)passive;
	*n = numeric_addrs(host, port, false, out);
	if (*n == 0) {
		snprintf(err, errlen, "cannot resolve '%s': this static build resolves no host names; give an address "
			 "or use the dynamic build", QUOTE(host));
		return -EHOSTUNREACH;
	}
	return 0;
}
#else
const bool dur_net_resolves_names = true;

static int lookup(const char *host, unsigned port, bool passive, struct net_addr *out, size_t *n,
		  char *err, size_t errlen)
{
	char p[8];
	snprintf(p, sizeof(p), "%u", port);
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = passive ? AI_PASSIVE : 0 };
	struct addrinfo *res;
	int rc = getaddrinfo(host, p, &hints, &res);
	if (rc != 0) {
		snprintf(err, errlen, "cannot resolve '%s': %s; check the name, or give the server's address "
			 "(10.0.0.5:%u)", QUOTE(host), gai_strerror(rc), port);
		return -EHOSTUNREACH;
	}
	*n = 0;
	for (struct addrinfo *ai = res; ai && *n < MAX_ADDRS; ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(out[*n].ss))
			continue;
		memcpy(&out[*n].ss, ai->ai_addr, ai->ai_addrlen);
		out[(*n)++].len = ai->ai_addrlen;
	}
	freeaddrinfo(res);
	return 0;
}
#endif

static int resolve(const char *spec, bool passive, struct net_addr *out, size_t *n, char *err, size_t errlen)
{
	char host[256];
	unsigned port;
	if (dur_net_split(spec, host, sizeof(host), &port, passive) != 0) {
		snprintf(err, errlen, "bad address '%s'; use HOST:PORT, HOST a name, a dotted quad or [IPv6] (e.g. 10.0.0.5:%d)",
			 QUOTE(spec), DUR_DEFAULT_PORT);
		return -EINVAL;
	}
	bool any = host[0] == '\0' || strcmp(host, "*") == 0;
	if (any && !passive) {
		snprintf(err, errlen, "bad address '%s'; name the server's host (HOST:PORT)", QUOTE(spec));
		return -EINVAL;
	}
	if (any) {
		*n = numeric_addrs(host, port, true, out);
		return 0;
	}
	return lookup(host, port, passive, out, n, err, errlen);
}

void dur_net_format_addr(const struct sockaddr *sa, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;
		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		port = ntohs(in->sin_port);
		snprintf(out, len, "%s:%u", a, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		port = ntohs(in6->sin6_port);
		snprintf(out, len, "[%s]:%u", a, port);
	} else {
		snprintf(out, len, "?");
	}
}

int dur_net_listen(const char *spec, char *bound, size_t boundlen, char *err, size_t errlen)
{
	struct net_addr addrs[MAX_ADDRS];
	size_t n;
	int rc = resolve(spec, true, addrs, &n, err, errlen);
	if (rc < 0)
		return rc;
	int fd = -1, e = EADDRNOTAVAIL;
	/* Prefer IPv4 for "every address": ":PORT" then works for 10.0.2.2-style clients everywhere. */
	for (int pass = 0; pass < 2 && fd < 0; pass++) {
		for (size_t i = 0; i < n && fd < 0; i++) {
			const struct net_addr *ai = &addrs[i];
			if ((pass == 0) != (ai->ss.ss_family == AF_INET))
				continue;
			fd = socket(ai->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
			if (fd < 0) {
				e = errno;
				continue;
			}
			int one = 1;
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (bind(fd, (const struct sockaddr *)&ai->ss, ai->len) != 0 || listen(fd, 64) != 0) {
				e = errno;
				close(fd);
				fd = -1;
			}
		}
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot listen on %s: %s%s", spec, strerror(e),
			 e == EADDRINUSE ? "; pick another port (--listen ADDR:PORT)" : "");
		return -e;
	}
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		dur_net_format_addr((struct sockaddr *)&ss, bound, boundlen);
	else
		snprintf(bound, boundlen, "%s", spec);
	return fd;
}

/* Connect one address with a deadline. 0 or -errno. */
static int connect_one(int fd, const struct net_addr *ai, int timeout_ms)
{
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	int rc = connect(fd, (const struct sockaddr *)&ai->ss, ai->len);
	if (rc != 0 && errno != EINPROGRESS)
		return -errno;
	if (rc != 0) {
		rc = fd_wait(fd, POLLOUT, clock_mono_ms() + timeout_ms);
		if (rc < 0)
			return rc;
		int soerr = 0;
		socklen_t sl = sizeof(soerr);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
		if (soerr)
			return -soerr;
	}
	fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return 0;
}

int dur_net_connect(const char *spec, int timeout_ms, char *err, size_t errlen)
{
	struct net_addr addrs[MAX_ADDRS];
	size_t n;
	int rc = resolve(spec, false, addrs, &n, err, errlen);
	if (rc < 0)
		return rc;
	int fd = -1, e = ECONNREFUSED;
	for (size_t i = 0; i < n && fd < 0; i++) {
		const struct net_addr *ai = &addrs[i];
		fd = socket(ai->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		rc = connect_one(fd, ai, timeout_ms);
		if (rc < 0) {
			e = -rc;
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot reach the durability server at %s: %s; is 'iobench durability serve' running there?",
			 spec, strerror(e));
		return -e;
	}
	/* Acknowledgements are small and must leave at once, not wait for more to batch. */
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int dur_net_send(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* SO_SNDTIMEO ran out: the peer stopped reading (or the network went away). */
			return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int dur_read_line(struct dur_reader *r, char *line, size_t len, int timeout_ms)
{
	int64_t end = timeout_ms >= 0 ? clock_mono_ms() + timeout_ms : 0;
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->len);
		if (nl) {
			size_t n = (size_t)(nl - (r->buf + r->start));
			if (n + 1 > len || n + 1 > DUR_LINE_MAX)
				return -E2BIG;
			memcpy(line, r->buf + r->start, n);
			line[n] = '\0';
			r->start += n + 1;
			r->len -= n + 1;
			return 1;
		}
		if (r->len >= DUR_LINE_MAX)
			return -E2BIG;
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->len);
			r->start = 0;
		}
		if (timeout_ms >= 0) {
			int rc = fd_wait(r->fd, POLLIN, end);
			if (rc < 0)
				return rc;
		}
		ssize_t n = recv(r->fd, r->buf + r->len, sizeof(r->buf) - r->len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		r->len += (size_t)n;
	}
}

int dur_cidr_parse(const char *s, struct dur_cidr *c)
{
	char a[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	size_t alen = slash ? (size_t)(slash - s) : strlen(s);
	if (alen == 0 || alen >= sizeof(a))
		return -EINVAL;
	memcpy(a, s, alen);
	a[alen] = '\0';
	memset(c, 0, sizeof(*c));
	unsigned max;
	if (inet_pton(AF_INET, a, c->addr) == 1) {
		c->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, a, c->addr) == 1) {
		c->family = AF_INET6;
		max = 128;
	} else {
		return -EINVAL;
	}
	c->prefix = max;
	if (slash) {
		char *end;
		errno = 0;
		unsigned long p = strtoul(slash + 1, &end, 10);
		if (slash[1] < '0' || slash[1] > '9' || *end != '\0' || errno || p > max)
			return -EINVAL;
		c->prefix = (unsigned)p;
	}
	/* Host bits set ("10.0.0.5/8") is most likely a typo for another block: refuse it. */
	for (unsigned bit = c->prefix; bit < max; bit++)
		if (c->addr[bit / 8] & (0x80 >> (bit % 8)))
			return -EINVAL;
	return 0;
}

bool dur_cidr_match(const struct dur_cidr *c, const struct sockaddr *sa)
{
	const unsigned char *a;
	int family = sa->sa_family;
	if (family == AF_INET) {
		a = (const unsigned char *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr;
	} else if (family == AF_INET6) {
		a = ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr.s6_addr;
		static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
		if (c->family == AF_INET && memcmp(a, mapped, 12) == 0) {
			a += 12;
			family = AF_INET;
		}
	} else {
		return false;
	}
	if (family != c->family)
		return false;
	unsigned full = c->prefix / 8, rest = c->prefix % 8;
	if (memcmp(a, c->addr, full) != 0)
		return false;
	if (rest == 0)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (a[full] & mask) == (c->addr[full] & mask);
}
