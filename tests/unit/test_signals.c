/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The signal context in common_flags: records written inside a handler carry
 * the signal-handler flag, records written with every signal blocked carry the
 * signals-off flag; the sigaction()/signal() front ends stay transparent. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "own_rings.h"
#include <uft/uft.h>

static void mark(int where)
{
	UFT_TRACE(tsig, mark, "where=%d", where);
}

static void on_usr1(int sig)
{
	(void)sig;
	mark(1);
}

static void on_usr2_info(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	mark(si->si_signo == SIGUSR2 ? 2 : -1);
}

struct seen {
	int where[16];
	uint8_t flags[16];
	int n;
};

static int grab(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		uint64_t missed)
{
	(void)ts;
	(void)cpu;
	(void)missed;
	struct seen *s = ctx;
	const struct uft_common_entry *e = data;
	if (e->type != uft_event_id(uft_find_event("tsig", "mark")) || len < 12 || s->n >= 16)
		return 0;
	memcpy(&s->where[s->n], (const char *)data + 8, 4);
	s->flags[s->n] = e->flags;
	s->n++;
	return 0;
}

static void collect(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	drain_own_rings(NULL, 0, grab, s);
}

static void test_flags_from_handlers_and_masks(void **state)
{
	(void)state;
	mark(0); /* registers the event */
	assert_true(uft_set_event("tsig:*", 1) >= 1);

	struct sigaction a, old;
	memset(&a, 0, sizeof(a));
	a.sa_handler = on_usr1;
	sigemptyset(&a.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &a, NULL), 0);
	/* The program sees its own handler, not the trampoline. */
	assert_int_equal(sigaction(SIGUSR1, NULL, &old), 0);
	assert_ptr_equal(old.sa_handler, on_usr1);
	assert_false(old.sa_flags & SA_SIGINFO);

	memset(&a, 0, sizeof(a));
	a.sa_sigaction = on_usr2_info;
	a.sa_flags = SA_SIGINFO;
	sigfillset(&a.sa_mask); /* the handler runs with everything blocked */
	assert_int_equal(sigaction(SIGUSR2, &a, NULL), 0);

	mark(10);
	raise(SIGUSR1);
	raise(SIGUSR2);
	sigset_t all, prev;
	sigfillset(&all);
	assert_int_equal(pthread_sigmask(SIG_SETMASK, &all, &prev), 0);
	mark(11);
	assert_int_equal(pthread_sigmask(SIG_SETMASK, &prev, NULL), 0);
	mark(12);

	struct seen s;
	collect(&s);
	uft_set_event("tsig:*", 0);
	assert_int_equal(s.n, 5);
	int expect_where[] = {10, 1, 2, 11, 12};
	uint8_t expect_flags[] = {0, UFT_FLAG_IN_SIGNAL, UFT_FLAG_IN_SIGNAL | UFT_FLAG_SIGS_BLOCKED,
				  UFT_FLAG_SIGS_BLOCKED, 0};
	for (int i = 0; i < 5; i++) {
		assert_int_equal(s.where[i], expect_where[i]);
		assert_int_equal(s.flags[i], expect_flags[i]);
	}
}

static void test_signal_and_ignore_pass_through(void **state)
{
	(void)state;
	assert_ptr_equal(signal(SIGUSR1, SIG_IGN), on_usr1);
	raise(SIGUSR1); /* ignored, really */
	struct sigaction old;
	assert_int_equal(sigaction(SIGUSR1, NULL, &old), 0);
	assert_ptr_equal(old.sa_handler, SIG_IGN);
	assert_ptr_equal(signal(SIGUSR1, on_usr1), SIG_IGN);
	assert_ptr_equal(signal(SIGUSR1, SIG_DFL), on_usr1);
	assert_int_equal(sigaction(0, NULL, &old), -1);
}

static sigjmp_buf jump_back;

static void on_usr1_jump(int sig)
{
	(void)sig;
	mark(20);
	siglongjmp(jump_back, 1);
}

static void test_siglongjmp_leaves_the_handler(void **state)
{
	(void)state;
	assert_true(uft_set_event("tsig:*", 1) >= 1);
	struct seen before;
	collect(&before);
	signal(SIGUSR1, on_usr1_jump);
	if (sigsetjmp(jump_back, 1) == 0)
		raise(SIGUSR1);
	mark(21);
	signal(SIGUSR1, SIG_DFL);
	struct seen s;
	collect(&s);
	uft_set_event("tsig:*", 0);
	assert_int_equal(s.n, before.n + 2);
	assert_int_equal(s.where[before.n], 20);
	assert_int_equal(s.flags[before.n], UFT_FLAG_IN_SIGNAL);
	assert_int_equal(s.where[before.n + 1], 21);
	assert_int_equal(s.flags[before.n + 1], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_flags_from_handlers_and_masks),
	    cmocka_unit_test(test_signal_and_ignore_pass_through),
	    cmocka_unit_test(test_siglongjmp_leaves_the_handler),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
