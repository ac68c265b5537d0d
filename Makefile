# SPDX-License-Identifier: GPL-2.0-or-later
# uft build. `make` builds the library, the tool and the examples into build/;
# `make demo` and `make test` are the README's two commands.

# `make` runs as many jobs as there are cores unless told how many (-j or
# --jobs, on the command line or in MAKEFLAGS). GNU make 4.3 hides -j from
# $(MAKEFLAGS) while it reads this file, so its own arguments are read. A
# `clean` among the goals keeps one job so it never races a build, and the
# goals whose scripts run make with their own -j (test, fuzz, bench,
# conformance) stay as they are, without make's jobserver warning.
SERIAL_GOALS := clean test check fuzz bench conformance
ifeq ($(MAKELEVEL)$(filter $(SERIAL_GOALS),$(MAKECMDGOALS)),0)
JOBS_GIVEN := $(filter -j% --jobs%,$(MAKEFLAGS)) \
	$(shell tr '\0' '\n' </proc/$$PPID/cmdline 2>/dev/null | grep -E '^(-[a-zA-Z]*j|--jobs)') \
	$(shell printf '%s\n' $$MAKEFLAGS | grep -E '^(-?[a-zA-Z]*j|--jobs)')
NPROC := $(shell nproc 2>/dev/null || echo 1)
ifeq ($(strip $(JOBS_GIVEN)),)
MAKEFLAGS += -j$(NPROC)
endif
endif

CC ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
BUILD ?= build
SAN ?=
OPT ?= -O2

PKGS := libtraceevent libtracecmd libelf libzstd zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# libfuse serves the FUSE doors: the uft tool links it, and libuft_fuse.so,
# which libuft loads only when a process is asked to mount its tree.
FUSE_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null)

# One version (VERSION): the tool's, the tree's text, uft.pc's and the
# library's file name. $(GEN)/uft/version.h carries it to the sources.
VERSION := $(strip $(shell cat VERSION))
VERSION_WORDS := $(subst ., ,$(VERSION))
VERSION_MAJOR := $(word 1,$(VERSION_WORDS))
VERSION_MINOR := $(word 2,$(VERSION_WORDS))
VERSION_PATCH := $(word 3,$(VERSION_WORDS))
GEN := $(BUILD)/gen
VERSION_H := $(GEN)/uft/version.h

WARN := -Wall -Wextra -Werror -Wno-unused-parameter
BASE_CFLAGS := -std=gnu11 $(OPT) -g $(WARN) -fPIC -Iinclude -Isrc -I$(GEN) -MMD -MP
ifneq ($(SAN),)
BASE_CFLAGS += -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=$(SAN)
endif
CFLAGS_ALL := $(BASE_CFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SAN_LDFLAGS) $(LDFLAGS)

# Programs that trace with uft keep a 5-byte NOP sled at every function entry,
# which the function tracers patch into a call (gcc: five one-byte NOPs, clang:
# one 5-byte nopl). libuft itself is never built with it.
TRACED_CFLAGS := -fpatchable-function-entry=5

# The tree (docs/ARCHITECTURE.md): util < wire < engine < runtime (libuft)
# and util < wire < engine < tracedat < recorder, report, client < cmd (uft).
UTIL_SRC := $(wildcard src/util/*.c)
WIRE_SRC := $(wildcard src/wire/*.c)
ENGINE_SRC := $(wildcard src/engine/*/*.c)
# The runtime's share of the engine: no SQL, no reading of format files.
RUNTIME_ENGINE_SRC := $(filter-out src/engine/sqlhist/% src/engine/format/format_parse.c,$(ENGINE_SRC))
RUNTIME_SRC := $(wildcard src/runtime/*/*.c)
# The latency tracers' measuring engine (timerlat, osnoise): libc only.
LATENCY_SRC := $(wildcard src/latency/*.c)
# The processor's part of the runtime (src/arch/arch.h).
ARCH := x86_64
ARCH_SRC := $(wildcard src/arch/$(ARCH)/*.c)
ARCH_ASM := $(wildcard src/arch/$(ARCH)/*.S)
COMMON_SRC := $(UTIL_SRC) $(WIRE_SRC) $(ENGINE_SRC) $(LATENCY_SRC)
LIB_SRC := $(RUNTIME_SRC) $(ARCH_SRC) $(UTIL_SRC) $(WIRE_SRC) $(RUNTIME_ENGINE_SRC) $(LATENCY_SRC)
TOOL_SRC := $(wildcard src/tracedat/*.c src/recorder/*.c src/report/*.c src/export/*.c src/client/*.c src/attach/*.c \
	src/proctrace/*.c) \
	$(filter-out src/cmd/main.c,$(wildcard src/cmd/*.c))
FUSE_SRC := $(wildcard src/fuse/*.c)
TEST_SRC := $(wildcard tests/unit/test_*.c)
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FIXTURE_SRC := $(wildcard tests/fixtures/*.c)

OBJ = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJS = $(call OBJ,$(LIB_SRC)) $(patsubst %.S,$(BUILD)/obj/%.o,$(ARCH_ASM))

# libuft.so.MAJOR.MINOR.PATCH, its soname libuft.so.MAJOR and libuft.so
# (for linking) both links to it.
LIBUFT_SO := $(BUILD)/lib/libuft.so
LIBUFT_SONAME := libuft.so.$(VERSION_MAJOR)
LIBUFT_REAL := $(BUILD)/lib/libuft.so.$(VERSION)
LIBUFT_MAP := src/runtime/libuft.map
LIBUFT_A := $(BUILD)/lib/libuft.a
LIBTOOLS_A := $(BUILD)/lib/libufttools.a
LIBUFT_FUSE := $(BUILD)/lib/libuft_fuse.so
UFT := $(BUILD)/bin/uft
EXAMPLES := $(BUILD)/bin/demo $(BUILD)/bin/flood $(BUILD)/bin/killme $(BUILD)/bin/server
TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRC))
FUZZ_RUNNERS := $(patsubst fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FIXTURES := $(patsubst tests/fixtures/%.c,$(BUILD)/tests/lib%.so,$(FIXTURE_SRC))

RPATH := -Wl,-rpath,'$$ORIGIN/../lib'
LIB_LDLIBS := -lpthread -ldl

.PHONY: all demo test check deps viewer-deps bench bench-real clean format format-check fuzz fuzzers conformance
all: $(LIBUFT_SO) $(BUILD)/lib/$(LIBUFT_SONAME) $(LIBUFT_A) $(LIBUFT_FUSE) $(UFT) $(EXAMPLES) $(BUILD)/lib/pkgconfig/uft.pc

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(VIS_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

# libuft's objects export only what the public headers mark UFT_EXPORT.
$(LIB_OBJS): VIS_CFLAGS := -fvisibility=hidden

$(VERSION_H): VERSION
	@mkdir -p $(dir $@)
	printf '%s\n' '/* Generated from VERSION by the Makefile. */' '#ifndef UFT_VERSION_H' \
		'#define UFT_VERSION_H' '#define UFT_VERSION "$(VERSION)"' \
		'#define UFT_VERSION_MAJOR $(VERSION_MAJOR)' '#define UFT_VERSION_MINOR $(VERSION_MINOR)' \
		'#define UFT_VERSION_PATCH $(VERSION_PATCH)' '#endif' > $@.tmp && mv $@.tmp $@
# Its users, found by their #include, need it before their first build.
$(call OBJ,$(shell grep -rl --include='*.c' 'uft/version\.h' src)): $(VERSION_H)

# The graph tracer's fast path runs between trampolines that save no vector
# register: it must use none and call nothing (no sanitizer, profiler or
# coverage runtime either). The object is checked once built.
FAST_PATH_DROP := -fsanitize=% -pg -finstrument-functions% -fpatchable-function-entry=% \
	--coverage -fprofile-arcs -ftest-coverage -fstack-protector%
$(BUILD)/obj/src/runtime/ftrace/ftrace_fast.o: CFLAGS_ALL := $(filter-out $(FAST_PATH_DROP),$(CFLAGS_ALL)) \
	-mgeneral-regs-only -fno-sanitize=all -fno-stack-protector -fno-profile-arcs \
	-fno-test-coverage
$(BUILD)/obj/src/runtime/ftrace/ftrace_fast.o: src/runtime/ftrace/ftrace_fast.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(VIS_CFLAGS) $(PKG_CFLAGS) -c $< -o $@
	@objdump -dr $@ > $@.dis || { rm -f $@; exit 1; }
	@if grep -Eq '\scallq?\s|\sjmpq?\s+\*|R_X86_64_PLT32|%[xyz]mm|%st|%mm' $@.dis; then \
		echo "$@: the fast path calls out or uses vector/x87 registers" >&2; rm -f $@; exit 1; fi

$(BUILD)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(BUILD)/obj/src/fuse/%.o: src/fuse/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(FUSE_CFLAGS) -c $< -o $@

# Example and test sources are traced programs: they get the patchable entries.
$(BUILD)/obj/examples/%.o: examples/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TRACED_CFLAGS) -Iexamples -c $< -o $@

# Every symbol libuft needs is found at link time, except in sanitizer
# builds, whose runtime the program brings.
LIB_NO_UNDEFINED := $(if $(SAN),,-Wl,--no-undefined)
$(LIBUFT_REAL): $(LIB_OBJS) $(LIBUFT_MAP)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(LIBUFT_SONAME) -Wl,--version-script=$(LIBUFT_MAP) \
		$(LIB_NO_UNDEFINED) $(LDFLAGS_ALL) -o $@ $(LIB_OBJS) $(LIB_LDLIBS)

$(LIBUFT_SO) $(BUILD)/lib/$(LIBUFT_SONAME): $(LIBUFT_REAL)
	ln -sf $(notdir $<) $@

$(LIBUFT_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBTOOLS_A): $(call OBJ,$(TOOL_SRC) $(COMMON_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBUFT_FUSE): $(call OBJ,$(FUSE_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS_ALL) -o $@ $^ $(FUSE_LIBS) -lpthread

$(UFT): $(call OBJ,src/cmd/main.c) $(LIBTOOLS_A) $(call OBJ,$(FUSE_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(FUSE_LIBS) -lpthread -lm

$(BUILD)/bin/%: $(BUILD)/obj/examples/%.o $(LIBUFT_SO) $(BUILD)/lib/$(LIBUFT_SONAME)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $< -L$(BUILD)/lib -luft $(RPATH) $(LIB_LDLIBS)

# The build's uft.pc, for programs built against the checkout: it names the
# build folder and include/, and puts the build's lib/ in their run path.
$(BUILD)/lib/pkgconfig/uft.pc: uft.pc.in VERSION
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(abspath $(BUILD))|' -e 's|@LIBDIR@|$${prefix}/lib|' \
		-e 's|@INCLUDEDIR@|$(abspath include)|' -e 's|@RPATH@|-Wl,-rpath,$${libdir} |' \
		-e 's|@TRACE_CFLAGS@|$(TRACED_CFLAGS)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

# Test programs carry libuft statically and export it (-rdynamic), so the
# fixture libraries they dlopen bind to that one copy.
# test_events also has call sites in files that do not create the events.
TEST_EXTRA_test_events := tests/unit/tev_calls_inline.c tests/unit/tev_calls_outline.c
$(BUILD)/tests/test_events: $(TEST_EXTRA_test_events) tests/unit/tev_calls.h
TEST_EXTRA_test_custom_events := tests/unit/cev_calls_outline.c
$(BUILD)/tests/test_custom_events: $(TEST_EXTRA_test_custom_events) tests/unit/cev_events.h

$(BUILD)/tests/%: tests/unit/%.c $(LIBUFT_A) $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PKG_CFLAGS) $(TRACED_CFLAGS) -Itests/unit -Iexamples -o $@ $< \
		$(TEST_EXTRA_$*) \
		-rdynamic -Wl,--whole-archive $(LIBUFT_A) -Wl,--no-whole-archive $(LIBTOOLS_A) \
		$(LDFLAGS_ALL) $(PKG_LIBS) -lcmocka -lpthread -ldl -lm

# The function tracer test again as a fixed-address (non-PIE) program
# (ThreadSanitizer needs PIE).
NOPIE_TEST := $(if $(findstring thread,$(SAN)),,$(BUILD)/tests/test_ftrace_nopie)
$(BUILD)/tests/test_ftrace_nopie: tests/unit/test_ftrace.c $(LIBUFT_A) $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PKG_CFLAGS) $(TRACED_CFLAGS) -fno-PIC -fno-pie -Itests/unit -o $@ $< \
		-no-pie -rdynamic -Wl,--whole-archive $(LIBUFT_A) -Wl,--no-whole-archive $(LIBTOOLS_A) \
		$(LDFLAGS_ALL) $(PKG_LIBS) -lcmocka -lpthread -ldl -lm

$(BUILD)/tests/lib%.so: tests/fixtures/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TRACED_CFLAGS) -shared -Itests/fixtures -o $@ $<

# Probe args by DWARF name (test_tracefs_probe_dwarf): a library without
# debug information, and one whose debug file is found by its build-id
# under $(BUILD)/tests/debugroot (the test's UFT_DEBUG_ROOT).
$(BUILD)/tests/libprobe_nodebug.so: CFLAGS_ALL += -g0
$(BUILD)/tests/libprobe_split.so: tests/fixtures/probe_split.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TRACED_CFLAGS) -shared -Wl,--build-id -o $@.full $<
	id=$$(readelf -n $@.full | sed -n 's/.*Build ID: *//p'); rest=$${id#??}; \
	d=$(BUILD)/tests/debugroot/.build-id/$${id%"$$rest"}; mkdir -p $$d; \
	objcopy --only-keep-debug $@.full $$d/$$rest.debug && objcopy --strip-debug $@.full $@
	rm -f $@.full

$(BUILD)/fuzz/%: fuzz/%.c fuzz/standalone_main.c $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PKG_CFLAGS) -o $@ $< fuzz/standalone_main.c $(LIBTOOLS_A) \
		$(LDFLAGS_ALL) $(PKG_LIBS) -lpthread -lm

# libFuzzer builds of the same targets, for `make fuzz` (scripts/fuzz.sh):
# build with CC=clang SAN=fuzzer-no-link,... so the code under test is
# instrumented, and link libFuzzer's main here.
FUZZERS := $(patsubst fuzz/%.c,$(BUILD)/fuzzer/%,$(FUZZ_SRC))
$(BUILD)/fuzzer/%: fuzz/%.c $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PKG_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIBTOOLS_A) \
		$(LDFLAGS_ALL) $(PKG_LIBS) -lpthread -lm
fuzzers: $(FUZZERS)

# The C++ exception test of the function tracers, when a C++ compiler is there.
CXX := $(if $(findstring clang,$(CC)),clang++,g++)
CXX_TEST := $(if $(shell command -v $(CXX) 2>/dev/null),$(BUILD)/tests/test_ftrace_cxx)
$(BUILD)/tests/test_ftrace_cxx: tests/cxx/test_ftrace_cxx.cc $(call OBJ,tests/cxx/ftrace_helper.c) \
		$(LIBUFT_A) $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 $(OPT) -g $(WARN) $(TRACED_CFLAGS) $(filter -fsanitize% -fno-%,$(CFLAGS_ALL)) \
		-o $@ $< $(call OBJ,tests/cxx/ftrace_helper.c) \
		-rdynamic -Wl,--whole-archive $(LIBUFT_A) -Wl,--no-whole-archive $(LIBTOOLS_A) \
		$(LDFLAGS_ALL) -lpthread -ldl -lm

# Small programs the integration tests run.
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(wildcard tests/helpers/*.c))
$(BUILD)/tests/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LDFLAGS_ALL)

# The process tracer follows static programs too: the same workload linked
# statically (no sanitizer: its runtime does not link statically).
TEST_HELPERS += $(BUILD)/tests/pt_workload_static
$(BUILD)/tests/pt_workload_static: tests/helpers/pt_workload.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -fsanitize%,$(CFLAGS_ALL)) -static -o $@ $< -lpthread

# The process tracer's driver links the tools' code and libtraceevent.
$(BUILD)/tests/proctrace_run: tests/helpers/proctrace_run.c $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PKG_CFLAGS) -o $@ $< $(LIBTOOLS_A) $(LDFLAGS_ALL) $(PKG_LIBS) -lpthread -lm

# Libraries the integration tests preload into uft's tools.
TEST_HELPERS += $(patsubst tests/preload/%.c,$(BUILD)/tests/%.so,$(wildcard tests/preload/*.c))
$(BUILD)/tests/%.so: tests/preload/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -fsanitize%,$(CFLAGS_ALL)) -fPIC -shared -o $@ $< -ldl

# Traced programs the integration tests run, linked with libuft as the examples.
TRACED_HELPERS := $(patsubst tests/traced/%.c,$(BUILD)/tests/%,$(wildcard tests/traced/*.c))
$(BUILD)/tests/%: tests/traced/%.c $(LIBUFT_SO) $(BUILD)/lib/$(LIBUFT_SONAME)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TRACED_CFLAGS) -Itests/traced -o $@ $< -L$(BUILD)/lib -luft $(RPATH) $(LIB_LDLIBS)

# Programs that write test inputs with the tools' code (tests/gen/NAME.c).
TEST_GEN := $(patsubst tests/gen/%.c,$(BUILD)/tests/%,$(wildcard tests/gen/*.c))
$(BUILD)/tests/%: tests/gen/%.c $(LIBTOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PKG_CFLAGS) -Itests/unit -o $@ $< $(LIBTOOLS_A) \
		$(LDFLAGS_ALL) $(PKG_LIBS) -lpthread -lm

# A libtracefs program (tests/libtracefs/) that test_ns_tracecmd.sh runs
# under `uft ns`, when libtracefs is there.
TRACEFS_CFLAGS := $(shell pkg-config --cflags libtracefs 2>/dev/null)
TRACEFS_LIBS := $(shell pkg-config --libs libtracefs 2>/dev/null)
TRACEFS_TEST := $(if $(TRACEFS_LIBS),$(BUILD)/tests/tracefs_read)
$(BUILD)/tests/tracefs_read: tests/libtracefs/tracefs_read.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TRACEFS_CFLAGS) -o $@ $< $(LDFLAGS_ALL) $(TRACEFS_LIBS)

# The traced program of `make conformance` (tests/conformance/).
CONFORMANCE_PROG := $(BUILD)/tests/kernel_names
$(CONFORMANCE_PROG): tests/conformance/kernel_names.c $(wildcard tests/conformance/*.h) \
		$(LIBUFT_SO) $(BUILD)/lib/$(LIBUFT_SONAME)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(TRACED_CFLAGS) -Itests/conformance -o $@ $< $(LDFLAGS_ALL) \
		-L$(BUILD)/lib -luft $(RPATH) $(LIB_LDLIBS)

tests-bin: $(CONFORMANCE_PROG) $(TESTS) $(FUZZ_RUNNERS) $(FIXTURES) $(TEST_HELPERS) $(TRACED_HELPERS) $(TEST_GEN) $(CXX_TEST) $(NOPIE_TEST) \
	$(TRACEFS_TEST)

# `make install` (GNU layout; PREFIX, DESTDIR and each directory can be
# given): the tool, libuft (its file, soname and link names, libuft.a),
# libuft_fuse.so beside it (libuft loads it from its own folder), the public
# headers, the manual pages, uft.pc with the installed paths, the CMake
# package (find_package(uft)) and the bash completion. `make uninstall`
# removes what it put there.
PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR ?= $(EXEC_PREFIX)/bin
LIBDIR ?= $(EXEC_PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/uft
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
INSTALL ?= install
D := $(DESTDIR)

PUBLIC_HEADERS := $(wildcard include/uft/*.h)
MAN_PAGES := $(wildcard docs/*.[1-8])
# pkg-config file variables: under the prefix written as ${prefix}/...
PC_DIR = $(if $(filter $(PREFIX)/%,$(1)),$${prefix}/$(patsubst $(PREFIX)/%,%,$(1)),$(1))
# The CMake package finds the rest relative to its own folder.
CMAKE_REL = $$(realpath -m --relative-to='$(CMAKEDIR)' '$(1)')

INSTALLED := $(BINDIR)/uft $(LIBDIR)/$(notdir $(LIBUFT_REAL)) $(LIBDIR)/$(LIBUFT_SONAME) \
	$(LIBDIR)/libuft.so $(LIBDIR)/libuft.a $(LIBDIR)/libuft_fuse.so \
	$(addprefix $(INCLUDEDIR)/uft/,$(notdir $(PUBLIC_HEADERS) $(VERSION_H))) \
	$(foreach m,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
	$(PKGCONFIGDIR)/uft.pc $(CMAKEDIR)/uftConfig.cmake $(CMAKEDIR)/uftConfigVersion.cmake \
	$(CMAKEDIR)/uftTraceable.cmake $(BASHCOMPDIR)/uft

.PHONY: install uninstall
install: $(UFT) $(LIBUFT_REAL) $(LIBUFT_A) $(LIBUFT_FUSE) $(VERSION_H)
	$(INSTALL) -d '$(D)$(BINDIR)' '$(D)$(LIBDIR)' '$(D)$(INCLUDEDIR)/uft' '$(D)$(PKGCONFIGDIR)' \
		'$(D)$(CMAKEDIR)' '$(D)$(BASHCOMPDIR)' \
		$(foreach m,$(sort $(suffix $(MAN_PAGES))),'$(D)$(MANDIR)/man$(subst .,,$(m))')
	$(INSTALL) -m 755 $(UFT) '$(D)$(BINDIR)/uft'
	$(INSTALL) -m 755 $(LIBUFT_REAL) $(LIBUFT_FUSE) '$(D)$(LIBDIR)/'
	ln -sf $(notdir $(LIBUFT_REAL)) '$(D)$(LIBDIR)/$(LIBUFT_SONAME)'
	ln -sf $(LIBUFT_SONAME) '$(D)$(LIBDIR)/libuft.so'
	$(INSTALL) -m 644 $(LIBUFT_A) '$(D)$(LIBDIR)/libuft.a'
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(VERSION_H) '$(D)$(INCLUDEDIR)/uft/'
	$(foreach m,$(MAN_PAGES),$(INSTALL) -m 644 $(m) '$(D)$(MANDIR)/man$(subst .,,$(suffix $(m)))/' &&) true
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call PC_DIR,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(call PC_DIR,$(INCLUDEDIR))|' -e 's|@RPATH@||' \
		-e 's|@TRACE_CFLAGS@|$(TRACED_CFLAGS)|' -e 's|@VERSION@|$(VERSION)|' \
		uft.pc.in > '$(D)$(PKGCONFIGDIR)/uft.pc'
	sed -e "s|@LIBDIR_REL@|$(call CMAKE_REL,$(LIBDIR))|" \
		-e "s|@INCLUDEDIR_REL@|$(call CMAKE_REL,$(INCLUDEDIR))|" \
		-e "s|@BINDIR_REL@|$(call CMAKE_REL,$(BINDIR))|" -e 's|@SONAME@|$(LIBUFT_SONAME)|' \
		-e 's|@TRACE_CFLAGS@|$(TRACED_CFLAGS)|' -e 's|@VERSION@|$(VERSION)|' \
		cmake/uftConfig.cmake.in > '$(D)$(CMAKEDIR)/uftConfig.cmake'
	sed -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|' -e 's|@VERSION@|$(VERSION)|' \
		cmake/uftConfigVersion.cmake.in > '$(D)$(CMAKEDIR)/uftConfigVersion.cmake'
	$(INSTALL) -m 644 cmake/uftTraceable.cmake '$(D)$(CMAKEDIR)/'
	$(INSTALL) -m 644 completions/uft.bash '$(D)$(BASHCOMPDIR)/uft'

uninstall:
	rm -f $(foreach f,$(INSTALLED),'$(D)$(f)')
	rmdir '$(D)$(INCLUDEDIR)/uft' '$(D)$(CMAKEDIR)' 2>/dev/null || true

deps:
	@scripts/deps.sh

# KernelShark to look at a trace.dat, with Xvfb and what its test needs
# (tests/integration/test_kernelshark.sh); `make deps` installs them too.
VIEWER_PKGS := kernelshark libkshark-dev libjson-c-dev xvfb xauth xdotool imagemagick
viewer-deps:
	@UFT_EXTRA_PKGS="$(VIEWER_PKGS)" scripts/deps.sh

# The kernel's ftrace selftests on a traced program (docs/CONFORMANCE.md):
# root only, a few minutes, not part of `make test`.
conformance: deps
	$(MAKE) all $(CONFORMANCE_PROG)
	UFT_BUILD=$(BUILD) scripts/conformance.sh

demo: deps
	$(MAKE) all
	$(UFT) record -o $(BUILD)/demo.dat -- $(BUILD)/bin/demo
	$(UFT) report -i $(BUILD)/demo.dat

test: deps
	scripts/test.sh

check: test

bench: deps
	$(MAKE) all $(BUILD)/tests/kernel_dat $(BUILD)/tests/graph_dat
	$(MAKE) -C bench BUILD=$(abspath $(BUILD))
	bench/run.sh $(abspath $(BUILD))
	bench/process.sh $(abspath $(BUILD))
	bench/latency.sh $(abspath $(BUILD))
	bench/export.sh $(abspath $(BUILD))

# SQLite, zlib and Lua under uft record and uftrace record (docs/BENCHMARKS.md,
# "Real programs"); sources downloaded once into .cache in bench/real/.
bench-real: deps
	$(MAKE) all
	bench/real/run.sh $(abspath $(BUILD))

fuzz:
	scripts/fuzz.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(BUILD)/tests $(BUILD)/fuzz -name '*.d' 2>/dev/null)
