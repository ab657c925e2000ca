/* Whether the guests of a libvirt network on another machine can be reached
 * from this one (endpoint "guest", issue 25 item 4): the network's forward
 * mode and, for a routed or open one, a route here to its IPv4 subnet, from
 * network XML as virNetworkGetXMLDesc gives it and /proc/net/route's text. The
 * addresses are documentation's (RFC 5737) and examples only: nothing is sent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/strbuf.h"
#include "target/libvirt/libvirt.h"

/* test:///default's network, as `virsh net-dumpxml default` prints it. */
static const char nat[] = "<network>\n  <name>default</name>\n  <forward mode='nat'/>\n"
			  "  <bridge name='virbr0' stp='on' delay='0'/>\n"
			  "  <ip address='192.168.122.1' netmask='255.255.255.0'>\n    <dhcp>\n"
			  "      <range start='192.168.122.2' end='192.168.122.254'/>\n    </dhcp>\n  </ip>\n</network>\n";

#define ROUTE_HEAD "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
/* A default route and 192.0.2.0/24 on eth0 (this machine's kind of table). */
static const char only_default[] = ROUTE_HEAD "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
					    "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";
/* The same and 198.51.100.0/23 via 192.0.2.7 (covers 198.51.100.0/24), and a route that is down. */
static const char routed[] = ROUTE_HEAD "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
				      "eth0\t006433C6\t070200C0\t0003\t0\t0\t0\t00FEFFFF\t0\t0\t0\n"
				      "eth1\t007100CB\t070200C0\t0002\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";

static bool unreachable(const char *xml, const char *routes, const char *want)
{
	struct strbuf why;
	bool r;

	strbuf_init(&why, 0);
	r = lv_net_unreachable(xml, routes, &why);
	if (want && !strstr(why.buf, want))
		fail_msg("why \"%s\", expected \"...%s...\"", why.buf, want);
	if (!r)
		assert_int_equal(why.len, 0);
	strbuf_release(&why);
	return r;
}

static void forward_modes(void **state)
{
	(void)state;
	assert_true(unreachable(nat, routed, "is NAT (<forward mode='nat'>): its guests reach out, nothing reaches in"));
	/* <forward/> without a mode is NAT too; no <forward> is an isolated network. */
	assert_true(unreachable("<network><forward/><ip address='192.0.2.1' prefix='24'/></network>", routed, "is NAT"));
	assert_true(unreachable("<network><name>x</name><ip address='192.0.2.1' prefix='24'/></network>", routed,
				"is isolated (no <forward>)"));
	/* On the host's LAN: nothing to say. */
	assert_false(unreachable("<network><forward mode='bridge'/><bridge name='br0'/></network>", routed, NULL));
	assert_false(unreachable("<network><forward mode=\"passthrough\"><interface dev='eth3'/></forward></network>",
				 only_default, NULL));
	/* An attribute whose name ends in "mode" is not the mode. */
	assert_true(unreachable("<network><forward xmode='bridge'/></network>", routed, "is NAT"));
}

static void routes(void **state)
{
	static const char route24[] = "<network><forward mode='route' dev='eth0'/>"
				      "<ip address='198.51.100.1' prefix='24'/></network>";
	static const char open_mask[] = "<network><forward mode='open'/>"
					"<ip family='ipv6' address='2001:db8::1' prefix='64'/>"
					"<ip address='203.0.113.1' netmask='255.255.255.0'/></network>";

	(void)state;
	/* 198.51.100.0/23 via 192.0.2.7 covers it. */
	assert_false(unreachable(route24, routed, NULL));
	/* The default route alone is no route to it. */
	assert_true(unreachable(route24, only_default,
				"is routed (<forward mode='route'>) to 198.51.100.0/24, and this machine has no route to "
				"it but its default one (expected ip route add 198.51.100.0/24 via that host"));
	/* A route to a wider subnet than the /23 is not the network's: a /22 network is not covered. */
	assert_true(unreachable("<network><forward mode='route'/><ip address='198.51.100.1' prefix='22'/></network>",
				routed, "to 198.51.100.0/22"));
	/* The IPv6 address is skipped for the IPv4 one; eth1's route to 203.0.113.0/24 is not up. */
	assert_true(unreachable(open_mask, routed, "is open (<forward mode='open'>) to 203.0.113.0/24"));
	/* A routed network with no IPv4 address, or an unreadable table: nothing is claimed. */
	assert_false(unreachable("<network><forward mode='route'/><ip family='ipv6' address='2001:db8::1' "
				 "prefix='64'/></network>", only_default, NULL));
	assert_true(unreachable(route24, NULL, "no route to it"));
	assert_true(unreachable(route24, "", "no route to it"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forward_modes),
		cmocka_unit_test(routes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
