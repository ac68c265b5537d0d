/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist: an SQL SELECT statement translated into the tracefs commands
 * that build it (libtracefs's sqlhist; docs/design/hist.md): one hist trigger without JOIN; with
 * JOIN a synthetic event and the hist triggers of its start and end events.
 * Parsing needs no events; translation resolves events and fields through a
 * caller's lookup, so it works over a trace.dat, a live tree or fixtures. */
#ifndef UFT_SQLHIST_H
#define UFT_SQLHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uft/event.h>

/* Where a statement went wrong: byte offset into the statement. */
struct uft_sql_error {
	int pos;
	char msg[192];
};

enum uft_sql_cast {
	UFT_SQL_CAST_NONE = 0,
	UFT_SQL_CAST_HEX,
	UFT_SQL_CAST_SYM,
	UFT_SQL_CAST_SYM_OFFSET,
	UFT_SQL_CAST_SYSCALL,
	UFT_SQL_CAST_EXECNAME,
	UFT_SQL_CAST_LOG2,
	UFT_SQL_CAST_COUNTER,
};

/* A field as written: "f", "alias.f", "event.f" or "system.event.f". */
struct uft_sql_field {
	char *text;
	int pos;
};

/* A selected column: one field (maybe cast) or a sum/difference of two. */
struct uft_sql_expr {
	char op; /* 0, '+' or '-' */
	enum uft_sql_cast cast;
	struct uft_sql_field a, b;
	int pos;
};

struct uft_sql_sel {
	struct uft_sql_expr e;
	char *label; /* AS name, or NULL */
};

struct uft_sql_event_ref {
	char *name; /* "system.event" or "event" */
	char *alias;
	int pos;
};

struct uft_sql_match {
	struct uft_sql_field a, b;
};

enum uft_sql_cond_kind {
	UFT_SQL_CMP,
	UFT_SQL_AND, /* && or , */
	UFT_SQL_OR,
	UFT_SQL_NOT,
	UFT_SQL_PAREN,
};

struct uft_sql_cond {
	enum uft_sql_cond_kind kind;
	int pos;
	struct uft_sql_cond *l, *r; /* NOT and PAREN use l */
	/* UFT_SQL_CMP */
	struct uft_sql_field field;
	char op[3];  /* "==" for "=" */
	char *value; /* as written; strings keep their quotes */
	bool is_str;
};

struct uft_sql {
	struct uft_sql_sel *sels;
	size_t nr_sels;
	struct uft_sql_event_ref from, join;
	bool has_join;
	struct uft_sql_match *matches;
	size_t nr_matches;
	struct uft_sql_cond *where;
};

/* Parses a statement. Returns 0, -EINVAL with *err filled, or -ENOMEM. */
int uft_sql_parse(const char *text, struct uft_sql **out, struct uft_sql_error *err);
void uft_sql_free(struct uft_sql *q);

/* An event the statement may name; fields exclude the common_* ones. */
struct uft_sql_event {
	const char *system;
	const char *name;
	const struct uft_field *fields;
	uint32_t nr_fields;
};

/* Finds "system.event", or "event" alone (system NULL) when its name is
 * unique. Returns 0 with *ev set (owned by the caller's ctx), -ENOENT,
 * -EEXIST when the name is in several systems, or another -errno. */
typedef int (*uft_sql_lookup_fn)(void *ctx, const char *system, const char *event,
				 const struct uft_sql_event **ev);

struct uft_sql_opts {
	const char *name;     /* synthetic event; NULL: "Anonymous" */
	unsigned rand;	      /* the statement's random number, <= 32767 */
	const char *onmax;    /* column label for onmax(), or NULL */
	const char *onchange; /* column label for onchange(), or NULL */
	bool snapshot;	      /* -s: snapshot() instead of trace() */
	bool trace_snapshot;  /* -T: trace() then snapshot() */
	const char *save;     /* -S: "f1,f2" fields of the end event to save() */
};

/* One command: text to append to a tracefs file (relative path). */
struct uft_sql_cmd {
	char *file;
	char *text;
};

struct uft_sql_out {
	struct uft_sql_cmd cmd[3];
	int nr;
	char *synth; /* the synthetic event's name, NULL without JOIN */
};

/* Translates a parsed statement. Returns 0, -EINVAL with *err filled, or
 * -ENOMEM. */
int uft_sql_translate(const struct uft_sql *q, const struct uft_sql_opts *o,
		      uft_sql_lookup_fn lookup, void *ctx, struct uft_sql_out *out,
		      struct uft_sql_error *err);
void uft_sql_out_free(struct uft_sql_out *out);

#endif
