/* durability_net.c - sockets and lines for `iobench durability`. */
#include "durability_net.h"

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

static int resolve(const char *spec, bool passive, struct addrinfo **res, char *err, size_t errlen)
{
	char host[256], port[8];
	unsigned p;
	if (dur_net_split(spec, host, sizeof(host), &p, passive) != 0) {
		snprintf(err, errlen, "bad address '%s'; use HOST:PORT (e.g. 10.0.0.5:%d)", spec, DUR_DEFAULT_PORT);
		return -EINVAL;
	}
	snprintf(port, sizeof(port), "%u", p);
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = passive ? AI_PASSIVE : 0 };
	bool any = host[0] == '\0' || strcmp(host, "*") == 0;
	if (any && !passive) {
		snprintf(err, errlen, "bad address '%s'; name the server's host (HOST:PORT)", spec);
		return -EINVAL;
	}
	int rc = getaddrinfo(any ? NULL : host, port, &hints, res);
	if (rc != 0) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(rc));
		return -EHOSTUNREACH;
	}
	return 0;
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
	struct addrinfo *res;
	int rc = resolve(spec, true, &res, err, errlen);
	if (rc < 0)
		return rc;
	int fd = -1, e = 0;
	/* Prefer IPv4 for "every address": ":PORT" then works for 10.0.2.2-style clients everywhere. */
	for (int pass = 0; pass < 2 && fd < 0; pass++) {
		for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
			if ((pass == 0) != (ai->ai_family == AF_INET))
				continue;
			fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
			if (fd < 0) {
				e = errno;
				continue;
			}
			int one = 1;
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
				e = errno;
				close(fd);
				fd = -1;
			}
		}
	}
	freeaddrinfo(res);
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

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Connect one address with a deadline. 0 or -errno. */
static int connect_one(int fd, const struct addrinfo *ai, int timeout_ms)
{
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
	if (rc != 0 && errno != EINPROGRESS)
		return -errno;
	if (rc != 0) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int64_t end = now_ms() + timeout_ms;
		for (;;) {
			int left = (int)(end - now_ms());
			rc = poll(&p, 1, left > 0 ? left : 0);
			if (rc > 0)
				break;
			if (rc == 0)
				return -ETIMEDOUT;
			if (errno != EINTR)
				return -errno;
		}
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
	struct addrinfo *res;
	int rc = resolve(spec, false, &res, err, errlen);
	if (rc < 0)
		return rc;
	int fd = -1, e = ECONNREFUSED;
	for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
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
	freeaddrinfo(res);
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
	int64_t end = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;
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
			struct pollfd p = { .fd = r->fd, .events = POLLIN };
			int left = (int)(end - now_ms());
			int rc = poll(&p, 1, left > 0 ? left : 0);
			if (rc == 0)
				return -ETIMEDOUT;
			if (rc < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
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
