/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sends a trace.dat to `trace-cmd listen` (net_send.h).
 *
 * The recording is made first, then sent whole: the listener waits at most
 * 5 seconds between messages once the protocol has started, while the
 * metadata trace-cmd sends first (event formats, symbols, command lines) is
 * only complete when the run ends. Connecting and reading the greeting
 * before the run costs nothing — the listener then waits for the client's
 * first string without a time limit — and names a missing collector early.
 *
 * Each CPU's pages go over their own TCP connection to the port the
 * listener gave for that CPU; the client closes its side and waits for the
 * listener's reader to close too, which it does once it has read everything,
 * so nothing is still in flight when the listener assembles the file (it
 * stops its readers one second after the client's last message). */
#define _GNU_SOURCE
#include "recorder/net_send.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "recorder/tracecmd_msg.h"
#include "tracedat/tracedat.h"

#define CONNECT_MS 5000
#define REPLY_MS 10000
#define DRAIN_MS 60000	   /* a reader to finish, the file to be put together */
#define PORT_RETRY_MS 3000 /* a reader's port may open just after RINIT */

int net_send_parse(struct net_send *n, const char *spec)
{
	memset(n, 0, sizeof(*n));
	n->fd = -1;
	const char *colon = strrchr(spec, ':');
	const char *host = spec;
	size_t hlen = colon ? (size_t)(colon - spec) : 0;
	if (hlen >= 2 && spec[0] == '[' && spec[hlen - 1] == ']') {
		host++;
		hlen -= 2;
	}
	if (!colon || !hlen || hlen >= sizeof(n->host) || !colon[1] ||
	    strlen(colon + 1) >= sizeof(n->port) ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -EINVAL;
	long port = strtol(colon + 1, NULL, 10);
	if (port < 1 || port > 65535)
		return -EINVAL;
	memcpy(n->host, host, hlen);
	snprintf(n->port, sizeof(n->port), "%ld", port);
	return 0;
}

static long ms_left(const struct timespec *end)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (end->tv_sec - now.tv_sec) * 1000 + (end->tv_nsec - now.tv_nsec) / 1000000;
}

static void deadline(struct timespec *end, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += ms / 1000;
	end->tv_nsec += (ms % 1000) * 1000000;
	if (end->tv_nsec >= 1000000000) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000;
	}
}

/* Waits for `events` on fd: 1, 0 on time-out, -errno. */
static int wait_fd(int fd, short events, const struct timespec *end)
{
	for (;;) {
		long left = ms_left(end);
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = fd, .events = events};
		int rc = poll(&p, 1, (int)left);
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -errno;
	}
}

/* Reads exactly len bytes: 0, -ETIMEDOUT, -ECONNRESET on end of stream, -errno. */
static int read_full(int fd, void *buf, size_t len, long ms)
{
	struct timespec end;
	deadline(&end, ms);
	uint8_t *p = buf;
	while (len) {
		int w = wait_fd(fd, POLLIN, &end);
		if (w <= 0)
			return w ? w : -ETIMEDOUT;
		ssize_t r = recv(fd, p, len, 0);
		if (r == 0)
			return -ECONNRESET;
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (r > 0) {
			p += r;
			len -= (size_t)r;
		}
	}
	return 0;
}

static int send_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len) {
		ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Waits for the peer to close after everything sent was read: 0,
 * -ETIMEDOUT, -errno, or -EPROTO when it sent anything first (with `quiet`;
 * a CPU reader sends nothing, the listener only NOT_SUPP for messages it
 * did not take). */
static int wait_close(int fd, long ms, bool quiet)
{
	struct timespec end;
	deadline(&end, ms);
	char buf[512];
	bool said = false;
	for (;;) {
		int w = wait_fd(fd, POLLIN, &end);
		if (w <= 0)
			return w ? w : -ETIMEDOUT;
		ssize_t r = recv(fd, buf, sizeof(buf), 0);
		if (r == 0 || (r < 0 && errno == ECONNRESET))
			return quiet && said ? -EPROTO : 0;
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		said |= r > 0;
	}
}

/* A TCP connection to host:port within CONNECT_MS: a socket, or -errno. */
static int connect_to(const char *host, const char *port)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
	struct addrinfo *res;
	int g = getaddrinfo(host, port, &hints, &res);
	if (g != 0)
		return g == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	int err = -ECONNREFUSED;
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
				a->ai_protocol);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		int rc = connect(fd, a->ai_addr, a->ai_addrlen);
		if (rc != 0 && errno == EINPROGRESS) {
			struct timespec end;
			deadline(&end, CONNECT_MS);
			int w = wait_fd(fd, POLLOUT, &end);
			int soerr = 0;
			socklen_t sl = sizeof(soerr);
			if (w <= 0)
				soerr = w ? -w : ETIMEDOUT;
			else
				getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
			rc = soerr ? -1 : 0;
			errno = soerr;
		}
		if (rc == 0) {
			freeaddrinfo(res);
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
			return fd;
		}
		err = -errno;
		close(fd);
	}
	freeaddrinfo(res);
	return err;
}

static int greet(struct net_send *n, char *err, size_t errlen)
{
	int fd = connect_to(n->host, n->port);
	if (fd < 0) {
		snprintf(err, errlen, "cannot connect: %s", strerror(-fd));
		return -1;
	}
	char g[8];
	int rc = read_full(fd, g, sizeof(g), CONNECT_MS);
	if (rc != 0 || memcmp(g, TCMSG_GREETING, sizeof(g)) != 0) {
		snprintf(err, errlen, "not a trace-cmd listener (%s)",
			 rc ? strerror(-rc) : "it did not greet with \"tracecmd\"");
		close(fd);
		return -1;
	}
	n->fd = fd;
	return 0;
}

int net_send_connect(struct net_send *n, char *err, size_t errlen)
{
	return greet(n, err, errlen);
}

void net_send_close(struct net_send *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}

/* Whether the greeted connection is still there: the listener says nothing
 * until the client speaks, so anything readable is its end. */
static bool still_open(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN | POLLRDHUP};
	return poll(&p, 1, 0) == 0;
}

/* Protocol v3's handshake; -EPROTO when the listener does not offer v3. */
static int handshake_v3(int fd)
{
	char reply[3];
	int rc = send_full(fd, TCMSG_V3_ASK, sizeof(TCMSG_V3_ASK));
	if (!rc)
		rc = read_full(fd, reply, sizeof(reply), REPLY_MS);
	if (rc == -ECONNRESET || (!rc && memcmp(reply, TCMSG_V3_REPLY, 3) != 0))
		return -EPROTO;
	if (!rc)
		rc = send_full(fd, TCMSG_V3_MAGIC, sizeof(TCMSG_V3_MAGIC));
	if (!rc)
		rc = read_full(fd, reply, 2, REPLY_MS);
	if (!rc && memcmp(reply, TCMSG_V3_OK, 2) != 0)
		rc = -EBADMSG;
	return rc;
}

static int get_ports_v3(int fd, uint32_t cpus, uint32_t page_size, uint16_t *ports)
{
	uint8_t msg[TCMSG_MAX_LEN];
	size_t len = tcmsg_put_tinit(msg, cpus, page_size, true);
	int rc = send_full(fd, msg, len);
	struct tcmsg_hdr h;
	if (!rc)
		rc = read_full(fd, msg, TCMSG_HDR_LEN, REPLY_MS);
	if (!rc)
		rc = tcmsg_parse_hdr(msg, &h);
	if (!rc)
		rc = read_full(fd, msg, h.size - TCMSG_HDR_LEN, REPLY_MS);
	if (!rc)
		rc = tcmsg_parse_rinit(&h, msg, cpus, ports);
	return rc;
}

static int get_ports_v1(int fd, uint32_t cpus, uint32_t page_size, uint16_t *ports)
{
	char buf[64];
	int len = snprintf(buf, sizeof(buf), "%u%c%u%c1%c4%cTCP", cpus, 0, page_size, 0, 0, 0);
	int rc = send_full(fd, buf, (size_t)len + 1);
	/* The ports come back as one string: up to 6 bytes per CPU. */
	size_t cap = (size_t)cpus * 6 + 1, n = 0;
	char *s = malloc(cap);
	if (!s)
		return -ENOMEM;
	while (!rc) {
		if (n == cap) {
			rc = -EBADMSG;
			break;
		}
		rc = read_full(fd, s + n, 1, REPLY_MS);
		if (!rc && s[n++] == 0)
			break;
	}
	if (!rc)
		rc = tcmsg_parse_v1_ports(s, n - 1, cpus, ports);
	free(s);
	return rc;
}

/* One CPU's pages to the listener's reader on `port`. With `hold` the
 * connection is left open and returned; else the reader is waited for. */
static int send_cpu(const char *host, uint16_t port, const uint8_t *data, uint64_t size, bool hold)
{
	char ps[8];
	snprintf(ps, sizeof(ps), "%u", port);
	struct timespec end;
	deadline(&end, PORT_RETRY_MS);
	int fd;
	while ((fd = connect_to(host, ps)) == -ECONNREFUSED && ms_left(&end) > 0)
		nanosleep(&(struct timespec){0, 20 * 1000000}, NULL);
	if (fd < 0)
		return fd;
	int rc = send_full(fd, data, size);
	if (!rc && hold)
		return fd;
	if (!rc && shutdown(fd, SHUT_WR) != 0)
		rc = -errno;
	if (!rc)
		rc = wait_close(fd, DRAIN_MS, false);
	close(fd);
	return rc;
}

static int send_data_msgs(int fd, const uint8_t *p, uint64_t len)
{
	uint8_t hdr[TCMSG_HDR_LEN];
	while (len) {
		uint32_t n = len > TCMSG_MAX_DATA ? TCMSG_MAX_DATA : (uint32_t)len;
		tcmsg_put_hdr(hdr, TCMSG_SEND_DATA, n);
		int rc = send_full(fd, hdr, sizeof(hdr));
		if (!rc)
			rc = send_full(fd, p, n);
		if (rc)
			return rc;
		p += n;
		len -= n;
	}
	tcmsg_put_hdr(hdr, TCMSG_FIN_DATA, 0);
	return send_full(fd, hdr, sizeof(hdr));
}

/* After FIN_DATA: an empty SEND_DATA, which the listener, now waiting for
 * CLOSE, answers with NOT_SUPP — once it has read everything before it.
 * Until then no CPU reader may end: its SIGCHLD would cut the listener's
 * read of the metadata short (and the client's sends are done long before
 * the listener has read them, the socket buffers holding the rest). */
static int wait_metadata_read(int fd)
{
	uint8_t msg[TCMSG_HDR_LEN];
	tcmsg_put_hdr(msg, TCMSG_SEND_DATA, 0);
	int rc = send_full(fd, msg, sizeof(msg));
	struct tcmsg_hdr h;
	if (!rc)
		rc = read_full(fd, msg, sizeof(msg), DRAIN_MS);
	if (!rc)
		rc = tcmsg_parse_hdr(msg, &h);
	if (!rc && (h.cmd != TCMSG_NOT_SUPP || h.size != TCMSG_HDR_LEN))
		rc = -EPROTO;
	return rc;
}

static const char *what(int rc)
{
	switch (rc) {
	case -EPROTO:
		return "the listener refused the messages";
	case -EBADMSG:
		return "malformed reply from the listener";
	case -ECONNRESET:
	case -EPIPE:
		return "connection lost";
	default:
		return strerror(-rc);
	}
}

static int send_td(struct net_send *n, const struct tracedat *td, const uint8_t *file, char *err,
		   size_t errlen)
{
	uint32_t cpus = (uint32_t)td->nr_cpus;
	uint16_t *ports = calloc(cpus, sizeof(*ports));
	if (!ports) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	const char *force = getenv(NET_SEND_PROTO_ENV);
	int rc;
	n->proto = force && strcmp(force, "1") == 0 ? 1 : 3;
	if (n->proto == 3) {
		rc = handshake_v3(n->fd);
		if (rc == -EPROTO && !force) {
			/* An older listener: again, with protocol v1, as trace-cmd does. */
			net_send_close(n);
			n->proto = 1;
			rc = greet(n, err, errlen) ? -ECONNREFUSED : 0;
		}
	} else {
		rc = 0;
	}
	const char *stage = "handshake";
	if (!rc) {
		stage = "port list";
		rc = n->proto == 3 ? get_ports_v3(n->fd, cpus, td->page_size, ports)
				   : get_ports_v1(n->fd, cpus, td->page_size, ports);
	}
	/* v3: the metadata and FIN_DATA first, while the listener reads
	 * messages with a time limit and no tolerance for signals — a reader
	 * that ends sends it SIGCHLD; once it has read them all, the pages,
	 * each reader waited for while the listener waits for CLOSE with
	 * neither. Had it stopped reading early, it answers the messages left
	 * with NOT_SUPP, seen before its close. v1: the pages, the
	 * connections held open (a reader that ends would interrupt the
	 * listener's read of the metadata), then the metadata, whose end makes
	 * the listener stop its readers after a second and put the file
	 * together: the readers have that second to catch up. */
	if (!rc && n->proto == 3) {
		stage = "metadata";
		rc = send_data_msgs(n->fd, file, td->v6_data_at); /* it adds the CPU data */
		if (!rc)
			rc = wait_metadata_read(n->fd);
	}
	int *held = calloc(cpus, sizeof(*held));
	if (!held)
		rc = -ENOMEM;
	for (uint32_t cpu = 0; cpu < cpus && !rc; cpu++) {
		const uint8_t *data = NULL;
		uint64_t size = 0;
		for (size_t i = 0; i < td->nr_cpu_data; i++)
			if (td->cpus[i].cpu == (int)cpu &&
			    td->cpus[i].offset + td->cpus[i].size <= td->map_len) {
				/* v3: the file's bytes (`data` may be a copy with
				 * the time stamps converted by TSC2NSEC, which v3
				 * sends); v1: the converted pages, as the listener
				 * writes the options itself. */
				data = n->proto == 1 ? td->cpus[i].data : file + td->cpus[i].offset;
				size = td->cpus[i].size;
			}
		stage = "CPU data";
		rc = send_cpu(n->host, ports[cpu], data, size, n->proto == 1);
		if (rc > 0) {
			held[cpu] = rc;
			rc = 0;
		}
	}
	if (!rc && n->proto == 3) {
		uint8_t hdr[TCMSG_HDR_LEN];
		tcmsg_put_hdr(hdr, TCMSG_CLOSE, 0);
		rc = send_full(n->fd, hdr, sizeof(hdr));
	} else if (!rc) {
		/* Up to the CPU count: the listener writes that, options and data. */
		stage = "metadata";
		rc = send_full(n->fd, file, td->v6_cpu_count_at);
		if (!rc && shutdown(n->fd, SHUT_WR) != 0)
			rc = -errno;
	}
	if (!rc) {
		stage = "closing";
		rc = wait_close(n->fd, DRAIN_MS, true);
	}
	for (uint32_t cpu = 0; held && cpu < cpus; cpu++)
		if (held[cpu] > 0)
			close(held[cpu]);
	free(held);
	free(ports);
	if (rc)
		snprintf(err, errlen, "protocol v%d, %s: %s", n->proto, stage, what(rc));
	return rc ? -1 : 0;
}

int net_send_file(struct net_send *n, const char *path, char *err, size_t errlen)
{
	if (n->fd < 0 || !still_open(n->fd)) {
		snprintf(err, errlen, "connection lost during the recording");
		return -1;
	}
	char perr[256];
	struct tracedat *td = tracedat_open(path, perr, sizeof(perr));
	if (!td) {
		snprintf(err, errlen, "%s", perr);
		return -1;
	}
	int rc = -1;
	if (td->version != 6 || td->latency || td->nr_instances || !td->v6_data_at)
		snprintf(err, errlen, "only an uncompressed trace.dat of one buffer can be sent");
	else
		rc = send_td(n, td, td->map, err, errlen);
	tracedat_free(td);
	net_send_close(n);
	return rc;
}
