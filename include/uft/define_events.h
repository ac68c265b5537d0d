/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Expands the UFT_EVENT definitions of UFT_INCLUDE_FILE, the event header
 * re-read once per stage as the kernel's define_trace.h does.
 *
 * In every file that includes the header (unless UFT_OUTLINE): the record
 * struct, the dynamic-field offsets and sizes, and trace_<event>(), which
 * writes the common case inline at the call site (every definition static
 * inline, so any number of files may include the header). In the one file
 * that defines UFT_CREATE_EVENTS, also the field tables, format strings,
 * descriptors, gates and the out-of-line writers. */
#ifdef UFT__EVENTS_PENDING
#undef UFT__EVENTS_PENDING

#if !defined(UFT__CREATING) && !defined(UFT_DISABLE) &&                                            \
    (defined(UFT_CREATE_EVENTS) || defined(UFT__INLINE))
#define UFT__CREATING

#ifndef UFT_INCLUDE_FILE
#error                                                                                             \
    "define UFT_INCLUDE_FILE (the event header, as a string) before including uft/define_events.h"
#endif

#ifdef UFT_CREATE_EVENTS
#if !defined(UFT_NO_SDT) && __has_include(<sys/sdt.h>)
#define _SDT_HAS_SEMAPHORES 1
#ifndef SDT_USE_VARIADIC
#define SDT_USE_VARIADIC 1
#endif
#include <sys/sdt.h>
#define UFT__SDT_PROBE(sys, name, ...) STAP_PROBEV(sys, name, ##__VA_ARGS__)
#define UFT__GATE_SECTION __attribute__((section(".probes")))
#else
#define UFT__SDT_PROBE(sys, name, ...) ((void)0)
#define UFT__GATE_SECTION
#endif
#endif

#include <uft/fastpath.h>

#define UFT_HEADER_MULTI_READ
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* A custom event is laid out as an event (stages 1 to 5); stage 6 gives
 * it its own descriptor and hook, stage 7 nothing: it has no call site. */
#undef UFT_CUSTOM_EVENT
#define UFT_CUSTOM_EVENT(evn, orig, proto, args, tstruct, assign, print)                           \
	UFT_EVENT(evn, UFT_PROTO(proto), UFT_ARGS(args), UFT_STRUCT(tstruct), UFT_ASSIGN(assign),  \
		  print)

/* ---- stage 1: the record layout ---- */
#undef UFT_EVENT
#define __field(type, item) type item;
#define __array(type, item, len) type item[len];
#define __dynamic_array(type, item, len) uint32_t __data_loc_##item;
#define __string(item, src) uint32_t __data_loc_##item;
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	struct uft_raw_##evn {                                                                     \
		struct uft_common_entry uft__common;                                               \
		tstruct char __data[];                                                             \
	};
#include UFT_INCLUDE_FILE

/* ---- stage 2: where each dynamic field lands ---- */
#undef UFT_EVENT
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#define __field(type, item)
#define __array(type, item, len)
#define __dynamic_array(type, item, len)                                                           \
	uint32_t item;                                                                             \
	const void *item##_src;
#define __string(item, src)                                                                        \
	uint32_t item;                                                                             \
	const char *item##_src;
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	struct uft_data_offsets_##evn {                                                            \
		tstruct int uft__unused;                                                           \
	};
#include UFT_INCLUDE_FILE

/* ---- stage 3: sizes of the dynamic fields from the arguments ---- */
#undef UFT_EVENT
#undef __dynamic_array
#undef __string
#define __dynamic_array(type, item, len)                                                           \
	__item_length = (uint32_t)(len) * (uint32_t)sizeof(type);                                  \
	__data_offsets->item = (__data_base + __data_size) | (__item_length << 16);                \
	__data_size += __item_length;
#define __string(item, src)                                                                        \
	__data_offsets->item##_src = (src) ? (const char *)(src) : "(null)";                       \
	/* The bound hidden: at a call site that passes a literal, gcc would warn that             \
	 * it exceeds the literal. */                                                              \
	__item_length = UFT_MAX_STRING - 1;                                                        \
	__asm__("" : "+r"(__item_length));                                                         \
	__item_length = (uint32_t)strnlen(__data_offsets->item##_src, __item_length) + 1;          \
	__data_offsets->item = (__data_base + __data_size) | (__item_length << 16);                \
	__data_size += __item_length;
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	static inline __attribute__((always_inline, unused))                                       \
	uint32_t uft__get_offsets_##evn(struct uft_data_offsets_##evn *__data_offsets, proto)      \
	{                                                                                          \
		uint32_t __data_size = 0, __item_length = 0;                                       \
		const uint32_t __data_base = (uint32_t)offsetof(struct uft_raw_##evn, __data);     \
		(void)__data_base;                                                                 \
		(void)__item_length;                                                               \
		(void)__data_offsets;                                                              \
		tstruct return __data_size;                                                        \
	}
#include UFT_INCLUDE_FILE

#ifdef UFT_CREATE_EVENTS
#define UFT__XSTR2(x) #x
#define UFT__XSTR1(x) UFT__XSTR2(x)
#define uft__is_signed(type)                                                                       \
	_Generic((type)0, char                                                                     \
		 : ((char)-1 < 0), signed char : 1, short : 1, int : 1, long : 1, long long : 1,   \
		   default : 0)

/* ---- stage 4: the field table of the format file ---- */
#undef UFT_EVENT
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#define __field(type, item)                                                                        \
	{#type,                                                                                    \
	 #item,                                                                                    \
	 offsetof(uft__rec_t, item),                                                               \
	 sizeof(type),                                                                             \
	 uft__is_signed(type),                                                                     \
	 UFT_FIELD_SCALAR,                                                                         \
	 sizeof(type)},
#define __array(type, item, len)                                                                   \
	{#type,                                                                                    \
	 #item "[" UFT__XSTR1(len) "]",                                                            \
	 offsetof(uft__rec_t, item),                                                               \
	 (uint32_t)(sizeof(type) * (len)),                                                         \
	 uft__is_signed(type),                                                                     \
	 UFT_FIELD_ARRAY,                                                                          \
	 sizeof(type)},
#define __dynamic_array(type, item, len)                                                           \
	{"__data_loc " #type "[]",                                                                 \
	 #item,                                                                                    \
	 offsetof(uft__rec_t, __data_loc_##item),                                                  \
	 4,                                                                                        \
	 uft__is_signed(type),                                                                     \
	 UFT_FIELD_DYN,                                                                            \
	 sizeof(type)},
#define __string(item, src) __dynamic_array(char, item, -1)
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	static UFT_NOTRACE const struct uft_field *uft__fields_##evn(uint32_t *nr)                 \
	{                                                                                          \
		typedef struct uft_raw_##evn uft__rec_t;                                           \
		static const struct uft_field fields[] = {tstruct{0, 0, 0, 0, 0, 0, 0}};           \
		*nr = (uint32_t)(sizeof(fields) / sizeof(fields[0]) - 1);                          \
		return fields;                                                                     \
	}
#include UFT_INCLUDE_FILE

/* ---- stage 5: the print format as the format file shows it ---- */
#undef UFT_EVENT
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#define __field(type, item)
#define __array(type, item, len)
#define __dynamic_array(type, item, len)
#define __string(item, src)
#define __entry REC
#define UFT_PRINT(fmt, ...) UFT__PRINT_TEXT(fmt, __VA_ARGS__)
#define UFT__PRINT_TEXT(fmt, ...) #fmt __VA_OPT__(", ") #__VA_ARGS__
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	static const char uft__print_fmt_##evn[] = print;
#include UFT_INCLUDE_FILE
#undef __entry
#undef UFT_PRINT
#undef UFT__PRINT_TEXT
#undef uft__is_signed
#endif /* UFT_CREATE_EVENTS */

/* ---- what the assign block sees (stages 6 and 7) ---- */
#undef UFT_EVENT
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#define __field(type, item)
#define __array(type, item, len)
#define __dynamic_array(type, item, len) __entry->__data_loc_##item = __data_offsets.item;
#define __string(item, src) __entry->__data_loc_##item = __data_offsets.item;
/**
 * __get_dynamic_array() - the data of a __dynamic_array() or __string() field
 * @item: the field's name
 *
 * Return: a pointer into the record, for UFT_ASSIGN() to fill.
 */
#define __get_dynamic_array(item)                                                                  \
	((void *)((char *)__entry + (__entry->__data_loc_##item & 0xffff)))
/**
 * __get_dynamic_array_len() - the length in bytes of a dynamic field's data
 * @item: the field's name
 */
#define __get_dynamic_array_len(item) (__entry->__data_loc_##item >> 16)
/**
 * __get_str() - the string of a __string() field, in the record
 * @item: the field's name
 */
#define __get_str(item) ((char *)__get_dynamic_array(item))
/**
 * __assign_str() - copy a __string() field's source into the record
 * @item: the field's name (its source is the @src given to __string())
 * @...: ignored: the kernel's older form named the source again here
 */
#define __assign_str(item, ...)                                                                    \
	do {                                                                                       \
		uint32_t uft__n = __data_offsets.item >> 16;                                       \
		/* Hide the bound from the compiler: inlined as rep movs it costs more than        \
		 * a call to memcpy. */                                                            \
		__asm__("" : "+r"(uft__n));                                                        \
		memcpy(__get_str(item), __data_offsets.item##_src, uft__n - 1);                    \
		__get_str(item)[uft__n - 1] = '\0';                                                \
	} while (0)
/* The record through the fast path, or NULL: the reservation, then the struct's
 * holes zeroed so that no stale buffer bytes leak. */
#define UFT__FAST_BEGIN(evn)                                                                       \
	struct uft_fast_rsv __frsv;                                                                \
	struct uft_raw_##evn *__entry = (struct uft_raw_##evn *)uft_fast_reserve(                  \
	    &uft_event_state_##evn,                                                                \
	    (uint32_t)offsetof(struct uft_raw_##evn, __data) + __data_size, &__frsv);              \
	if (__builtin_expect(__entry != 0, 1))                                                     \
		memset((char *)__entry + sizeof(struct uft_common_entry), 0,                       \
		       offsetof(struct uft_raw_##evn, __data) - sizeof(struct uft_common_entry));

#ifdef UFT_CREATE_EVENTS
/* ---- stage 6: descriptor, gate and the out-of-line writers ---- */
/* The descriptor of an event whose gate is `gate` (a custom event's is its
 * tracepoint's). */
#define UFT__DESCRIPTOR(evn, gatevar)                                                              \
	struct uft_event_state uft_event_state_##evn;                                              \
	struct uft_event uft_event_##evn = {                                                       \
	    .size = sizeof(struct uft_event),                                                      \
	    .magic = UFT_EVENT_MAGIC,                                                              \
	    .state = &uft_event_state_##evn,                                                       \
	    .gate = &(gatevar),                                                                    \
	    .system = UFT__XSTR1(UFT_SYSTEM),                                                      \
	    .name = #evn,                                                                          \
	    .style = UFT_STYLE_STRUCT,                                                             \
	    .fields_fn = uft__fields_##evn,                                                        \
	    .fixed_size = offsetof(struct uft_raw_##evn, __data),                                  \
	    .print_fmt = uft__print_fmt_##evn,                                                     \
	    .file = __FILE__,                                                                      \
	    .line = __LINE__,                                                                      \
	};                                                                                         \
	static struct uft_event *const uft__ptr_##evn                                              \
	    __attribute__((section(UFT_SECTION), used)) = &uft_event_##evn;
/* The writers every event has: uft__reserve_trace_<event>, everything the
 * fast path does not do (instances, nesting, a page switch, a new thread);
 * uft__filtered_trace_<event>, filtered and global buffer only: the fast
 * reservation, then the filter, optimised for speed (not cold) since it is
 * every filtered event's path; else the hint stays for the former; and
 * uft__write_<event>, the whole record write (fast path first). */
#define UFT__WRITERS(evn, proto, args, tstruct, assign)                                            \
	static UFT_NOTRACE __attribute__((noinline, cold)) void uft__reserve_trace_##evn(proto)    \
	{                                                                                          \
		uint64_t uft__tsc = uft_fast_take_hint(); /* passed on to uft_reserve() */         \
		if (!uft_event_state_##evn.enabled)                                                \
			return;                                                                    \
		struct uft_data_offsets_##evn __data_offsets;                                      \
		uint32_t __data_size = uft__get_offsets_##evn(&__data_offsets, args);              \
		struct uft_rsv __rsv;                                                              \
		uft_fast_rehint(uft__tsc);                                                         \
		/* Once per buffer the event goes to. */                                           \
		for (struct uft_raw_##evn *__entry = (struct uft_raw_##evn *)uft_reserve(          \
			 &__rsv, &uft_event_##evn,                                                 \
			 (uint32_t)offsetof(struct uft_raw_##evn, __data) + __data_size);          \
		     __entry; __entry = (struct uft_raw_##evn *)uft_reserve_next(&__rsv)) {        \
			/* Padding between fields must not leak stale buffer bytes. */             \
			memset((char *)__entry + sizeof(struct uft_common_entry), 0,               \
			       offsetof(struct uft_raw_##evn, __data) -                            \
				   sizeof(struct uft_common_entry));                               \
			tstruct assign uft_commit(&__rsv);                                         \
		}                                                                                  \
	}                                                                                          \
	static UFT_NOTRACE inline                                                                  \
	    __attribute__((always_inline)) int uft__filtered_trace_##evn(proto)                    \
	{                                                                                          \
		const void *uft__flt =                                                             \
		    __atomic_load_n(&uft_event_state_##evn.fast_filter, __ATOMIC_ACQUIRE);         \
		if (!uft__flt)                                                                     \
			return 0;                                                                  \
		uint64_t uft__tsc = uft_fast_take_hint();                                          \
		struct uft_data_offsets_##evn __data_offsets;                                      \
		uint32_t __data_size = uft__get_offsets_##evn(&__data_offsets, args);              \
		uint32_t uft__len =                                                                \
		    (uint32_t)offsetof(struct uft_raw_##evn, __data) + __data_size;                \
		struct uft_fast_rsv __frsv;                                                        \
		struct uft_raw_##evn *__entry =                                                    \
		    (struct uft_raw_##evn *)(uft__tsc                                              \
						 ? uft_fast_reserve_at(uft_event_state_##evn.id,   \
								       uft__tsc, uft__len,         \
								       &__frsv)                    \
						 : uft_fast_reserve_type(uft_event_state_##evn.id, \
									 uft__len, &__frsv));      \
		if (!__entry) {                                                                    \
			uft_fast_hint(&__frsv);                                                    \
			return 0;                                                                  \
		}                                                                                  \
		memset((char *)__entry + sizeof(struct uft_common_entry), 0,                       \
		       offsetof(struct uft_raw_##evn, __data) - sizeof(struct uft_common_entry));  \
		tstruct assign if (uft__fast_filter_pass(uft__flt, __entry, uft__len))             \
		    uft_fast_commit(&__frsv);                                                      \
		else uft_fast_discard();                                                           \
		return 1;                                                                          \
	}                                                                                          \
	static UFT_NOTRACE inline __attribute__((always_inline)) void uft__write_##evn(proto)      \
	{                                                                                          \
		/* Off (the gate may be up for an SDT tracer or a custom event                     \
		 * alone) or not for the fast path: the slow path sorts it out. */                 \
		struct uft_data_offsets_##evn __data_offsets;                                      \
		uint32_t __data_size = uft__get_offsets_##evn(&__data_offsets, args);              \
		UFT__FAST_BEGIN(evn)                                                               \
		if (__builtin_expect(!__entry, 0)) {                                               \
			uft_fast_hint(&__frsv);                                                    \
			if (!uft__filtered_trace_##evn(args))                                      \
				uft__reserve_trace_##evn(args);                                    \
			return;                                                                    \
		}                                                                                  \
		tstruct assign uft_fast_commit(&__frsv);                                           \
	}
/* The custom events attached to the tracepoint, each with the tracepoint's
 * arguments; their gate is the tracepoint's, so they cost nothing while
 * the gate is down. */
#define UFT__RUN_CUSTOMS(evn, proto, args)                                                         \
	for (const struct uft_custom_hook *uft__h =                                                \
		 __atomic_load_n(&uft__customs_##evn, __ATOMIC_ACQUIRE);                           \
	     __builtin_expect(uft__h != 0, 0);                                                     \
	     uft__h = __atomic_load_n(&uft__h->next, __ATOMIC_ACQUIRE))                            \
	((void (*)(proto))uft__h->fn)(args)
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	volatile unsigned short UFT__GATE(UFT_SYSTEM, evn) UFT__GATE_SECTION;                      \
	/* Named without the system, for the custom events that share the gate. */                 \
	extern volatile unsigned short uft__gate_##evn                                             \
	    __attribute__((alias(UFT__XSTR1(UFT__GATE(UFT_SYSTEM, evn)))));                        \
	struct uft_custom_hook *uft__customs_##evn;                                                \
	UFT__DESCRIPTOR(evn, UFT__GATE(UFT_SYSTEM, evn))                                           \
	UFT__WRITERS(evn, UFT_PROTO(proto), UFT_ARGS(args), UFT_STRUCT(tstruct),                   \
		     UFT_ASSIGN(assign))                                                           \
	UFT_NOTRACE __attribute__((noinline)) void uft__slow_trace_##evn(proto)                    \
	{                                                                                          \
		UFT__SDT_PROBE(UFT_SYSTEM, evn, args);                                             \
		if (!uft__filtered_trace_##evn(args))                                              \
			uft__reserve_trace_##evn(args);                                            \
		UFT__RUN_CUSTOMS(evn, UFT_PROTO(proto), UFT_ARGS(args));                           \
	}                                                                                          \
	UFT_NOTRACE __attribute__((noinline)) void uft__do_trace_##evn(proto)                      \
	{                                                                                          \
		UFT__SDT_PROBE(UFT_SYSTEM, evn, args);                                             \
		uft__write_##evn(args);                                                            \
		UFT__RUN_CUSTOMS(evn, UFT_PROTO(proto), UFT_ARGS(args));                           \
	}
#undef UFT_CUSTOM_EVENT
/* A custom event: its own descriptor and writers, on its tracepoint's gate,
 * and a hook on the tracepoint's list that its constructor links in and its
 * destructor takes out. */
#define UFT_CUSTOM_EVENT(evn, orig, proto, args, tstruct, assign, print)                           \
	extern volatile unsigned short uft__gate_##orig;                                           \
	extern struct uft_custom_hook *uft__customs_##orig;                                        \
	UFT__DESCRIPTOR(evn, uft__gate_##orig)                                                     \
	UFT__WRITERS(evn, UFT_PROTO(proto), UFT_ARGS(args), UFT_STRUCT(tstruct),                   \
		     UFT_ASSIGN(assign))                                                           \
	static UFT_NOTRACE __attribute__((noinline)) void uft__custom_trace_##evn(proto)           \
	{                                                                                          \
		if (__builtin_expect(uft_event_state_##evn.enabled != 0, 0))                       \
			uft__write_##evn(args);                                                    \
	}                                                                                          \
	static struct uft_custom_hook uft__hook_##evn = {                                          \
	    0, (void (*)(void))uft__custom_trace_##evn, &uft_event_##evn};                         \
	static UFT_NOTRACE __attribute__((constructor)) void uft__hook_on_##evn(void)              \
	{                                                                                          \
		uft__custom_attach(&uft__customs_##orig, &uft__hook_##evn);                        \
	}                                                                                          \
	static UFT_NOTRACE __attribute__((destructor)) void uft__hook_off_##evn(void)              \
	{                                                                                          \
		uft__custom_detach(&uft__customs_##orig, &uft__hook_##evn);                        \
	}
#include UFT_INCLUDE_FILE
#undef UFT_EVENT
#undef UFT_CUSTOM_EVENT
#undef UFT__RUN_CUSTOMS
#undef UFT__WRITERS
#undef UFT__DESCRIPTOR
#endif /* UFT_CREATE_EVENTS */
#undef UFT_CUSTOM_EVENT
#define UFT_CUSTOM_EVENT(evn, orig, proto, args, tstruct, assign, print)

#ifdef UFT__INLINE
/* ---- stage 7: trace_<event>(), the common case inline ---- */
/* The gate at 1 is uft's own count alone; an SDT tracer attached raises it,
 * and its probe is in the out-of-line writer. */
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	extern struct uft_event_state uft_event_state_##evn;                                       \
	static inline __attribute__((always_inline, unused)) void trace_##evn(proto)               \
	{                                                                                          \
		unsigned short uft__gate = UFT__GATE(UFT_SYSTEM, evn);                             \
		if (__builtin_expect(uft__gate == 0, 1))                                           \
			return;                                                                    \
		if (__builtin_expect(uft__gate == 1, 1)) {                                         \
			struct uft_data_offsets_##evn __data_offsets;                              \
			uint32_t __data_size = uft__get_offsets_##evn(&__data_offsets, args);      \
			UFT__FAST_BEGIN(evn)                                                       \
			if (__builtin_expect(__entry != 0, 1)) {                                   \
				tstruct assign uft_fast_commit(&__frsv);                           \
				return;                                                            \
			}                                                                          \
			uft_fast_hint(&__frsv);                                                    \
		}                                                                                  \
		uft__slow_trace_##evn(args);                                                       \
	}
#include UFT_INCLUDE_FILE
#undef UFT_EVENT
#endif /* UFT__INLINE */

/* ---- back to declarations for whatever follows ---- */
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_str
#undef __assign_str
#undef UFT__FAST_BEGIN
#define UFT_EVENT(evn, proto, args, tstruct, assign, print)                                        \
	UFT__EVENT_DECLARE(evn, UFT_PROTO(proto), UFT_ARGS(args))

#pragma GCC diagnostic pop
#undef UFT_HEADER_MULTI_READ
#undef UFT__CREATING
#endif
#endif /* UFT__EVENTS_PENDING */
