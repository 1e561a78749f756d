/*
 * SPDX-License-Identifier: Apache-2.0
 * imds.h - the EC2 instance metadata service (IMDSv2): what an instance
 * can learn about itself (instance id, type, zone, AMI, ...) as
 * provisioning facts (provision.h).
 *
 * IMDSv2 is a PUT of /latest/api/token (with a TTL header) that returns a
 * session token, then GETs of /latest/meta-data/... carrying the token.
 * Plain HTTP over TCP to a numeric address; no DNS, no proxy. Every call
 * keeps to one deadline, so a box off EC2 (where nothing answers, or
 * packets to the address are dropped) waits at most that long.
 *
 * Thread-safe (no global state); does blocking I/O within the deadline.
 */
#ifndef IOBENCH_HOST_IMDS_H
#define IOBENCH_HOST_IMDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Where IMDS answers on EC2. */
#define IMDS_DEFAULT_ENDPOINT "http://169.254.169.254"
/* The whole exchange (token and every GET) ends within this. */
#define IMDS_TIMEOUT_MS 1000
/* Environment variable naming another endpoint, http://ADDR[:PORT] (a test stand-in). */
#define IMDS_ENDPOINT_ENV "IOBENCH_IMDS_ENDPOINT"

/*
 * True when DMI says this box is an EC2 instance: sys_vendor or
 * bios_vendor "Amazon EC2", a board_asset_tag that is an instance id
 * (Nitro), or a Xen /sys/hypervisor/uuid starting with "ec2".
 */
bool imds_on_ec2(void);

/*
 * Ask the service at endpoint ("http://ADDR[:PORT]", ADDR a numeric IPv4
 * address or [IPv6]) for this instance's facts and set them in facts:
 * cloud "ec2", instanceId, instanceType, az, region, ami, privateIp,
 * lifecycle ("spot" / "on-demand"). Paths the service does not answer are
 * left out. Returns 0 when at least instanceId was learnt, else -errno
 * (-ETIMEDOUT, -ECONNREFUSED, -EACCES for a refused token, -EINVAL for a
 * malformed endpoint) with a one-line reason in err; facts is then unchanged.
 */
int imds_fetch(const char *endpoint, unsigned timeout_ms, json_t *facts, char *err, size_t errlen);

#endif
