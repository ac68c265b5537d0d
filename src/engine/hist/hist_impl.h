/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internals shared by the histogram parser, table and printer. */
#ifndef UFT_HIST_IMPL_H
#define UFT_HIST_IMPL_H

#include <string.h>

#include "engine/hist/hist.h"

/* What a key or value reads. */
enum hf_src {
	HF_NUM,	     /* integer field of the record (1, 2, 4 or 8 bytes) */
	HF_STR,	     /* char array in the record */
	HF_DYNSTR,   /* __data_loc char[] */
	HF_RELSTR,   /* __rel_loc char[] */
	HF_TS,	     /* common_timestamp */
	HF_CPU,	     /* common_cpu */
	HF_COMM,     /* common_comm: the writer's name */
	HF_HITCOUNT, /* 1 per record */
	HF_CONST,
	HF_EXPR,  /* a value computed by an expression (vals=$x, vals=$a-$b) */
	HF_STACK, /* common_stacktrace: the writer's stack, a key of
		   * UFT_HIST_STACK_DEPTH addresses, zeros after the last; with
		   * HF_STACKTRACE the stack a __data_loc long[] field holds */
};

/* Modifier flags, in the order the kernel prints the first one set. */
#define HF_HEX (1u << 0)
#define HF_SYM (1u << 1)
#define HF_SYM_OFFSET (1u << 2)
#define HF_EXECNAME (1u << 3)
#define HF_SYSCALL (1u << 4)
#define HF_LOG2 (1u << 5)
#define HF_BUCKET (1u << 6)
#define HF_USECS (1u << 7)
#define HF_PERCENT (1u << 8)
#define HF_GRAPH (1u << 9)
#define HF_STACKTRACE (1u << 10) /* a field holding a stack: "count, frames" */

struct hist_field {
	uint8_t src;	   /* enum hf_src */
	uint8_t size;	   /* bytes read for HF_NUM */
	uint8_t is_signed; /* of the field, for loads and key comparisons */
	uint16_t flags;	   /* HF_* */
	uint32_t offset;   /* in the record */
	uint32_t str_max;  /* HF_STR: array size */
	uint32_t key_off;  /* in the key */
	uint32_t key_size; /* bytes in the key, multiple of 8 */
	uint64_t buckets;  /* .buckets=N */
	uint64_t constant;
	char *name;	      /* name in entries and sort keys (owned) */
	struct hist_expr *ex; /* HF_EXPR (owned) */
	bool is_string;	      /* compared and printed as a string */
	uint8_t cmp_size;     /* key comparison: bytes and sign of the field */
	bool cmp_signed;
};

/* Variables and expressions (Documentation/trace/histogram.rst). */
enum hist_op {
	EX_FIELD, /* a field of the record (f) */
	EX_CONST,
	EX_SELF, /* variable `var` of this histogram, as this event set it */
	EX_REF,	 /* variable `var` of histogram `ref`, entry of this key, read once */
	EX_ADD,
	EX_SUB,
	EX_MUL,
	EX_DIV,
	EX_NEG,
};

#define HIST_UNIT_NONE 0
#define HIST_UNIT_NS 1
#define HIST_UNIT_US 2

struct hist_expr {
	uint8_t op;	      /* enum hist_op */
	uint8_t unit;	      /* HIST_UNIT_*: timestamps in it */
	bool is_string;	      /* a string field (only as a variable or param) */
	bool is_stack;	      /* a stack: its value is the address of the words
			       * "number of frames, frames" (HIST_STACK_WORDS) */
	uint32_t var;	      /* EX_SELF, EX_REF */
	uint32_t slot;	      /* EX_REF: index in the histogram's uses[] */
	struct uft_hist *ref; /* EX_REF */
	char *ref_name;	      /* EX_SELF, EX_REF: as printed, "$name" */
	struct hist_field f;  /* EX_FIELD */
	uint64_t constant;    /* EX_CONST */
	struct hist_expr *l, *r;
};

struct hist_var {
	char *name;
	struct hist_expr *e;
	/* v=common_stacktrace: the entry's stack slot it fills, else -1 */
	int32_t stack_slot;
	/* A string variable: the entry's string slot (HIST_SAVE_STR bytes)
	 * it fills, else -1; its value is the slot's address. */
	int32_t str_slot;
};

/* Words of a stack variable's slot: the number of frames, the frames, a
 * zero after the last (the kernel's layout, read by synthetic events). */
#define HIST_STACK_WORDS (1 + UFT_HIST_STACK_DEPTH)

#define HIST_MAX_ACTIONS 8
#define HIST_MAX_PARAMS 64
#define HIST_SAVE_STR 256 /* bytes of a saved string, the kernel's STR_VAR_LEN_MAX */

enum hist_handler { HANDLER_ONMATCH, HANDLER_ONMAX, HANDLER_ONCHANGE };
enum hist_act { ACT_TRACE, ACT_SAVE, ACT_SNAPSHOT };

struct hist_action {
	uint8_t handler; /* enum hist_handler */
	uint8_t action;	 /* enum hist_act */
	bool trace_kw;	 /* .trace(SYNTH,...); else the legacy .SYNTH(...) */
	char *match;	 /* onmatch: "sys.event" */
	char *var_str;	 /* onmax/onchange: the text in the parentheses ("$var") */
	uint32_t var;	 /* its variable */
	uint32_t track;	 /* onmax/onchange but save: its word per element */
	char *action_name;
	char *synth_name;
	void *synth;
	uint32_t n_params;
	struct hist_expr *params[HIST_MAX_PARAMS];
	char *param_text[HIST_MAX_PARAMS];
};

/* Records published whole for readers while writers replace them (the
 * fields saved with a max, the snapshot's details): each writer fills a
 * slot it claimed from the pool and publishes it with one compare-and-swap
 * of a word that holds a generation and the slot; the slot it replaced goes
 * back to the pool. A reader copies the slot of the word it read and keeps
 * the copy only if the word is unchanged after it (hist_track.c). */
struct hist_pool {
	uint32_t n_slots;
	uint32_t words;	 /* u64 words per slot: the tracked value, then the payload */
	uint64_t *slots; /* n_slots * words */
	uint64_t *free;	 /* bitmap of free slots (bit set: free) */
	uint32_t n_free_words;
	uint32_t gen; /* generations handed out */
};

/* Per-thread part of a table's sums (hist_shard.c): a thread claims one
 * shard per table and adds its values and hits there with single, unlocked
 * read-modify-write instructions (only it and its signal handlers write
 * the shard, and a signal lands between instructions). `busy` counts the
 * owner's updates in progress, for a clear. Readers add the shards to the
 * shared sums. */
#define HIST_SHARDS 16
struct hist_shard {
	_Alignas(64) int32_t owner; /* tid; 0 while free */
	uint32_t busy;
	uint64_t hits;
	uint64_t *sums;	 /* max_elts * n_vals, mapped by the first owner */
	size_t map_size; /* bytes mapped at sums */
};

struct hist_table {
	uint32_t bits;
	uint32_t max_elts;   /* 1 << bits */
	uint32_t nr_buckets; /* 2 * max_elts */
	/* hash (0: free; claimed with compare-and-swap) and element index + 1
	 * (stored once the key is in) side by side: one cache line to look at */
	struct hist_bucket {
		uint32_t hash;
		uint32_t elt;
	} * buckets;
	uint8_t *keys;	   /* max_elts * key_size */
	uint64_t *sums;	   /* max_elts * n_vals, atomic adds */
	char (*comms)[16]; /* per element, when a key has .execname */
	uint64_t *vars;	   /* max_elts * n_vars: variables of the entries */
	uint64_t *stacks;  /* max_elts * n_stacks * HIST_STACK_WORDS */
	uint32_t n_stacks;
	uint64_t *strs; /* max_elts * n_strs * HIST_SAVE_STR bytes */
	uint32_t n_strs;
	uint32_t *vars_set; /* per element: bit i = variable i set */
	uint32_t n_vars;
	/* onmax/onchange without save: the tracked value per element and action */
	uint64_t *track;
	uint32_t n_track;
	/* save(): per element the published record (0: none) in save_pool */
	uint64_t *save_cur;
	struct hist_pool save_pool;
	/* snapshot(): the record of the last snapshot (value, key, comm) */
	uint64_t snap_cur;
	struct hist_pool snap_pool;
	uint32_t alloc;	   /* elements handed out (may pass max_elts) */
	uint32_t inflight; /* writers inside an update */
	uint32_t clearing; /* a clear waits for them to leave */
	uint64_t hits;	   /* updates made on the shared sums */
	uint64_t drops;
	uint64_t id;		   /* unique over the process's tables, for writers' caches */
	uint32_t n_vals;	   /* sums per element */
	bool shards_ok;		   /* the clear can fence writers (membarrier) */
	struct hist_shard *shards; /* HIST_SHARDS, or NULL */
};

struct uft_hist {
	char *cmd;  /* "hist:" + spec, as error_log shows it */
	char *name; /* "name=NAME" as the kernel keeps it, or NULL */
	char *filter_text;
	char *clock;
	struct uft_filter *filter;
	unsigned needs; /* UFT_FILTER_NEEDS_* of the filter */
	unsigned spec_flags;
	bool paused;
	bool no_hitcount;
	bool timestamps;
	bool ts_usecs;
	bool raw_clock;
	uint32_t n_vals; /* hitcount included */
	uint32_t n_keys;
	struct hist_field vals[UFT_HIST_MAX_VALS];
	struct hist_field keys[UFT_HIST_MAX_KEYS];
	/* Sort keys: index into vals (0..n_vals-1) then keys (n_vals..). */
	uint32_t n_sort;
	uint32_t sort_idx[UFT_HIST_MAX_SORT];
	bool sort_desc[UFT_HIST_MAX_SORT];
	uint32_t key_size;
	bool has_execname;
	uint32_t n_vars;
	struct hist_var vars[UFT_HIST_MAX_VARS];
	uint32_t n_actions;
	struct hist_action actions[HIST_MAX_ACTIONS];
	/* save(f,...): the fields, their names as written, string or not */
	uint32_t n_save;
	struct hist_expr *save[HIST_MAX_PARAMS];
	char *save_name[HIST_MAX_PARAMS];
	uint32_t save_words; /* payload words of a saved record */
	int snap_action;     /* index of the snapshot() action, or -1 */
	struct uft_hist_env env;
	/* The variables of other histograms this one reads (histogram and
	 * variable, each pair once, counted in the histogram's users): an
	 * event resolves them all first, each read once, as the kernel's
	 * resolve_var_refs(). */
	uint32_t n_uses;
	struct uft_hist *uses[64];
	uint32_t use_var[64];
	/* The hidden hist triggers made for SYS.EVENT.field params. */
	uint32_t n_fvh;
	struct hist_fvh {
		char *system, *event, *cmd;
	} fvh[HIST_MAX_PARAMS];
	bool linked;
	uint32_t users;
	/* name=: the histogram whose table, variables and actions this one
	 * uses (NULL: its own), and on that one the number of histograms
	 * sharing it; dropped: removed, its references kept while shared. */
	struct uft_hist *shared;
	uint32_t sharers;
	bool dropped;
	/* A histogram of plain integer keys and values and nothing else (no
	 * filter, variables, actions, comms, stacks or strings): its update
	 * reads each field at a fixed offset and size (hist_update.c). */
	bool fast;
	struct hist_table t;
};

/* The histogram holding h's data: h, or the named one it shares. */
static inline struct uft_hist *uft_hist_data(const struct uft_hist *h)
{
	return h->shared ? h->shared : (struct uft_hist *)h;
}

/* The hash of a key (key_size a multiple of 8); never 0, a free bucket. */
static inline uint32_t uft_hist_hash(const uint8_t *k, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (uint32_t i = 0; i < n; i += 8) {
		uint64_t w;
		memcpy(&w, k + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h ? (uint32_t)h : 1;
}

/* Two keys equal; one word compared inline, the common key. */
static inline bool uft_hist_key_eq(const uint8_t *a, const uint8_t *b, uint32_t n)
{
	if (n == 8) {
		uint64_t x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		return x == y;
	}
	return !memcmp(a, b, n);
}

int uft_hist_table_init(struct hist_table *t, uint32_t bits, uint32_t key_size, uint32_t n_vals,
			uint32_t n_vars, bool comms);
/* Finds or claims the element of `key`; -1 when the table is full. *fresh
 * says the element was claimed now, its key written but not published:
 * the caller fills in its comm and publishes it in bucket *bucket
 * (release store of the element + 1 into the bucket's elt). Lock-free. */
int64_t uft_hist_table_insert(struct hist_table *t, const uint8_t *key, uint32_t key_size,
			      bool *fresh, uint32_t *bucket);
/* The published element of `key`, or -1; never claims anything. */
int64_t uft_hist_table_lookup(const struct hist_table *t, const uint8_t *key, uint32_t key_size);
/* An expression as the trigger info shows it, snprintf-like. */
int uft_hist_expr_spec(const struct hist_expr *e, char *buf, size_t len);
void uft_hist_expr_free(struct hist_expr *e);
void uft_hist_table_free(struct hist_table *t);
/* Sets h->fast when h is such a histogram (hist_update.c). */
void uft_hist_compile_fast(struct uft_hist *h);
/* hist_shard.c: a table's per-thread shards of sums and hits. */
void uft_hist_shards_init(struct hist_table *t, uint32_t n_vals);
void uft_hist_shards_free(struct hist_table *t);
bool uft_hist_shards_quiesce(struct hist_table *t);
void uft_hist_shards_clear(struct hist_table *t);
uint64_t uft_hist_shards_hits(const struct hist_table *t);
void uft_hist_shards_add_sums(const struct hist_table *t, uint64_t *out, size_t n);
/* The tracking state of the onmax/onchange actions (after the table). */
int uft_hist_track_init(struct uft_hist *h);
void uft_hist_track_free(struct hist_table *t);
void uft_hist_track_clear(struct uft_hist *h);
/* Runs the onmax/onchange action a for element e after its update: false
 * when the value was no new max (or no change). For save, the fields are
 * read through `fill` into the record first. */
bool uft_hist_track(struct uft_hist *h, const struct hist_action *a, uint32_t e, uint64_t v,
		    const uint8_t *key, void (*fill)(void *ctx, uint64_t *payload), void *ctx);
/* A consistent copy of element e's saved record (value, then payload) into
 * out (save_words + 1 words); false when there is none. */
bool uft_hist_saved(const struct uft_hist *h, uint32_t e, uint64_t *out);
/* The snapshot details: value, key (key_size bytes) and comm; false when
 * no snapshot was taken. */
bool uft_hist_snap_details(const struct uft_hist *h, uint64_t *val, uint8_t *key, char *comm);
uint64_t uft_hist_track_value(const struct uft_hist *h, const struct hist_action *a, uint32_t e);
/* The published elements (at most max), in bucket order; their count. */
uint32_t uft_hist_published(const struct uft_hist *h, uint32_t *elts, uint32_t max);

/* Action i as the trigger info shows it (":onmax($v).save(a,b)"). */
int uft_hist_action_spec(const struct uft_hist *h, uint32_t i, char *buf, size_t len);

const char *uft_hist_syscall_name(uint64_t nr);

#endif
