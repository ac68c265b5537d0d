/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* uft: ftrace for user space. Public API of libuft.
 *
 * Two ways to put trace events in a program:
 *   - UFT_EVENT definitions (<uft/trace_event.h>): typed fields, an assign
 *     block and a print format, like the kernel's TRACE_EVENT;
 *   - UFT_TRACE(system, event, "fmt", args...): a printf-style one-liner whose
 *     fields come from the format string.
 * Both cost one predicted branch while disabled. Defining UFT_DISABLE before
 * including any uft header compiles every tracepoint out. */
#ifndef UFT_UFT_H
#define UFT_UFT_H

#include <stddef.h>
#include <stdint.h>
#include <uft/event.h>
#include <uft/export.h>
#ifndef __cplusplus
#include <string.h>
#include <uft/fastpath.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- control (normally driven by `uft record` through the environment) ---- */

/**
 * uft_set_event() - enable or disable the events a spec names
 * @spec: as trace-cmd's -e takes it: "SYSTEM:EVENT", "SYSTEM:*", "EVENT" or
 *        "all"; globs allowed in either part
 * @on: non-zero to enable, 0 to disable
 *
 * Return: the number of events changed, or -errno.
 */
UFT_EXPORT int uft_set_event(const char *spec, int on);
/**
 * uft_set_filter() - set the filter of the events a spec names
 * @spec: the events, as uft_set_event() takes them; events registered later
 *        that match it get the filter too
 * @expr: the filter in the kernel's grammar; "0" clears it
 * @err: receives the kernel's `filter` file text of an error (expression,
 *       caret, parse_error line)
 * @errlen: size of @err
 *
 * Return: the number of events given the filter, or -EINVAL (text in @err).
 */
UFT_EXPORT int uft_set_filter(const char *spec, const char *expr, char *err, size_t errlen);
/**
 * uft_flush() - publish what the calling thread has committed
 *
 * Makes every record committed so far visible to consumers and publishes
 * the event counts.
 */
UFT_EXPORT void uft_flush(void);
/**
 * uft_find_event() - look up a registered event
 * @system: the event's system
 * @name: the event's name
 *
 * Return: the event's descriptor as its definition made it, or NULL if no
 * such event is registered. What the runtime derives (a UFT_TRACE event's
 * fields and print format) is not written into it: the event's `format`
 * file in the tree shows that.
 */
UFT_EXPORT struct uft_event *uft_find_event(const char *system, const char *name);

/* ---- internals used by the generated code ---- */

/**
 * struct uft_rsv - a reservation in progress, filled by uft_reserve()
 *
 * Opaque to callers: they hand it back to uft_reserve_next(), uft_commit()
 * and uft_discard().
 */
struct uft_rsv {
	void *w;   /* writer ring */
	void *rec; /* payload: common header then fields */
	const struct uft_event *ev;
	const void *targets; /* the event's target list when reserved */
	const void *filter;  /* the current target's filter */
	uint64_t ts;
	uint32_t tail; /* page tail once committed */
	uint32_t lvl;
	uint32_t len;
	uint32_t ti;	   /* index of the current target */
	uint32_t ext_tail; /* page tail after a time extend written ahead, or 0 */
};

/**
 * uft_reserve() - reserve a record in the first buffer an event goes to
 * @rsv: the reservation, filled here
 * @ev: the event
 * @len: the record's size in bytes, common header included
 *
 * Fills the record's common header. Every non-NULL reservation must be
 * followed by uft_commit() or uft_discard(), then uft_reserve_next() for
 * the next buffer, until that returns NULL::
 *
 *	for (rec = uft_reserve(&r, ev, len); rec; rec = uft_reserve_next(&r)) {
 *		fill(rec);
 *		uft_commit(&r);
 *	}
 *
 * Return: the record, or NULL (event not enabled, tracing off, buffer full,
 * writes nested too deep).
 */
UFT_EXPORT void *uft_reserve(struct uft_rsv *rsv, const struct uft_event *ev, uint32_t len);
/**
 * uft_reserve_next() - reserve the same record in the event's next buffer
 * @rsv: a reservation uft_reserve() started, committed or discarded since
 *
 * Return: the record (common header filled), or NULL when no buffer is left.
 */
UFT_EXPORT void *uft_reserve_next(struct uft_rsv *rsv);
/**
 * uft_commit() - make a reserved record part of its buffer
 * @rsv: the reservation, its record filled
 */
UFT_EXPORT void uft_commit(struct uft_rsv *rsv);
/**
 * uft_discard() - abandon a reservation
 * @rsv: the reservation; its record takes no space
 */
UFT_EXPORT void uft_discard(struct uft_rsv *rsv);
/**
 * uft__register_section() - register the events of one loaded object
 * @start: first entry of the object's uft_events section
 * @stop: end of the section
 *
 * Called by the constructor every file including this header carries.
 */
UFT_EXPORT void uft__register_section(struct uft_event *const *start,
				      struct uft_event *const *stop);
/**
 * uft__unregister_section() - forget the events of an object being unloaded
 * @start: first entry of the object's uft_events section
 * @stop: end of the section
 *
 * Called by the matching destructor.
 */
UFT_EXPORT void uft__unregister_section(struct uft_event *const *start,
					struct uft_event *const *stop);
/**
 * uft__custom_attach() - link a custom event's hook onto its tracepoint's list
 * @head: the tracepoint's list (uft__customs_<event>)
 * @hook: the custom event's hook
 *
 * Called by the constructor UFT_CUSTOM_EVENT() emits.
 */
UFT_EXPORT void uft__custom_attach(struct uft_custom_hook **head, struct uft_custom_hook *hook);
/**
 * uft__custom_detach() - take a custom event's hook off its tracepoint's list
 * @head: the tracepoint's list
 * @hook: the custom event's hook
 *
 * Called by the matching destructor.
 */
UFT_EXPORT void uft__custom_detach(struct uft_custom_hook **head, struct uft_custom_hook *hook);
/**
 * uft__trace_printf() - write one record of a printf-style tracepoint
 * @ev: the tracepoint's descriptor
 * @args: the arguments, each widened to 64 bits
 * @nr_args: number of entries in @args
 *
 * Called by UFT_TRACE() and uft_tracepoint() while the gate is open.
 */
UFT_EXPORT void uft__trace_printf(struct uft_event *ev, const uint64_t *args, uint32_t nr_args);
/**
 * uft__fast_filter_pass() - test a fast-path record against a filter
 * @filter: the event's fast_filter
 * @rec: the record, reserved through the fast path and filled
 * @len: the record's size
 *
 * The cold path of a filtered event's inline writer.
 *
 * Return: non-zero if the record passes (commit it), 0 if not (discard it).
 */
UFT_EXPORT int uft__fast_filter_pass(const void *filter, const void *rec, uint32_t len);

#ifdef __cplusplus
}
#endif

/* ---- registration: every object that includes uft registers its section ---- */

/**
 * UFT_SECTION - the ELF section holding pointers to an object's events
 *
 * Every object that includes this header registers the section's entries
 * from a constructor and unregisters them from a destructor.
 */
#define UFT_SECTION "uft_events"

#ifndef UFT_DISABLE
extern struct uft_event *const __start_uft_events[] __attribute__((weak, visibility("hidden")));
extern struct uft_event *const __stop_uft_events[] __attribute__((weak, visibility("hidden")));

UFT_NOTRACE __attribute__((constructor, used)) static void uft__register_this_object(void)
{
	if ((const void *)__start_uft_events != (const void *)__stop_uft_events)
		uft__register_section(__start_uft_events, __stop_uft_events);
}

UFT_NOTRACE __attribute__((destructor, used)) static void uft__unregister_this_object(void)
{
	if ((const void *)__start_uft_events != (const void *)__stop_uft_events)
		uft__unregister_section(__start_uft_events, __stop_uft_events);
}
#endif

/* ---- the printf-style one-liner ---- */

#define UFT__STR(x) #x
#define UFT__XSTR(x) UFT__STR(x)

/* Argument mapping for up to 16 arguments. */
#define UFT__NARG(...)                                                                             \
	UFT__NARG_(_, ##__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define UFT__NARG_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N,   \
		   ...)                                                                            \
	N
#define UFT__CAT(a, b) UFT__CAT_(a, b)
#define UFT__CAT_(a, b) a##b
#define UFT__MAP(f, ...) UFT__CAT(UFT__MAP, UFT__NARG(__VA_ARGS__))(f, ##__VA_ARGS__)
#define UFT__MAP0(f, ...)
#define UFT__MAP1(f, a) f(a)
#define UFT__MAP2(f, a, ...) f(a) UFT__MAP1(f, __VA_ARGS__)
#define UFT__MAP3(f, a, ...) f(a) UFT__MAP2(f, __VA_ARGS__)
#define UFT__MAP4(f, a, ...) f(a) UFT__MAP3(f, __VA_ARGS__)
#define UFT__MAP5(f, a, ...) f(a) UFT__MAP4(f, __VA_ARGS__)
#define UFT__MAP6(f, a, ...) f(a) UFT__MAP5(f, __VA_ARGS__)
#define UFT__MAP7(f, a, ...) f(a) UFT__MAP6(f, __VA_ARGS__)
#define UFT__MAP8(f, a, ...) f(a) UFT__MAP7(f, __VA_ARGS__)
#define UFT__MAP9(f, a, ...) f(a) UFT__MAP8(f, __VA_ARGS__)
#define UFT__MAP10(f, a, ...) f(a) UFT__MAP9(f, __VA_ARGS__)
#define UFT__MAP11(f, a, ...) f(a) UFT__MAP10(f, __VA_ARGS__)
#define UFT__MAP12(f, a, ...) f(a) UFT__MAP11(f, __VA_ARGS__)
#define UFT__MAP13(f, a, ...) f(a) UFT__MAP12(f, __VA_ARGS__)
#define UFT__MAP14(f, a, ...) f(a) UFT__MAP13(f, __VA_ARGS__)
#define UFT__MAP15(f, a, ...) f(a) UFT__MAP14(f, __VA_ARGS__)
#define UFT__MAP16(f, a, ...) f(a) UFT__MAP15(f, __VA_ARGS__)
#define UFT__ARG(x) (uint64_t)(uintptr_t)(x),
/* The same with each argument's position, counted down from the number of
 * arguments to 1 (unique names for the inline writer's locals and fields). */
#define UFT__MAPI(f, ...) UFT__CAT(UFT__MAPI, UFT__NARG(__VA_ARGS__))(f, ##__VA_ARGS__)
#define UFT__MAPI0(f, ...)
#define UFT__MAPI1(f, a) f(1, a)
#define UFT__MAPI2(f, a, ...) f(2, a) UFT__MAPI1(f, __VA_ARGS__)
#define UFT__MAPI3(f, a, ...) f(3, a) UFT__MAPI2(f, __VA_ARGS__)
#define UFT__MAPI4(f, a, ...) f(4, a) UFT__MAPI3(f, __VA_ARGS__)
#define UFT__MAPI5(f, a, ...) f(5, a) UFT__MAPI4(f, __VA_ARGS__)
#define UFT__MAPI6(f, a, ...) f(6, a) UFT__MAPI5(f, __VA_ARGS__)
#define UFT__MAPI7(f, a, ...) f(7, a) UFT__MAPI6(f, __VA_ARGS__)
#define UFT__MAPI8(f, a, ...) f(8, a) UFT__MAPI7(f, __VA_ARGS__)
#define UFT__MAPI9(f, a, ...) f(9, a) UFT__MAPI8(f, __VA_ARGS__)
#define UFT__MAPI10(f, a, ...) f(10, a) UFT__MAPI9(f, __VA_ARGS__)
#define UFT__MAPI11(f, a, ...) f(11, a) UFT__MAPI10(f, __VA_ARGS__)
#define UFT__MAPI12(f, a, ...) f(12, a) UFT__MAPI11(f, __VA_ARGS__)
#define UFT__MAPI13(f, a, ...) f(13, a) UFT__MAPI12(f, __VA_ARGS__)
#define UFT__MAPI14(f, a, ...) f(14, a) UFT__MAPI13(f, __VA_ARGS__)
#define UFT__MAPI15(f, a, ...) f(15, a) UFT__MAPI14(f, __VA_ARGS__)
#define UFT__MAPI16(f, a, ...) f(16, a) UFT__MAPI15(f, __VA_ARGS__)

#ifndef __cplusplus
/* An argument as the format's conversion receives it: promoted (the
 * conditional applies the integer promotions and decays arrays), never
 * evaluated. */
#define UFT__PROMOTED(x) (0 ? (x) : (x))
/* UFT_ARG_* of an argument, a constant expression. */
#define UFT__KIND(x)                                                                               \
	_Generic(UFT__PROMOTED(x),                                                                 \
	    int: UFT_ARG_U32,                                                                      \
	    unsigned int: UFT_ARG_U32,                                                             \
	    char *: UFT_ARG_STR,                                                                   \
	    const char *: UFT_ARG_STR,                                                             \
	    signed char *: UFT_ARG_STR,                                                            \
	    const signed char *: UFT_ARG_STR,                                                      \
	    unsigned char *: UFT_ARG_STR,                                                          \
	    const unsigned char *: UFT_ARG_STR,                                                    \
	    float: UFT_ARG_OTHER,                                                                  \
	    double: UFT_ARG_OTHER,                                                                 \
	    long double: UFT_ARG_OTHER,                                                            \
	    default: UFT_ARG_U64)
#define UFT__KIND_ENTRY(x) UFT__KIND(x),
/* Whether the inline writer can store it: an integer or a string. */
#define UFT__INLINABLE(x) UFT__KIND(x) != UFT_ARG_OTHER &&
#define UFT__IS_STR(x) (UFT__KIND(x) == UFT_ARG_STR) +
/* Its field in the inline writer's record, laid out as the format's
 * parser lays it out (natural alignment, as a struct; a string's field is
 * its 4-byte __data_loc word). */
/* clang-format off */
#define UFT__FIELD(i, x)                                                                           \
	__typeof__(_Generic(UFT__PROMOTED(x),                                                      \
	    int: (uint32_t)0,                                                                      \
	    unsigned int: (uint32_t)0,                                                             \
	    char *: (uint32_t)0,                                                                   \
	    const char *: (uint32_t)0,                                                             \
	    signed char *: (uint32_t)0,                                                            \
	    const signed char *: (uint32_t)0,                                                      \
	    unsigned char *: (uint32_t)0,                                                          \
	    const unsigned char *: (uint32_t)0,                                                    \
	    default: (uint64_t)0)) f##i;
/* clang-format on */
/* Evaluates it once, as the out-of-line writer takes it. */
#define UFT__VAL(i, x) const uint64_t uft__v##i = (uint64_t)(uintptr_t)(x);
#define UFT__VAL_REF(i, x) uft__v##i,
/* A string's length, measured once, truncated as the out-of-line writer
 * truncates: all strings share what the record limit leaves. */
#define UFT__LEN(i, x)                                                                             \
	uint32_t uft__n##i = 0;                                                                    \
	if (UFT__KIND(x) == UFT_ARG_STR) {                                                         \
		/* The bound hidden, as for __string(): gcc would warn that it                     \
		 * exceeds a literal argument. */                                                  \
		uint32_t uft__b = uft__room;                                                       \
		__asm__("" : "+r"(uft__b));                                                        \
		uft__n##i = (uint32_t)strnlen(                                                     \
		    uft__v##i ? (const char *)(uintptr_t)uft__v##i : "(null)", uft__b);            \
		uft__room -= uft__n##i;                                                            \
		uft__len += uft__n##i + 1;                                                         \
	}
/* Stores a field; a string goes after the fixed part, with its NUL. */
#define UFT__STORE(i, x)                                                                           \
	if (UFT__KIND(x) == UFT_ARG_STR) {                                                         \
		uint32_t uft__k = uft__n##i;                                                       \
		uft__e->f##i = (__typeof__(uft__e->f##i))(uft__pos | ((uft__k + 1) << 16));        \
		/* Hidden from the compiler, as in __assign_str(). */                              \
		__asm__("" : "+r"(uft__k));                                                        \
		memcpy((char *)uft__e + uft__pos,                                                  \
		       uft__v##i ? (const char *)(uintptr_t)uft__v##i : "(null)", uft__k);         \
		((char *)uft__e)[uft__pos + uft__k] = '\0';                                        \
		uft__pos += uft__k + 1;                                                            \
	} else {                                                                                   \
		uft__e->f##i = (__typeof__(uft__e->f##i))uft__v##i;                                \
	}
#endif

static inline __attribute__((format(printf, 1, 2), unused)) void
uft__check_format(const char *fmt __attribute__((unused)), ...)
{
}

/* With UFT_DISABLE the tracepoint macros below compile to nothing. */
#ifdef UFT_DISABLE
#define UFT_TRACEPOINT(id, system, name, fmt)                                                      \
	static const int uft__tp_##id __attribute__((unused)) = 0
#define uft_tracepoint_enabled(id) 0
#define uft_tracepoint(id, ...) ((void)0)
#define UFT_TRACE(system, name, ...) ((void)0)
#else

#define UFT__DESC_INIT(sys_, ev_, fmt_, gate_, state_)                                             \
	{                                                                                          \
		.size = sizeof(struct uft_event), .magic = UFT_EVENT_MAGIC, .state = &(state_),    \
		.gate = &(gate_), .system = #sys_, .name = #ev_, .style = UFT_STYLE_PRINTF,        \
		.printf_fmt = fmt_, .file = __FILE__, .line = __LINE__,                            \
	}

/**
 * UFT_TRACEPOINT() - declare a named printf-style tracepoint at file scope
 * @id: the name uft_tracepoint() and uft_tracepoint_enabled() take
 * @system: the event's system (an identifier)
 * @name: the event's name (an identifier)
 * @fmt: the printf format; the event's fields come from it
 *
 * A caller can then test whether it is enabled before computing costly
 * arguments::
 *
 *	UFT_TRACEPOINT(req, demo, request, "path=%s status=%d");
 *	if (uft_tracepoint_enabled(req))
 *		uft_tracepoint(req, build_path(), st);
 */
#define UFT_TRACEPOINT(id, system, name, fmt)                                                      \
	static volatile uint16_t uft__gate_##id;                                                   \
	static struct uft_event_state uft__st_##id;                                                \
	static const char uft__fmt_##id[] = fmt;                                                   \
	static struct uft_event uft__tp_##id =                                                     \
	    UFT__DESC_INIT(system, name, fmt, uft__gate_##id, uft__st_##id);                       \
	static struct uft_event *const uft__tpp_##id __attribute__((section(UFT_SECTION), used)) = \
	    &uft__tp_##id

/**
 * uft_tracepoint_enabled() - whether a UFT_TRACEPOINT() is enabled
 * @id: the tracepoint's id
 *
 * One predicted branch.
 *
 * Return: non-zero while some buffer records the event.
 */
#define uft_tracepoint_enabled(id) __builtin_expect(uft__gate_##id != 0, 0)

/* The call site of a one-liner: the compile-time format check, the gate, and
 * the arguments collected only while enabled. */
#define UFT__EMIT(tp, gate, fmt, ...)                                                              \
	do {                                                                                       \
		if (0)                                                                             \
			uft__check_format(fmt, ##__VA_ARGS__);                                     \
		if (__builtin_expect((gate) != 0, 0)) {                                            \
			const uint64_t uft__a[] = {UFT__MAP(UFT__ARG, ##__VA_ARGS__) 0};           \
			uft__trace_printf(&(tp), uft__a,                                           \
					  (uint32_t)(sizeof(uft__a) / sizeof(uft__a[0]) - 1));     \
		}                                                                                  \
	} while (0)

#ifdef __cplusplus
#define UFT__SITE_TYPES(...)
#define UFT__SITE_INIT(sys_, ev_, fmt_, gate_, state_, ...)                                        \
	UFT__DESC_INIT(sys_, ev_, fmt_, gate_, state_)
#define UFT__EMIT_SITE(tp, st, gate, fmt, ...) UFT__EMIT(tp, gate, fmt, ##__VA_ARGS__)
#else
/* The record the inline writer fills, and the argument kinds it assumes. */
#define UFT__SITE_TYPES(...)                                                                       \
	struct uft__rec {                                                                          \
		struct uft_common_entry c;                                                         \
		UFT__MAPI(UFT__FIELD, ##__VA_ARGS__)                                               \
	};                                                                                         \
	static const uint8_t uft__kinds[] = {UFT__MAP(UFT__KIND_ENTRY, ##__VA_ARGS__) UFT_ARG_END};
/* A one-liner's descriptor with what its inline writer assumes: the
 * arguments' kinds and the record's size. */
#define UFT__SITE_INIT(sys_, ev_, fmt_, gate_, state_, ...)                                        \
	{                                                                                          \
		.size = sizeof(struct uft_event), .magic = UFT_EVENT_MAGIC, .state = &(state_),    \
		.gate = &(gate_), .system = #sys_, .name = #ev_, .style = UFT_STYLE_PRINTF,        \
		.printf_fmt = fmt_, .file = __FILE__, .line = __LINE__,                            \
		.nr_args = UFT__NARG(__VA_ARGS__), .arg_kinds = uft__kinds,                        \
		.rec_size = sizeof(struct uft__rec),                                               \
	}

/* The call site of a UFT_TRACE(): when every argument is an integer or a
 * string and the registry found the format's fields to be those
 * (st.fast_type non-zero), the record is written inline as a typed event's
 * is, strings measured only then; anything else goes through
 * uft__trace_printf(). */
#define UFT__EMIT_SITE(tp, st, gate, fmt, ...)                                                     \
	do {                                                                                       \
		if (0)                                                                             \
			uft__check_format(fmt, ##__VA_ARGS__);                                     \
		if (__builtin_expect((gate) != 0, 0)) {                                            \
			UFT__MAPI(UFT__VAL, ##__VA_ARGS__)                                         \
			struct uft_fast_rsv uft__r;                                                \
			struct uft__rec *uft__e = 0;                                               \
			if ((UFT__MAP(UFT__INLINABLE, ##__VA_ARGS__) 1) &&                         \
			    (UFT__MAP(UFT__IS_STR, ##__VA_ARGS__) 0 == 0 ||                        \
			     __atomic_load_n(&(st).fast_type, __ATOMIC_RELAXED) != 0)) {           \
				uint32_t uft__room = UFT_TRACE_MAX_RECORD -                        \
						     (uint32_t)sizeof(struct uft__rec) -           \
						     (UFT__MAP(UFT__IS_STR, ##__VA_ARGS__) 0);     \
				uint32_t uft__len = (uint32_t)sizeof(struct uft__rec);             \
				uint32_t uft__pos = (uint32_t)sizeof(struct uft__rec);             \
				(void)uft__room;                                                   \
				(void)uft__pos;                                                    \
				UFT__MAPI(UFT__LEN, ##__VA_ARGS__)                                 \
				uft__e =                                                           \
				    (struct uft__rec *)uft_fast_reserve(&(st), uft__len, &uft__r); \
				if (__builtin_expect(uft__e != 0, 1)) {                            \
					memset((char *)uft__e + sizeof(struct uft_common_entry),   \
					       0,                                                  \
					       sizeof(struct uft__rec) -                           \
						   sizeof(struct uft_common_entry));               \
					UFT__MAPI(UFT__STORE, ##__VA_ARGS__)                       \
					uft_fast_commit(&uft__r);                                  \
				} else {                                                           \
					uft_fast_hint(&uft__r);                                    \
				}                                                                  \
			}                                                                          \
			if (!uft__e) {                                                             \
				const uint64_t uft__a[] = {                                        \
				    UFT__MAPI(UFT__VAL_REF, ##__VA_ARGS__) 0};                     \
				uft__trace_printf(                                                 \
				    &(tp), uft__a,                                                 \
				    (uint32_t)(sizeof(uft__a) / sizeof(uft__a[0]) - 1));           \
			}                                                                          \
		}                                                                                  \
	} while (0)
#endif

/**
 * uft_tracepoint() - record a UFT_TRACEPOINT() with arguments
 * @id: the tracepoint's id
 * @...: the arguments of its format (checked against it at compile time),
 *       evaluated only while it is enabled
 */
#define uft_tracepoint(id, ...)                                                                    \
	UFT__EMIT(uft__tp_##id, uft__gate_##id, uft__fmt_##id, ##__VA_ARGS__)

/**
 * UFT_TRACE() - a printf-style tracepoint in one line
 * @system: the event's system (an identifier)
 * @name: the event's name (an identifier)
 * @fmt: the printf format; the event's fields come from it
 * @...: its arguments (checked against @fmt at compile time), evaluated only
 *       while the event is enabled
 */
#define UFT_TRACE(system, name, fmt, ...)                                                          \
	do {                                                                                       \
		static volatile uint16_t uft__gate;                                                \
		static struct uft_event_state uft__st;                                             \
		UFT__SITE_TYPES(__VA_ARGS__)                                                       \
		static struct uft_event uft__tp =                                                  \
		    UFT__SITE_INIT(system, name, fmt, uft__gate, uft__st, ##__VA_ARGS__);          \
		static struct uft_event *const uft__tpp                                            \
		    __attribute__((section(UFT_SECTION), used)) = &uft__tp;                        \
		UFT__EMIT_SITE(uft__tp, uft__st, uft__gate, fmt, ##__VA_ARGS__);                   \
	} while (0)
#endif

#endif
