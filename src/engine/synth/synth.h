/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Synthetic event definitions (Documentation/trace/histogram.rst): the synthetic_events and
 * dynamic_events syntax, parsed into the record layout the kernel gives such
 * an event, and the texts made from it (listing line, print fmt). */
#ifndef UFT_COMMON_SYNTH_H
#define UFT_COMMON_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#define UFT_SYNTH_SYSTEM "synthetic"
#define UFT_SYNTH_FIELDS_MAX 64 /* the 64th field is "Too many fields" */
#define UFT_SYNTH_STR_MAX 256	/* bytes of a static string's slots */

enum uft_synth_kind {
	UFT_SYNTH_NUM = 0,   /* a number in one 8-byte slot */
	UFT_SYNTH_STR = 1,   /* char NAME[N]: 256 bytes of slots */
	UFT_SYNTH_DSTR = 2,  /* char NAME[]: a __data_loc slot, text after the slots */
	UFT_SYNTH_STACK = 3, /* long[] NAME: a __data_loc slot, addresses after */
};

/* What a histogram's trace() action may pass to a field: the kinds[] a host's
 * synth_get reports to the hist engine (engine/hist/hist.h). */
enum uft_synth_param {
	UFT_SYNTH_PARAM_NUM = 0,   /* a number */
	UFT_SYNTH_PARAM_STR = 1,   /* a string, static or dynamic */
	UFT_SYNTH_PARAM_NONE = 2,  /* nothing a parameter can fill */
	UFT_SYNTH_PARAM_STACK = 3, /* a stack, from a variable holding one */
};

/* The parameter kind of a field of kind k; `stacks`: whether the host fills
 * stack fields (the live runtime does, a replay of a file does not). */
static inline enum uft_synth_param uft_synth_param_of(enum uft_synth_kind k, bool stacks)
{
	switch (k) {
	case UFT_SYNTH_NUM:
		return UFT_SYNTH_PARAM_NUM;
	case UFT_SYNTH_STACK:
		return stacks ? UFT_SYNTH_PARAM_STACK : UFT_SYNTH_PARAM_NONE;
	case UFT_SYNTH_STR:
	case UFT_SYNTH_DSTR:
		break;
	}
	return UFT_SYNTH_PARAM_STR;
}

struct uft_synth_field {
	char *type;	 /* as written, the name's [..] appended: "u64", "char[16]" */
	char *name;	 /* without [..] */
	uint32_t offset; /* in the record, common header included */
	uint32_t size;	 /* the format's size: the C type's, 8 for a __data_loc */
	uint32_t len;	 /* static strings: N */
	uint8_t is_signed;
	uint8_t kind; /* enum uft_synth_kind */
};

struct uft_synth_def {
	char *name;
	uint32_t nr;
	struct uft_synth_field *f;
	uint32_t fixed_size; /* common header and slots: where dynamic data starts */
};

enum { UFT_SYNTH_OP_NONE, UFT_SYNTH_OP_CREATE, UFT_SYNTH_OP_DELETE };

struct uft_synth_cmd {
	int op;
	char *name;		  /* DELETE: the event's name */
	bool any_system;	  /* DELETE from dynamic_events without a group */
	char *group;		  /* DELETE from dynamic_events: the group written, or NULL */
	struct uft_synth_def def; /* CREATE */
};

/* A refused line: the kernel's message (NULL when it logs nothing) and the
 * caret's offset in the command error_log shows, which is the line from
 * `cmd_off` on (leading blanks skipped). */
struct uft_synth_error {
	const char *msg;
	unsigned pos;
	unsigned cmd_off;
};

/* Whether an event of that name exists (checked where the kernel checks,
 * before the fields). */
typedef bool (*uft_synth_exists_fn)(void *ctx, const char *name);

/* Parses one line (no newline, comment removed) written to synthetic_events
 * (dyn false) or dynamic_events (dyn true). Returns 0 with c set (op NONE for
 * a blank line), -EINVAL or -EEXIST with e set, or -ENOMEM. */
int uft_synth_parse(const char *line, bool dyn, uft_synth_exists_fn exists, void *ctx,
		    struct uft_synth_cmd *c, struct uft_synth_error *e);
void uft_synth_cmd_free(struct uft_synth_cmd *c);
void uft_synth_def_free(struct uft_synth_def *d);

/* The listing text "NAME\tTYPE FIELD; TYPE FIELD" (no newline), malloc'd. */
char *uft_synth_desc(const struct uft_synth_def *d);
/* The printf conversion of a number field's type ("%llu"), or NULL. */
const char *uft_synth_num_fmt(const char *type);

/* The format-file field of a synthetic field (type and name allocated): a
 * static string prints as `char name[N]`, a dynamic one as `__data_loc
 * char[] name`, a stack as `__data_loc unsigned long[] name`, numbers with
 * their type as written. Returns 0 or -ENOMEM. */
struct uft_field;
int uft_synth_format_field(const struct uft_synth_field *sf, struct uft_field *f);
/* The `print fmt` text, malloc'd. */
char *uft_synth_print_fmt(const struct uft_synth_def *d);

/* Words a stack field holds at most: the kernel copies HIST_STACKTRACE_DEPTH
 * words of the value, its first the number of frames. */
#define UFT_SYNTH_STACK_WORDS 16

/* A record of definition d: its length (common header included), and its
 * fields after the common header in rec of that length. vals[i] is field
 * i's number, or for a stack field the address of its words (read up to
 * the first zero); strs[i] its string. A dynamic string or stack that grew
 * meanwhile is cut to the length measured. */
uint32_t uft_synth_record_size(const struct uft_synth_def *d, const uint64_t *vals,
			       const char *const *strs);
void uft_synth_record_fill(const struct uft_synth_def *d, const uint64_t *vals,
			   const char *const *strs, char *rec, uint32_t len);

#endif
