/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Histogram triggers (Documentation/trace/histogram.rst): a `hist:` specification
 * compiled against an event's fields into a fixed-size table that records
 * update without allocating or locking, and the kernel's `hist` file text.
 * Used live by the runtime and over recorded files by `uft report --hist`. */
#ifndef UFT_HIST_H
#define UFT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uft/event.h>

#include "engine/filter/filter.h"
#include "engine/synth/synth.h"

/* The error_log messages in the kernel's order, each a name (enum
 * uft_hist_err is UFT_HIST_ERR_ + name) and its text (uft_hist_strerror()):
 * one list, so that no number lacks its text. */
#define UFT_HIST_ERRORS(E)                                                                         \
	E(NONE, "No error")                                                                        \
	E(DUPLICATE_VAR, "Variable already defined")                                               \
	E(VAR_NOT_UNIQUE, "Variable name not unique, need to use fully qualified name "            \
			  "(subsys.event.var) for variable")                                       \
	E(TOO_MANY_VARS, "Too many variables defined")                                             \
	E(MALFORMED_ASSIGNMENT, "Malformed assignment")                                            \
	E(NAMED_MISMATCH,                                                                          \
	  "Named hist trigger doesn't match existing named trigger (includes variables)")          \
	E(TRIGGER_EEXIST, "Hist trigger already exists")                                           \
	E(TRIGGER_ENOENT_CLEAR, "Can't clear or continue a nonexistent hist trigger")              \
	E(SET_CLOCK_FAIL, "Couldn't set trace_clock")                                              \
	E(BAD_FIELD_MODIFIER, "Invalid field modifier")                                            \
	E(TOO_MANY_SUBEXPR, "Too many subexpressions (3 max)")                                     \
	E(TIMESTAMP_MISMATCH, "Timestamp units in expression don't match")                         \
	E(TOO_MANY_FIELD_VARS, "Too many field variables defined")                                 \
	E(EVENT_FILE_NOT_FOUND, "Event file not found")                                            \
	E(HIST_NOT_FOUND, "Matching event histogram not found")                                    \
	E(HIST_CREATE_FAIL, "Couldn't create histogram for field")                                 \
	E(SYNTH_VAR_NOT_FOUND, "Couldn't find synthetic variable")                                 \
	E(SYNTH_EVENT_NOT_FOUND, "Couldn't find synthetic event")                                  \
	E(SYNTH_TYPE_MISMATCH, "Param type doesn't match synthetic event field type")              \
	E(SYNTH_COUNT_MISMATCH, "Param count doesn't match synthetic event field count")           \
	E(FIELD_VAR_PARSE_FAIL, "Couldn't parse field variable")                                   \
	E(VAR_CREATE_FIND_FAIL, "Couldn't create or find variable")                                \
	E(ONX_NOT_VAR, "For onmax(x) or onchange(x), x must be a variable")                        \
	E(ONX_VAR_NOT_FOUND, "Couldn't find onmax or onchange variable")                           \
	E(ONX_VAR_CREATE_FAIL, "Couldn't create onmax or onchange variable")                       \
	E(FIELD_VAR_CREATE_FAIL, "Couldn't create field variable")                                 \
	E(TOO_MANY_PARAMS, "Too many action params")                                               \
	E(PARAM_NOT_FOUND, "Couldn't find param")                                                  \
	E(INVALID_PARAM, "Invalid action param")                                                   \
	E(ACTION_NOT_FOUND, "No action found")                                                     \
	E(NO_SAVE_PARAMS, "No params found for save()")                                            \
	E(TOO_MANY_SAVE_ACTIONS, "Can't have more than one save() action per hist")                \
	E(ACTION_MISMATCH, "Handler doesn't support action")                                       \
	E(NO_CLOSING_PAREN, "No closing paren found")                                              \
	E(SUBSYS_NOT_FOUND, "Missing subsystem")                                                   \
	E(INVALID_SUBSYS_EVENT, "Invalid subsystem or event name")                                 \
	E(INVALID_REF_KEY, "Using variable references in keys not supported")                      \
	E(VAR_NOT_FOUND, "Couldn't find variable")                                                 \
	E(FIELD_NOT_FOUND, "Couldn't find field")                                                  \
	E(EMPTY_ASSIGNMENT, "Empty assignment")                                                    \
	E(INVALID_SORT_MODIFIER, "Invalid sort modifier")                                          \
	E(EMPTY_SORT_FIELD, "Empty sort field")                                                    \
	E(TOO_MANY_SORT_FIELDS, "Too many sort fields (Max = 2)")                                  \
	E(INVALID_SORT_FIELD, "Sort field must be a key or a val")                                 \
	E(INVALID_STR_OPERAND, "String type can not be an operand in expression")                  \
	E(EXPECT_NUMBER, "Expecting numeric literal")                                              \
	E(UNARY_MINUS_SUBEXPR, "Unary minus not supported in sub-expressions")                     \
	E(DIVISION_BY_ZERO, "Division by zero")                                                    \
	E(NEED_NOHC_VAL, "Non-hitcount value is required for 'nohitcount'")

#define UFT_HIST_ERR_ENUM(name, text) UFT_HIST_ERR_##name,
enum uft_hist_err { UFT_HIST_ERRORS(UFT_HIST_ERR_ENUM) UFT_HIST_NR_ERRS };
#undef UFT_HIST_ERR_ENUM

/* Limits (the kernel's tracing_map.h). */
#define UFT_HIST_MAX_KEYS 3
#define UFT_HIST_MAX_VALS 3 /* hitcount included */
#define UFT_HIST_MAX_SORT 2
#define UFT_HIST_MAX_VARS 16
#define UFT_HIST_BITS_MIN 7
#define UFT_HIST_BITS_MAX 17
#define UFT_HIST_BITS_DEFAULT 11
#define UFT_HIST_KEY_MAX 384	/* bytes of a compound key, as the kernel's */
#define UFT_HIST_STACK_DEPTH 16 /* frames of a stack key, HIST_STACKTRACE_DEPTH */

struct uft_hist_error {
	/* Negative errno of the failure: -EINVAL (most), -ENOENT (nohitcount
	 * without a value, cont/clear of nothing), -EEXIST (a second save()),
	 * -EBUSY (a second snapshot()), -ENOMEM, or -EOPNOTSUPP for what uft
	 * does not implement (stacks in save(), .stacktrace fields outside
	 * keys, stacks as parameters but through a variable, string fields
	 * of another event as action parameters,
	 * such parameters without env->field_var). */
	int err;
	/* enum uft_hist_err (0 when the kernel logs nothing) and the byte
	 * position in the command as error_log shows it: "hist:" followed by
	 * the specification (see uft_hist_command()). */
	int code;
	int pos;
	/* The `if` filter did not compile: `filter` holds its error, its
	 * position relative to the filter text, which starts at filter_off in
	 * the command. */
	bool in_filter;
	struct uft_filter_error filter;
	int filter_off;
	/* For -EOPNOTSUPP: what is not supported. */
	const char *unsupported;
	/* Entries the kernel logs before the one above for the same failure
	 * (a save() field it cannot parse: "Couldn't find field", then
	 * "Couldn't parse field variable", then the final "Couldn't create
	 * field variable"), oldest first: code and position as above. Also
	 * set on success (err 0) when the kernel logs entries anyway: an
	 * onmatch parameter that is a field of the matching event only. */
	uint32_t n_prior;
	struct {
		int code;
		int pos;
	} prior[8];
};

/* The event a histogram is attached to. Fields exclude the common ones
 * (resolved by name at their fixed offsets), as in struct uft_event. */
struct uft_hist_event {
	const char *system;
	const char *name;
	const struct uft_field *fields;
	uint32_t nr_fields;
	/* Timestamps are not nanoseconds (x86-tsc, counter, uptime):
	 * `.usecs` then leaves them as they are, as the kernel does. */
	bool raw_clock;
	/* Resolves `.function` in the filter; NULL: no symbols. */
	const struct uft_filter_syms *syms;
};

/* What only the writer knows at event time. lookup: the name of the
 * thread that wrote a record (pid = common_pid), for `.execname`,
 * `common_comm` and the filter's COMM; NULL when unknown. stack: the
 * writing thread's stack for a `common_stacktrace` key, up to max return
 * addresses innermost first, the writer's own frames left out; their
 * number. Both run at event time: no lock, no allocation. A NULL stack
 * (a recorded file) leaves records needing one out. */
struct uft_hist_comm {
	const char *(*lookup)(void *ctx, int pid);
	void *ctx;
	uint32_t (*stack)(void *ctx, uint64_t *pcs, uint32_t max);
};

/* Symbol names for `.sym` (function name) and `.sym-offset`
 * ("name+0xoff/0xsize [module]"): writes the name into buf (NUL
 * terminated) and returns 0, or -1 when none is known (printed empty). */
struct uft_hist_syms {
	int (*lookup)(void *ctx, uint64_t addr, bool offset, char *buf, size_t len);
	void *ctx;
};

/* Flags of the specification besides the table's shape. */
#define UFT_HIST_PAUSE 1u
#define UFT_HIST_CONT 2u
#define UFT_HIST_CLEAR 4u

struct uft_hist;

/* What a histogram needs from its surroundings for variables of other
 * events' histograms and for actions (Documentation/trace/histogram.rst); all optional.
 * Called at creation (under the caller's lock) except emit, which runs at
 * event time and must neither lock nor allocate. */
struct uft_hist_env {
	/* Histograms of the instance defining variable `var` (system and event
	 * NULL: any event): their number, the first in *found. */
	int (*find_var)(void *ctx, const char *system, const char *event, const char *var,
			struct uft_hist **found);
	/* Whether the event exists (onmatch). */
	bool (*event_exists)(void *ctx, const char *system, const char *event);
	/* Takes a reference on synthetic event `name`: its handle, or NULL.
	 * Sets *nr to its field count and kinds[i] to what a parameter may
	 * fill field i with (enum uft_synth_param, uft_synth_param_of). */
	void *(*synth_get)(void *ctx, const char *name, uint32_t *nr, uint8_t *kinds);
	void (*synth_put)(void *ctx, void *synth);
	/* Emits a record of the synthetic event. */
	void (*synth_emit)(void *ctx, void *synth, const uint64_t *vals, const char *const *strs);
	void *ctx;
	/* Takes the instance's snapshot (a snapshot() action whose value won);
	 * runs at event time like synth_emit. NULL: none is taken. */
	void (*snapshot)(void *ctx);
	/* An action parameter SYSTEM.EVENT.FIELD of another event: the hist
	 * trigger of that event defining variable "synthetic_FIELD" with keys
	 * compatible with `target`'s (uft_hist_keys_compatible), made if
	 * there is none ("keys=K,...:synthetic_FIELD=FIELD[ if FILTER]", the
	 * keys and filter of a compatible one there; *created then gets that
	 * command, malloc'd, for uft_hist_field_var_hist()). NULL with *code
	 * set (enum uft_hist_err) when the event or a compatible histogram
	 * is missing or the command fails. NULL callback: such parameters
	 * are not supported. */
	struct uft_hist *(*field_var)(void *ctx, const char *system, const char *event,
				      const char *field, const struct uft_hist *target, int *code,
				      char **created);
};

/* Compiles `spec` ("keys=...[:...][ if FILTER]", "hist:" prefix optional,
 * surrounding whitespace ignored) for `ev` and allocates its table. Returns
 * 0 with *out set, or the negative errno with *err filled (err may be NULL).
 * A specification given with `pause` starts paused. */
int uft_hist_create(const char *spec, const struct uft_hist_event *ev, struct uft_hist **out,
		    struct uft_hist_error *err);
/* As uft_hist_create, with variables of other histograms and actions
 * resolved through env (copied; its ctx must outlive the histogram). The
 * histograms whose variables it reads count it as a user until
 * uft_hist_unlink() or uft_hist_free(). */
int uft_hist_create_env(const char *spec, const struct uft_hist_event *ev,
			const struct uft_hist_env *env, struct uft_hist **out,
			struct uft_hist_error *err);
void uft_hist_free(struct uft_hist *h);
/* Drops what h holds on other histograms and synthetic events (once). */
void uft_hist_unlink(struct uft_hist *h);
/* Another histogram reads h's variables: h cannot be removed (EBUSY). */
bool uft_hist_busy(const struct uft_hist *h);
/* Whether h has a snapshot() action (one per instance: the kernel's
 * conditional snapshot). */
bool uft_hist_has_snapshot(const struct uft_hist *h);
/* Whether h's keys can be matched with target's (count, size, sign and
 * string or not of each), as a variable of h is read for target's key. */
bool uft_hist_keys_compatible(const struct uft_hist *target, const struct uft_hist *h);
/* The raw field names of h's keys joined by commas ("pid,prio"). */
int uft_hist_key_names(const struct uft_hist *h, char *buf, size_t len);
/* The `if` filter text, or NULL. */
const char *uft_hist_filter_text(const struct uft_hist *h);
/* The i-th hidden hist trigger made for h's SYSTEM.EVENT.FIELD params:
 * false past the last. */
bool uft_hist_field_var_hist(const struct uft_hist *h, uint32_t i, const char **system,
			     const char **event, const char **cmd);
/* Index of variable `name` of h, or -1. */
int uft_hist_var_index(const struct uft_hist *h, const char *name);

/* Accounts one record of `len` bytes (common header first) written at
 * `ts` on `cpu`, if the table is not paused and the filter matches. Never
 * allocates, locks or reads outside the record; a record too short for a
 * field it needs is ignored. Any number of writers at once (signal handlers
 * included); readers may print concurrently; a clear waits for writers. */
void uft_hist_update(struct uft_hist *h, const void *rec, uint32_t len, uint64_t ts, uint32_t cpu,
		     const struct uft_hist_comm *comm);

/* Whether h is a histogram of plain integer keys and values and nothing
 * else (its update reads only the record: no time, CPU or thread name), on
 * its own table: what uft_hist_update_plain() takes. */
bool uft_hist_plain(const struct uft_hist *h);
/* uft_hist_update() of such a histogram, for a record written at nesting
 * level 0 of the calling thread (the writer's inline path). */
void uft_hist_update_plain(struct uft_hist *h, const void *rec, uint32_t len);

/* Whether an update asks `comm` for names (.execname, common_comm, COMM). */
bool uft_hist_needs_comm(const struct uft_hist *h);
/* Whether a key is the writer's stack (common_stacktrace): only a live
 * writer can give it (struct uft_hist_comm's stack). */
bool uft_hist_needs_stack(const struct uft_hist *h);

/* Writes the histogram as one trigger's part of the `hist` file: header
 * with the trigger info, sorted entries, totals. Returns 0 or -errno. */
int uft_hist_print(const struct uft_hist *h, FILE *out, const struct uft_hist_syms *syms);

/* The trigger info line (also the `trigger` file's line), "\n" included;
 * snprintf-like. */
int uft_hist_info(const struct uft_hist *h, char *buf, size_t len);

/* The command as error_log shows it: "hist:" + the specification. */
const char *uft_hist_command(const struct uft_hist *h);

/* The trace clock a histogram that reads common_timestamp asks for
 * (clock=, "global" by default), or NULL when it reads none. */
const char *uft_hist_clock(const struct uft_hist *h);
/* Whether its timestamps are other than nanoseconds (then `.usecs` leaves
 * them alone), when that is known only after creation. */
void uft_hist_set_raw_clock(struct uft_hist *h, bool raw);

unsigned uft_hist_flags(const struct uft_hist *h);   /* UFT_HIST_* of the spec */
const char *uft_hist_name(const struct uft_hist *h); /* name=, or NULL */
bool uft_hist_paused(const struct uft_hist *h);
void uft_hist_set_paused(struct uft_hist *h, bool paused);
/* Empties the table and its totals; the writer must be quiescent. */
void uft_hist_clear(struct uft_hist *h);
/* Same name, keys, values, sort keys, variables and actions and, unless
 * ignore_filter, both with a filter or both without (the kernel compares
 * presence, not the text); size is not compared. The kernel's test for
 * "the same trigger" when pausing, continuing, clearing or removing. */
bool uft_hist_same(const struct uft_hist *a, const struct uft_hist *b, bool ignore_filter);

/* As uft_hist_same without the names: what name= requires of the
 * histograms that share one table (the kernel's hist_trigger_match). */
bool uft_hist_compatible(const struct uft_hist *a, const struct uft_hist *b, bool ignore_filter);
/* name=: h uses `named`'s table, variables and actions from now on (its
 * filter and pause state stay its own). Returns 0, or -EINVAL with err
 * set to "Named hist trigger doesn't match existing named trigger" when
 * keys, values, sort keys, variables or actions differ. What h held on
 * other histograms goes; `named`'s stays until the last of them is
 * unlinked. */
int uft_hist_share(struct uft_hist *h, struct uft_hist *named, struct uft_hist_error *err);
/* h has a name= or shares a named table: other histograms may use its data. */
bool uft_hist_named(const struct uft_hist *h);
/* h is unlinked and nothing uses its data any more: a histogram that shared
 * another's table, or one whose last sharer is gone. It may be freed. */
bool uft_hist_unused(const struct uft_hist *h);

uint64_t uft_hist_hits(const struct uft_hist *h);
uint64_t uft_hist_drops(const struct uft_hist *h);
uint32_t uft_hist_entries(const struct uft_hist *h);

const char *uft_hist_strerror(int code);

#endif
