/* SPDX-License-Identifier: GPL-2.0-or-later */
// C++ exceptions under the function_graph tracer: a throw through traced
// frames (with a cleanup on the way and a rethrow) lands in its catch, and
// tracing goes on afterwards with well-formed records.
#include <cstdio>
#include <stdexcept>
#include <string>

extern "C" {
int ftx_echo(const char *path, const char *text);
long ftx_check(long *entries);
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
	std::printf("test_ftrace_cxx: ok\n");
	return 0;
}
