/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User events (Documentation/trace/user_events.rst): the registration
 * string `NAME [FIELD[;FIELD...]]` parsed into the kernel's record layout
 * (fields packed in order after the 8-byte common header), the texts made
 * from it (dynamic_events line, print fmt, format fields) and the check of
 * a written record. */
#ifndef UFT_ENGINE_UEVENT_H
#define UFT_ENGINE_UEVENT_H

#include <stdbool.h>
#include <stdint.h>

#include <uft/event.h>

#define UFT_UEV_SYSTEM "user_events"
#define UFT_UEV_NAME_MAX 64	/* bytes of an event's name, NUL excluded */
#define UFT_UEV_FIELDS_MAX 64	/* fields of one event */
#define UFT_UEV_DEF_MAX 4096	/* bytes of a registration string */
#define UFT_UEV_RECORD_MAX 4000 /* a record, common header included (a ring page's share) */

enum uft_uev_kind {
	UFT_UEV_NUM = 0,      /* u8..u64, s8..s64, int, char... */
	UFT_UEV_CHARS = 1,    /* char[N]: a string of at most N bytes in place */
	UFT_UEV_DATA_LOC = 2, /* __data_loc T[]: offset | size << 16, from the record start */
	UFT_UEV_REL_LOC = 3,  /* __rel_loc T[]: offset from the end of the field */
	UFT_UEV_STRUCT = 4,   /* struct T NAME SIZE: SIZE opaque bytes */
};

struct uft_uev_field {
	char *type; /* as registered: "u32", "char[20]", "__data_loc char[]", "struct foo" */
	char *name;
	uint32_t offset; /* from the record start */
	uint32_t size;
	uint8_t kind; /* enum uft_uev_kind */
	bool is_signed;
	bool is_char; /* a dynamic char array: its data must end with a NUL */
};

struct uft_uev_def {
	char *name;
	struct uft_uev_field *f;
	uint32_t nr;
	uint32_t size; /* bytes of the fixed part, common header included */
};

/* Parses a registration string. Returns 0, -EINVAL (bad syntax, type, name
 * or flag; *why says which), -E2BIG (record or string too long) or -ENOMEM.
 * On an error out is left empty. */
int uft_uev_parse(const char *def, struct uft_uev_def *out, const char **why);
void uft_uev_def_free(struct uft_uev_def *d);
/* Whether two definitions give the same event (names, types, sizes). */
bool uft_uev_same(const struct uft_uev_def *a, const struct uft_uev_def *b);
/* The dynamic_events line without "u:" and the newline ("NAME u32 a; char[8] b"),
 * malloc'd. */
char *uft_uev_listing(const struct uft_uev_def *d);
/* The print fmt the kernel gives a user event, malloc'd. */
char *uft_uev_print_fmt(const struct uft_uev_def *d);
/* The format file's field table (calloc'd, strings malloc'd); free with
 * uft_uev_fields_free. NULL without memory. */
struct uft_field *uft_uev_fields(const struct uft_uev_def *d);
void uft_uev_fields_free(struct uft_field *f, uint32_t nr);
/* Checks a record of len bytes (common header included) as the kernel
 * checks a write: 0, -EINVAL (shorter than the fixed part), -E2BIG (longer
 * than UFT_UEV_RECORD_MAX) or -EFAULT (a dynamic field's data outside the
 * record or in its fixed part, a dynamic string without its NUL). */
int uft_uev_validate(const struct uft_uev_def *d, const uint8_t *rec, uint32_t len);

#endif
