/* imds.c - the EC2 instance metadata service (IMDSv2) over plain HTTP, within one deadline. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "host/imds.h"
#include "lib/err.h"
#include "lib/clock.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Longest answer read (metadata values are short). */
#define IMDS_MAX_RESPONSE 8192

/* The metadata paths asked, and the fact each becomes. */
static const struct {
	const char *path;
	const char *fact;
} imds_paths[] = {
	{ "instance-id", "instanceId" },
	{ "instance-type", "instanceType" },
	{ "placement/availability-zone", "az" },
	{ "placement/region", "region" },
	{ "ami-id", "ami" },
	{ "local-ipv4", "privateIp" },
	{ "instance-life-cycle", "lifecycle" },
};

bool imds_on_ec2(void)
{
	char s[128];
	read_first_line("/sys/class/dmi/id/sys_vendor", s, sizeof(s));
	if (strcmp(s, "Amazon EC2") == 0)
		return true;
	read_first_line("/sys/class/dmi/id/bios_vendor", s, sizeof(s));
	if (strcmp(s, "Amazon EC2") == 0)
		return true;
	/* Nitro instances carry their instance id in the asset tag. */
	read_first_line("/sys/class/dmi/id/board_asset_tag", s, sizeof(s));
	if (strncmp(s, "i-", 2) == 0)
		return true;
	read_first_line("/sys/hypervisor/uuid", s, sizeof(s));
	return strncasecmp(s, "ec2", 3) == 0;
}

struct endpoint {
	struct sockaddr_storage addr;
	socklen_t len;
	char host[80]; /* as the Host header says it */
};

/* "http://ADDR[:PORT][/]" with ADDR numeric: IPv4, or IPv6 in brackets. */
static int endpoint_parse(const char *url, struct endpoint *ep)
{
	if (strncmp(url, "http://", 7) != 0)
		return -EINVAL;
	const char *h = url + 7, *end;
	char host[64], port[8] = "80";
	if (*h == '[') {
		end = strchr(h, ']');
		if (!end || (size_t)(end - h - 1) >= sizeof(host))
			return -EINVAL;
		memcpy(host, h + 1, (size_t)(end - h - 1));
		host[end - h - 1] = '\0';
		end++;
	} else {
		end = h + strcspn(h, ":/");
		if (end == h || (size_t)(end - h) >= sizeof(host))
			return -EINVAL;
		memcpy(host, h, (size_t)(end - h));
		host[end - h] = '\0';
	}
	if (*end == ':') {
		size_t n = strspn(end + 1, "0123456789");
		if (n == 0 || n >= sizeof(port))
			return -EINVAL;
		memcpy(port, end + 1, n);
		port[n] = '\0';
		end += 1 + n;
	}
	if (*end != '\0' && strcmp(end, "/") != 0)
		return -EINVAL;
	/* inet_pton, not getaddrinfo: the static build links no name service (see durability_net.h). */
	unsigned long p = strtoul(port, NULL, 10);
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)p) };
	if (p > 65535)
		return -EINVAL;
	memset(&ep->addr, 0, sizeof(ep->addr));
	if (inet_pton(AF_INET, host, &in.sin_addr) == 1) {
		memcpy(&ep->addr, &in, sizeof(in));
		ep->len = sizeof(in);
	} else if (inet_pton(AF_INET6, host, &in6.sin6_addr) == 1) {
		memcpy(&ep->addr, &in6, sizeof(in6));
		ep->len = sizeof(in6);
	} else {
		return -EINVAL;
	}
	snprintf(ep->host, sizeof(ep->host), "%.*s", (int)(end - (url + 7)), url + 7);
	return 0;
}

static int connect_by(const struct endpoint *ep, int64_t deadline)
{
	int fd = socket(ep->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)&ep->addr, ep->len) != 0) {
		int rc = errno == EINPROGRESS ? fd_wait(fd, POLLOUT, deadline) : -errno;
		int soerr = 0;
		socklen_t sl = sizeof(soerr);
		if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr)
			rc = -soerr;
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	return fd;
}

static int send_all(int fd, const char *buf, size_t len, int64_t deadline)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		int rc = fd_wait(fd, POLLOUT, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Read until the peer closes (or the buffer is full); the length read, or -errno. */
static ssize_t recv_all(int fd, char *buf, size_t cap, int64_t deadline)
{
	size_t len = 0;
	while (len < cap) {
		ssize_t n = recv(fd, buf + len, cap - len, 0);
		if (n == 0)
			break;
		if (n > 0) {
			len += (size_t)n;
			continue;
		}
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		int rc = fd_wait(fd, POLLIN, deadline);
		if (rc < 0)
			return rc;
	}
	return (ssize_t)len;
}

/*
 * One HTTP/1.1 request (Connection: close) and its answer: the status in
 * *status, the body (trimmed, NUL-terminated) in body. 0 or -errno.
 */
static int http(const struct endpoint *ep, const char *method, const char *path, const char *header,
		int64_t deadline, int *status, char *body, size_t bodylen)
{
	char req[1024], resp[IMDS_MAX_RESPONSE + 1];
	snprintf(req, sizeof(req),
		 "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: iobench/%s\r\nAccept: */*\r\n%s\r\n%s"
		 "Connection: close\r\n\r\n",
		 method, path, ep->host, IOBENCH_VERSION, header,
		 strcmp(method, "PUT") == 0 ? "Content-Length: 0\r\n" : "");
	int fd = connect_by(ep, deadline);
	if (fd < 0)
		return fd;
	int rc = send_all(fd, req, strlen(req), deadline);
	ssize_t n = rc == 0 ? recv_all(fd, resp, sizeof(resp) - 1, deadline) : rc;
	close(fd);
	if (n < 0)
		return (int)n;
	resp[n] = '\0';
	if (sscanf(resp, "HTTP/1.%*d %d", status) != 1)
		return -EPROTO;
	const char *b = strstr(resp, "\r\n\r\n");
	b = b ? b + 4 : resp + n;
	size_t blen = strlen(b);
	while (blen > 0 && (b[blen - 1] == '\n' || b[blen - 1] == '\r' || b[blen - 1] == ' '))
		blen--;
	if (blen >= bodylen)
		blen = bodylen - 1;
	memcpy(body, b, blen);
	body[blen] = '\0';
	return 0;
}

static const char *why(int rc)
{
	return rc == -ETIMEDOUT ? "no answer in time" : strerror(-rc);
}

int imds_fetch(const char *endpoint, unsigned timeout_ms, json_t *facts, char *err, size_t errlen)
{
	int64_t deadline = clock_mono_ms() + timeout_ms;
	struct endpoint ep;
	if (endpoint_parse(endpoint, &ep) != 0) {
		snprintf(err, errlen, "bad metadata endpoint '%s'; use http://ADDR[:PORT] with a numeric address",
			 QUOTE(endpoint));
		return -EINVAL;
	}
	char token[512], value[512], header[600];
	int status = 0;
	int rc = http(&ep, "PUT", "/latest/api/token", "X-aws-ec2-metadata-token-ttl-seconds: 21600\r\n",
		      deadline, &status, token, sizeof(token));
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", endpoint, why(rc));
		return rc;
	}
	if (status != 200 || token[0] == '\0' || strpbrk(token, "\r\n")) {
		snprintf(err, errlen, "%s: session token refused (HTTP %d)", endpoint, status);
		return -EACCES;
	}
	snprintf(header, sizeof(header), "X-aws-ec2-metadata-token: %s\r\n", token);
	json_t *got = json_object();
	for (size_t i = 0; i < sizeof(imds_paths) / sizeof(imds_paths[0]); i++) {
		char path[128];
		snprintf(path, sizeof(path), "/latest/meta-data/%s", imds_paths[i].path);
		rc = http(&ep, "GET", path, header, deadline, &status, value, sizeof(value));
		if (rc < 0)
			break;
		/* Paths this instance lacks (404) are left out; values must be text. */
		if (status == 200 && value[0])
			json_object_set_new(got, imds_paths[i].fact, json_string(value));
	}
	if (!json_object_get(got, "instanceId")) {
		snprintf(err, errlen, "%s: %s", endpoint, rc < 0 ? why(rc) : "no instance-id in the metadata");
		json_decref(got);
		return rc < 0 ? rc : -ENOENT;
	}
	json_object_set_new(facts, "cloud", json_string("ec2"));
	json_object_update(facts, got);
	json_decref(got);
	return 0;
}
