/* SPDX-License-Identifier: GPL-2.0-or-later */
// C++ exceptions under the function_graph tracer: a throw through traced
// frames (with a cleanup on the way and a rethrow) lands in its catch, and
// tracing goes on afterwards with well-formed records. Then the same with
// return probes alone: the calls running at a throw give no record, the
// others their return values; and the same on functions without a
// patchable entry, whose returns the instruction probe at their entry hooks.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "../unit/sanitized.h"

extern "C" {
int ftx_echo(const char *path, const char *text);
long ftx_check(long *entries);
long ftx_count(const char *path, const char *needle);
int ftx_append(const char *path, const char *text);
}

#define NOINLINE __attribute__((noinline))

NOINLINE int cx_thrower(int x)
{
	if (x > 2)
		throw std::runtime_error("too big");
	return x;
}

NOINLINE int cx_middle(int x)
{
	std::string s(static_cast<size_t>(x) + 40, 'a'); // a destructor on the unwinding path
	return cx_thrower(x) + static_cast<int>(s.size());
}

NOINLINE int cx_rethrower(int x)
{
	try {
		return cx_middle(x);
	} catch (const std::runtime_error &) {
		throw;
	}
}

NOINLINE int cx_catcher(int x)
{
	try {
		return cx_rethrower(x);
	} catch (const std::exception &) {
		return -1;
	}
}

// The same without a sled (an instruction probe at the entry).
#define NOSLED __attribute__((noinline, patchable_function_entry(0, 0)))

NOSLED int cy_thrower(int x)
{
	if (x > 2)
		throw std::runtime_error("too big");
	return x;
}

NOSLED int cy_middle(int x)
{
	std::string s(static_cast<size_t>(x) + 40, 'a');
	return cy_thrower(x) + static_cast<int>(s.size());
}

NOSLED int cy_rethrower(int x)
{
	try {
		return cy_middle(x);
	} catch (const std::runtime_error &) {
		throw;
	}
}

NOSLED int cy_catcher(int x)
{
	try {
		return cy_rethrower(x);
	} catch (const std::exception &) {
		return -1;
	}
}

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c);               \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

int main()
{
	CHECK(ftx_echo("set_ftrace_filter", "*cx_*\n") == 0);
	CHECK(ftx_echo("current_tracer", "function_graph\n") == 0);
	int sum = 0;
	for (int i = 9; i >= 0; i--)
		sum += cx_catcher(i);
	CHECK(sum == -7 + (0 + 40) + (1 + 41) + (2 + 42));
	CHECK(ftx_echo("tracing_on", "0\n") == 0);
	long entries = 0, exits = ftx_check(&entries);
	// Every call is entered (10 x catcher, rethrower, middle, thrower); the
	// three that return normally exit every level; the thrown ones lose the
	// exits of the frames the exception crossed.
	CHECK(entries == 40);
	CHECK(exits == 3 * 4);
	CHECK(ftx_echo("current_tracer", "nop\n") == 0);

	CHECK(ftx_echo("trace", "") == 0);
	CHECK(ftx_echo("tracing_on", "1\n") == 0);
	CHECK(ftx_append("dynamic_events", "r:cxc _Z10cx_catcheri $retval:s32\n") == 0);
	CHECK(ftx_append("dynamic_events", "r:cxm _Z9cx_middlei $retval:s32\n") == 0);
	CHECK(ftx_echo("events/kprobes/enable", "1\n") == 0);
	sum = 0;
	for (int i = 9; i >= 0; i--)
		sum += cx_catcher(i);
	CHECK(sum == -7 + (0 + 40) + (1 + 41) + (2 + 42));
	CHECK(ftx_echo("events/kprobes/enable", "0\n") == 0);
	// As the graph tracer's exits: a throw gives up every hooked return of
	// the thread, the catcher's too; the calls that did not throw return.
	CHECK(ftx_count("trace", "cxc: (") == 3);
	CHECK(ftx_count("trace", " <- _Z10cx_catcheri) arg1=-1\n") == 0);
	CHECK(ftx_count("trace", " <- _Z10cx_catcheri) arg1=42\n") == 1);
	CHECK(ftx_count("trace", "cxm: (") == 3);
	CHECK(ftx_count("trace", " <- _Z9cx_middlei) arg1=44\n") == 1);
	CHECK(ftx_echo("dynamic_events", "") == 0);

#if !SANITIZED
	// (A sanitizer's code at their entries cannot always be relocated.)
	CHECK(ftx_echo("trace", "") == 0);
	CHECK(ftx_append("dynamic_events", "r:cyc _Z10cy_catcheri $retval:s32\n") == 0);
	CHECK(ftx_append("dynamic_events", "r:cym _Z9cy_middlei $retval:s32\n") == 0);
	CHECK(ftx_echo("events/kprobes/enable", "1\n") == 0);
	sum = 0;
	for (int i = 9; i >= 0; i--)
		sum += cy_catcher(i);
	CHECK(sum == -7 + (0 + 40) + (1 + 41) + (2 + 42));
	CHECK(ftx_echo("events/kprobes/enable", "0\n") == 0);
	CHECK(ftx_count("trace", "cyc: (") == 3);
	CHECK(ftx_count("trace", " <- _Z10cy_catcheri) arg1=42\n") == 1);
	CHECK(ftx_count("trace", "cym: (") == 3);
	CHECK(ftx_count("trace", " <- _Z9cy_middlei) arg1=44\n") == 1);
	// Afterwards every call returns and is recorded again.
	CHECK(ftx_echo("events/kprobes/enable", "1\n") == 0);
	CHECK(cy_catcher(1) == 42);
	CHECK(ftx_echo("events/kprobes/enable", "0\n") == 0);
	CHECK(ftx_count("trace", " <- _Z10cy_catcheri) arg1=42\n") == 2);
	CHECK(ftx_echo("dynamic_events", "") == 0);
#endif
	std::printf("test_ftrace_cxx: ok\n");
	return 0;
}
