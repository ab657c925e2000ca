/*
 * The one MySQL greeting probe (the local target's readiness of mariadbd, the
 * libvirt target's of a guest): connect, read the first 5 bytes of the
 * server's first packet, look at the protocol byte (an error packet's text is
 * shown).
 */
#include "target/target.h"

#include "core/clock.h"
#include "core/strbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int target_probe_mysql(const char *host, unsigned port, unsigned timeout_ms, bool error_ok, struct strbuf *why)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	unsigned char hs[256];
	size_t got = 0, want = 5;
	uint64_t deadline = clock_now_ns() + (uint64_t)timeout_ms * NS_PER_MS;
	int fd, ret = -EAGAIN;

	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		if (why)
			strbuf_addf(why, "\"%s\" is not an IPv4 address", host);
		return -EINVAL;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (why)
			strbuf_addf(why, "connect to %s:%u: %s", host, port, strerror(errno));
		goto out;
	}
	while (got < want) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		uint64_t now = clock_now_ns();
		int left = now < deadline ? (int)((deadline - now) / NS_PER_MS) : 0;
		ssize_t r;
		if (poll(&pf, 1, left) <= 0)
			break;
		r = read(fd, hs + got, sizeof(hs) - got);
		if (r <= 0)
			break;
		got += (size_t)r;
		/* The whole first packet (3-byte length, sequence), as far as it fits. */
		if (got >= 4) {
			size_t len = 4 + (hs[0] | (size_t)hs[1] << 8 | (size_t)hs[2] << 16);
			want = len < sizeof(hs) ? len : sizeof(hs);
			if (want < 5)
				want = 5;
		}
	}
	if (got < 5) {
		if (why)
			strbuf_addf(why, "%s:%u accepted the connection but sent no server greeting", host, port);
		goto out;
	}
	if (hs[4] == 10 || (error_ok && hs[4] == 0xff)) {
		ret = 0;
		goto out;
	}
	/* An error packet (0xff, 2-byte code, text) instead: e.g. "Host '10.0.2.2' is not allowed to
	 * connect" while the guest's setup has not granted the driver's user yet; not ready. */
	if (why && hs[4] == 0xff) {
		int n = 0;
		while (7 + (size_t)n < got && n < 160 && hs[7 + n] >= ' ' && hs[7 + n] <= '~')
			n++;
		strbuf_addf(why, "%s:%u refused the connection: \"%.*s\" (the guest setup has not granted the driver's "
			    "user yet, or not to the address it connects from: see .target.db_client)", host, port, n,
			    (const char *)hs + 7);
	} else if (why) {
		strbuf_addf(why, "%s:%u answered with something else than a MySQL greeting", host, port);
	}
out:
	close(fd);
	return ret;
}
