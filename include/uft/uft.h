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

#ifdef __cplusplus
extern "C" {
#endif

/* ---- control (normally driven by `uft record` through the environment) ---- */

/* Enables (on != 0) or disables events matching SPEC, as trace-cmd's -e takes it:
 * "SYSTEM:EVENT", "SYSTEM:*", "EVENT", "all"; globs allowed in either part.
 * Returns the number of events changed, or -errno. */
UFT_EXPORT int uft_set_event(const char *spec, int on);
/* Sets the filter of the events matching SPEC (the kernel's filter grammar;
 * "0" clears it), for events registered later too. Returns the number of
 * events given the filter, or -EINVAL with the kernel's `filter` file text
 * of the error (expression, caret, parse_error line) in err. */
UFT_EXPORT int uft_set_filter(const char *spec, const char *expr, char *err, size_t errlen);
/* Makes everything committed so far visible to consumers and publishes counts. */
UFT_EXPORT void uft_flush(void);
/* Looks up a registered event. */
UFT_EXPORT struct uft_event *uft_find_event(const char *system, const char *name);

/* ---- internals used by the generated code ---- */

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

/* Reserves a record of `len` bytes (common header included) for `ev` in the
 * first buffer the event goes to and fills the common header. Returns the
 * record or NULL (not enabled, tracing off, full, nested too deep). Every
 * non-NULL reserve must be followed by uft_commit() or uft_discard(), then
 * uft_reserve_next() for the next buffer, until it returns NULL:
 *
 *	for (rec = uft_reserve(&r, ev, len); rec; rec = uft_reserve_next(&r)) {
 *		fill(rec);
 *		uft_commit(&r);
 *	}
 */
UFT_EXPORT void *uft_reserve(struct uft_rsv *rsv, const struct uft_event *ev, uint32_t len);
UFT_EXPORT void *uft_reserve_next(struct uft_rsv *rsv);
UFT_EXPORT void uft_commit(struct uft_rsv *rsv);
/* Abandons a reservation: it takes no space. */
UFT_EXPORT void uft_discard(struct uft_rsv *rsv);
UFT_EXPORT void uft__register_section(struct uft_event *const *start,
				      struct uft_event *const *stop);
UFT_EXPORT void uft__unregister_section(struct uft_event *const *start,
					struct uft_event *const *stop);
UFT_EXPORT void uft__trace_printf(struct uft_event *ev, const uint64_t *args, uint32_t nr_args);
/* Whether a record reserved through the fast path passes the event's
 * fast_filter (the cold path of a filtered event). */
UFT_EXPORT int uft__fast_filter_pass(const void *filter, const void *rec, uint32_t len);

#ifdef __cplusplus
}
#endif

/* ---- registration: every object that includes uft registers its section ---- */

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

static inline __attribute__((format(printf, 1, 2), unused)) void
uft__check_format(const char *fmt __attribute__((unused)), ...)
{
}

#ifdef UFT_DISABLE
#define UFT_TRACEPOINT(id, system, name, fmt)                                                      \
	static const int uft__tp_##id __attribute__((unused)) = 0
#define uft_tracepoint_enabled(id) 0
#define uft_tracepoint(id, ...) ((void)0)
#define UFT_TRACE(system, name, ...) ((void)0)
#else

#define UFT__DESC_INIT(sys_, ev_, fmt_, gate_)                                                     \
	{                                                                                          \
		.magic = UFT_EVENT_MAGIC, .style = UFT_STYLE_PRINTF, .gate = &(gate_),             \
		.system = #sys_, .name = #ev_, .printf_fmt = fmt_, .file = __FILE__,               \
		.line = __LINE__,                                                                  \
	}

/* Declares a named one-liner at file scope, so a caller can test whether it is
 * enabled before computing costly arguments:
 *   UFT_TRACEPOINT(req, demo, request, "path=%s status=%d");
 *   if (uft_tracepoint_enabled(req)) uft_tracepoint(req, build_path(), st); */
#define UFT_TRACEPOINT(id, system, name, fmt)                                                      \
	static volatile uint16_t uft__gate_##id;                                                   \
	static const char uft__fmt_##id[] = fmt;                                                   \
	static struct uft_event uft__tp_##id = UFT__DESC_INIT(system, name, fmt, uft__gate_##id);  \
	static struct uft_event *const uft__tpp_##id __attribute__((section(UFT_SECTION), used)) = \
	    &uft__tp_##id

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

#define uft_tracepoint(id, ...)                                                                    \
	UFT__EMIT(uft__tp_##id, uft__gate_##id, uft__fmt_##id, ##__VA_ARGS__)

/* A tracepoint in one line; its arguments are evaluated only while enabled. */
#define UFT_TRACE(system, name, fmt, ...)                                                          \
	do {                                                                                       \
		static volatile uint16_t uft__gate;                                                \
		static struct uft_event uft__tp = UFT__DESC_INIT(system, name, fmt, uft__gate);    \
		static struct uft_event *const uft__tpp                                            \
		    __attribute__((section(UFT_SECTION), used)) = &uft__tp;                        \
		UFT__EMIT(uft__tp, uft__gate, fmt, ##__VA_ARGS__);                                 \
	} while (0)
#endif

#endif
