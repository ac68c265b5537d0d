/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Eprobes through the tree: an eprobe on a static event and on a probe,
 * its records made from the source's fields ($FIELD, :string, a
 * dereference, $comm), the source recording whether or not it is enabled
 * itself, the eprobe's "if" filter on the source and its own filter and
 * hist, instances, the kernel's error_log lines, and deletion (EBUSY while
 * it is enabled, and for its source while it exists). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_test_events.h"

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "tfs_helpers.h"
#include <uft/uft.h>
#include <uft/user_events.h>
#include "util/atomics.h"
#include "probe_tree.h"

__attribute__((noinline, used)) unsigned ep_request(const char *path, unsigned len)
{
	__asm__ volatile("" ::"r"(path) : "memory");
	return len + 1;
}

static unsigned (*volatile call_req)(const char *, unsigned) = ep_request;

static int setup(void **state)
{
	(void)state;
	tfs_echo("events/enable", "0", W);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	return 0;
}

static void test_static_source(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events",
				  "e:myep tfst.ping num=$n:s32 str=$s:string c=+0($s):char", A),
			 0);
	check("dynamic_events",
	      "e:eprobes/myep tfst.ping num=$n:s32 str=$s:string c=+0($s):char\n");
	check("kprobe_events", "");
	char *fmt = rd("events/eprobes/myep/format");
	assert_non_null(strstr(fmt, "name: myep\n"));
	assert_non_null(strstr(fmt, "\tfield:s32 num;\toffset:8;\tsize:4;\tsigned:1;\n"));
	assert_non_null(
	    strstr(fmt, "\tfield:__data_loc char[] str;\toffset:12;\tsize:4;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "\tfield:u8 c;\toffset:16;\tsize:1;\tsigned:0;\n"));
	free(fmt);
	check("events/tfst/ping/enable", "0\n");
	/* Enabled alone: the source is in soft mode, builds its records for
	 * the eprobe and keeps none. */
	assert_int_equal(tfs_echo("events/eprobes/myep/enable", "1", W), 0);
	check("events/tfst/ping/enable", "0*\n");
	char *trig = rd("events/tfst/ping/trigger");
	assert_non_null(strstr(trig, "# Available triggers:"));
	free(trig);
	trace_ping(7, "hello");
	expect_in("trace", "myep: (tfst.ping) num=7 str=\"hello\" c='h'\n", 1);
	expect_in("trace", " ping: ", 0);
	/* The source enabled too: both records. */
	assert_int_equal(tfs_echo("events/tfst/ping/enable", "1", W), 0);
	check("events/tfst/ping/enable", "1*\n");
	trace_ping(8, "x");
	expect_in("trace", "myep: (tfst.ping) num=8 str=\"x\" c='x'\n", 1);
	expect_in("trace", " ping: n=8 s=x\n", 1);
	assert_int_equal(tfs_echo("events/tfst/ping/enable", "0", W), 0);
	/* An enabled eprobe cannot go. */
	assert_int_equal(tfs_echo("dynamic_events", "-:myep", A), -EBUSY);
	assert_int_equal(tfs_echo("dynamic_events", "", W), -EBUSY);
	assert_int_equal(tfs_echo("events/eprobes/myep/enable", "0", W), 0);
	check("events/tfst/ping/enable", "0\n");
	trace_ping(9, "gone");
	expect_in("trace", "num=9", 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:eprobes/myep", A), 0);
	check("dynamic_events", "");
	int err = 0;
	assert_null(tfs_cat("events/eprobes/myep/format", &err));
}

static void test_comm_and_group(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "e:grp/who tfst/ping $comm v=$n:x32", A), 0);
	check("dynamic_events", "e:grp/who tfst.ping arg1=$comm v=$n:x32\n");
	assert_int_equal(tfs_echo("events/grp/who/enable", "1", W), 0);
	trace_ping(255, "c");
	char comm[17] = "";
	FILE *f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	char line[128];
	snprintf(line, sizeof(line), "who: (tfst.ping) arg1=\"%s\" v=0xff\n", comm);
	expect_in("trace", line, 1);
	assert_int_equal(tfs_echo("events/grp/who/enable", "0", W), 0);
	/* Default name: the source's. */
	assert_int_equal(tfs_echo("dynamic_events", "e tfst.ping $n", A), 0);
	expect_in("dynamic_events", "e:eprobes/ping tfst.ping arg1=$n\n", 1);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

static void test_probe_source(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "p:req ep_request p=%di len=%si:u32", A), 0);
	assert_int_equal(
	    tfs_echo("dynamic_events", "e:short kprobes.req path=+0($p):string n=$len:u32", A), 0);
	/* The source cannot go while the eprobe exists, enabled or not. */
	assert_int_equal(tfs_echo("dynamic_events", "-:kprobes/req", A), -EBUSY);
	assert_int_equal(tfs_echo("kprobe_events", "", W), -EBUSY);
	/* The enable alone attaches the probe (no other tree operation between). */
	assert_int_equal(tfs_echo("events/eprobes/short/enable", "1", W), 0);
	assert_int_equal(call_req("/index.html", 11), 12);
	check("events/kprobes/req/enable", "0*\n");
	expect_in("trace", "short: (kprobes.req) path=\"/index.html\" n=11\n", 1);
	expect_in("trace", " req: ", 0);
	assert_int_equal(tfs_echo("events/eprobes/short/enable", "0", W), 0);
	/* The probe's sled went back when nothing wanted it. */
	check("events/kprobes/req/enable", "0\n");
	call_req("/later", 6);
	expect_in("trace", "/later", 0);
	/* Truncating dynamic_events takes both. */
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	check("dynamic_events", "");
}

static void test_filters_hist(void **state)
{
	(void)state;
	/* "if" filters the source's records, on its fields. */
	assert_int_equal(tfs_echo("dynamic_events", "e:big tfst.ping num=$n:s32 if n > 3", A), 0);
	check("dynamic_events", "e:eprobes/big tfst.ping num=$n:s32\n");
	/* The eprobe's own filter is on its args. */
	assert_int_equal(tfs_echo("events/eprobes/big/filter", "num != 5", W), 0);
	assert_int_equal(tfs_echo("events/eprobes/big/trigger", "hist:keys=num", W), 0);
	assert_int_equal(tfs_echo("events/eprobes/big/enable", "1", W), 0);
	for (int i = 1; i <= 6; i++)
		trace_ping(i, "h");
	trace_ping(6, "h");
	expect_in("trace", "big: (tfst.ping) num=", 3);
	expect_in("trace", "num=5", 0);
	expect_in("trace", "num=6\n", 2);
	/* The hist sees what the "if" lets through, the event filter after it. */
	expect_in("events/eprobes/big/hist", "{ num:          6 } hitcount:          2\n", 1);
	expect_in("events/eprobes/big/hist", "{ num:          5 } hitcount:          1\n", 1);
	expect_in("events/eprobes/big/hist", "{ num:          3 }", 0);
	assert_int_equal(tfs_echo("events/eprobes/big/enable", "0", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:big", A), -EBUSY); /* its hist */
	assert_int_equal(tfs_echo("events/eprobes/big/trigger", "!hist:keys=num", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:big", A), 0);
}

/* A synthetic event as the source: fired by a hist action, it gives the
 * eprobe's record; it cannot be deleted while the eprobe exists. */
static void test_synth_source(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "s:mysyn int v", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "e:fromsyn synthetic.mysyn val=$v:s32", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:synthetic/mysyn", A), -EBUSY);
	assert_int_equal(tfs_echo("synthetic_events", "!mysyn", A), -EBUSY);
	assert_int_equal(tfs_echo("events/tfst/ping/trigger",
				  "hist:keys=common_pid:m=n:onmax($m).trace(mysyn,$m)", W),
			 0);
	assert_int_equal(tfs_echo("events/eprobes/fromsyn/enable", "1", W), 0);
	trace_ping(11, "s");
	expect_in("trace", "fromsyn: (synthetic.mysyn) val=11\n", 1);
	assert_int_equal(tfs_echo("events/eprobes/fromsyn/enable", "0", W), 0);
	assert_int_equal(tfs_echo("events/tfst/ping/trigger",
				  "!hist:keys=common_pid:m=n:onmax($m).trace(mysyn,$m)", A),
			 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:fromsyn", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:synthetic/mysyn", A), 0);
}

/* A user event as the source: the eprobe arms it (its enable bit set) and
 * takes its payloads; it cannot be deleted while the eprobe exists. */
static void test_user_event_source(void **state)
{
	(void)state;
	uint32_t word = 0;
	int idx = -1;
	assert_int_equal(uft_user_event_register("ue_src u32 v", &word, 2, &idx), 0);
	assert_int_equal(tfs_echo("dynamic_events", "e:fromue user_events.ue_src val=$v:u32", A),
			 0);
	assert_int_equal(tfs_echo("events/eprobes/fromue/enable", "1", W), 0);
	assert_true(__atomic_load_n(&word, __ATOMIC_RELAXED) & (1u << 2));
	uint32_t v = 77;
	assert_int_equal(uft_user_event_write_buf(idx, &v, sizeof(v)), (ssize_t)sizeof(v));
	expect_in("trace", "fromue: (user_events.ue_src) val=77\n", 1);
	expect_in("trace", " ue_src: ", 0);
	assert_int_equal(tfs_echo("events/eprobes/fromue/enable", "0", W), 0);
	assert_int_equal(uft_user_event_unregister(&word, 2), 0);
	assert_int_equal(uft_user_event_delete("ue_src"), -EBUSY);
	assert_int_equal(tfs_echo("dynamic_events", "-:fromue", A), 0);
	assert_int_equal(uft_user_event_delete("ue_src"), 0);
}

/* Define, enable, disable and delete while threads fire the source: each
 * eprobe record is whole, and nothing is left behind. */
static volatile int churn_stop;

static void *churn_thread(void *arg)
{
	(void)arg;
	while (!READ_ONCE(churn_stop))
		trace_ping(3, "churn");
	return NULL;
}

static void test_churn_under_threads(void **state)
{
	(void)state;
	pthread_t t[3];
	WRITE_ONCE(churn_stop, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&t[i], NULL, churn_thread, NULL), 0);
	int total = 0;
	for (int round = 0; round < 20; round++) {
		assert_int_equal(tfs_echo("trace", "", W), 0);
		assert_int_equal(
		    tfs_echo("dynamic_events", "e:ch tfst.ping num=$n:s32 s=$s:string", A), 0);
		assert_int_equal(tfs_echo("events/eprobes/ch/enable", "1", W), 0);
		usleep(2000);
		assert_int_equal(tfs_echo("events/eprobes/ch/enable", "0", W), 0);
		char *tr = rd("trace");
		int all = tfs_count(tr, " ch: ");
		int whole = tfs_count(tr, " ch: (tfst.ping) num=3 s=\"churn\"\n");
		free(tr);
		assert_int_equal(all, whole);
		total += all;
		assert_int_equal(tfs_echo("dynamic_events", "-:ch", A), 0);
	}
	WRITE_ONCE(churn_stop, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	check("events/tfst/ping/enable", "0\n");
	check("dynamic_events", "");
	assert_true(total > 0);
}

static void test_instance(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "e:iep tfst.ping num=$n:u8", A), 0);
	assert_int_equal(uft_tracefs_mkdir("instances/epi"), 0);
	assert_int_equal(tfs_echo("instances/epi/events/eprobes/iep/enable", "1", W), 0);
	check("instances/epi/events/tfst/ping/enable", "0*\n");
	check("events/tfst/ping/enable", "0\n");
	trace_ping(42, "i");
	expect_in("instances/epi/trace", "iep: (tfst.ping) num=42\n", 1);
	expect_in("trace", "num=42", 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:iep", A), -EBUSY);
	assert_int_equal(tfs_echo("instances/epi/events/eprobes/iep/enable", "0", W), 0);
	check("instances/epi/events/tfst/ping/enable", "0\n");
	assert_int_equal(uft_tracefs_rmdir("instances/epi"), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:iep", A), 0);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("dynamic_events", "e:ep tfst.nosuch $n", -EINVAL,
		     LOG("event_probe", "Attached event does not exist", "e:ep tfst.nosuch $n",
			 SP11 "     "));
	expect_error("dynamic_events", "e:ep ping $n", -EINVAL,
		     LOG("event_probe", "This requires both group and event name to attach",
			 "e:ep ping $n", SP11 "     "));
	expect_error("dynamic_events", "e:ep tfst.ping $nosuch", -EINVAL,
		     LOG("event_probe", "Invalid $-valiable specified", "e:ep tfst.ping $nosuch",
			 SP11 "               "));
	expect_error("dynamic_events", "e:ep tfst.ping %di", -EINVAL,
		     LOG("event_probe", "Invalid fetch argument", "e:ep tfst.ping %di",
			 SP11 "               "));
	expect_error("dynamic_events", "e:ep tfst.ping $n if", -EINVAL,
		     LOG("event_probe", "No filter rule after 'if'", "e:ep tfst.ping $n if",
			 SP11 "                     "));
	/* A filter that does not compile on the source: the filter's entry. */
	expect_error(
	    "dynamic_events", "e:ep tfst.ping $n if nosuch == 1", -EINVAL,
	    LOG("event filter parse error", "Field not found", "nosuch == 1", SP11 "       "));
	/* Eprobes and the ftrace entries are no source. */
	assert_int_equal(tfs_echo("dynamic_events", "e:one tfst.ping $n", A), 0);
	expect_error("dynamic_events", "e:two eprobes.one $num", -EINVAL,
		     LOG("event_probe", "Attached event does not exist", "e:two eprobes.one $num",
			 SP11 "      "));
	/* A name in use. */
	assert_int_equal(tfs_echo("dynamic_events", "e:tfst/ping tfst.ping $n", A), -EEXIST);
	/* Only dynamic_events takes them. */
	assert_int_equal(tfs_echo("kprobe_events", "e:three tfst.ping $n", A), -EINVAL);
	assert_int_equal(tfs_echo("dynamic_events", "-:one", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:one", A), -ENOENT);
	check("dynamic_events", "");
}

int main(void)
{
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_static_source, setup),
	    cmocka_unit_test_setup(test_comm_and_group, setup),
	    cmocka_unit_test_setup(test_probe_source, setup),
	    cmocka_unit_test_setup(test_filters_hist, setup),
	    cmocka_unit_test_setup(test_synth_source, setup),
	    cmocka_unit_test_setup(test_user_event_source, setup),
	    cmocka_unit_test_setup(test_churn_under_threads, setup),
	    cmocka_unit_test_setup(test_instance, setup),
	    cmocka_unit_test_setup(test_errors, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
