/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hist triggers in the tree (Documentation/trace/histogram.rst): the `hist:` commands
 * written to events/SYSTEM/EVENT/trigger, with the kernel's errno values
 * and error_log lines, and the read-only events/SYSTEM/EVENT/hist file.
 *
 * The registry keeps each histogram as a trigger of its event in one
 * buffer; the engine (engine/hist/hist.h) compiles, updates and prints it.
 * Reading `hist` while traced threads update is safe: the engine publishes
 * an element (release) only once its key is written and the printer takes
 * the sums as they are at that moment. Removed histograms are retired with
 * the trigger, never freed, since a writer may still be in one. Triggers
 * with the same `name=` share the table of the first (the registry). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/filter.h"
#include "engine/hist/hist.h"
#include "engine/trigger/trigger.h"
#include "runtime/core/registry.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/symtab.h"
#include "runtime/tracefs/tfs.h"

/* `.sym` and `.sym-offset` keys and the frames of stack keys name
 * functions of this process, static ones included (symtab.c). */
static int sym_lookup(void *ctx, uint64_t addr, bool offset, char *buf, size_t len)
{
	(void)ctx;
	struct uft_symbol s;
	if (uft_symbol_find((uintptr_t)addr, &s) != 0)
		return uft_symbol_tag(&s, (uintptr_t)addr, buf, len);
	if (!offset)
		snprintf(buf, len, "%s", s.name);
	else
		snprintf(buf, len, "%s+0x%llx/0x%llx", s.name, (unsigned long long)(addr - s.start),
			 (unsigned long long)s.size);
	return 0;
}

static int show_hist(const struct tfs_node *n, FILE *out)
{
	const struct uft_hist_syms syms = {sym_lookup, NULL};
	char *text = uft_registry_hist_text(n->inst->buffer, n->sys, n->ev, &syms);
	if (!text)
		return -ENOMEM;
	fputs(text, out);
	free(text);
	return 0;
}

/* An open hist file's view of its histograms' update count (hits and drops
 * of all of them, uft_registry_hist_updates), for poll(2) as the kernel's
 * since 6.11: `text` is the count the generated text shows, `read` the one
 * the reader last read from offset 0 (none yet at open: POLLIN until the
 * first read when the event has updates), `seen` the one the last poll or
 * read saw (POLLPRI when the count moved since). Writers only bump the
 * counters they already have; a door's watcher notices the change. */
struct hist_open {
	pthread_mutex_t lock; /* reads and polls of one handle from several threads */
	uint64_t text, read, seen;
};

static int hist_updates(const struct tfs_node *n, uint64_t *count)
{
	return uft_registry_hist_updates(n->inst->buffer, n->sys, n->ev, count);
}

/* Before the text is generated (tfs_lock held): a hit that lands while it
 * is printed makes the next poll report, rather than go unseen. */
static int open_hist(struct uft_tfs_handle *h)
{
	if (h->flags & UFT_TFS_WRITE)
		return -EACCES; /* as before it had an open: nothing to write or clear */
	struct hist_open *o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	pthread_mutex_init(&o->lock, NULL);
	uint64_t c = 0;
	hist_updates(&h->n, &c);
	o->text = o->seen = c;
	h->priv = o;
	return 0;
}

static void release_hist(struct uft_tfs_handle *h)
{
	struct hist_open *o = h->priv;
	if (!o)
		return;
	pthread_mutex_destroy(&o->lock);
	free(o);
	h->priv = NULL;
}

/* A read from offset 0 shows the histograms as they are then, as the
 * kernel's seq_file does after a seek to 0; later offsets read on. */
static ssize_t read_hist(struct uft_tfs_handle *h, char *buf, size_t len, uint64_t off)
{
	struct hist_open *o = h->priv;
	pthread_mutex_lock(&o->lock);
	if (off == 0) {
		uint64_t c = o->text;
		if (hist_updates(&h->n, &c) == 0 && c != o->text) {
			char *text;
			size_t tlen;
			pthread_mutex_lock(&tfs_lock);
			int rc = tfs_render(&h->n, &text, &tlen);
			tfs_unlock();
			if (rc < 0) {
				pthread_mutex_unlock(&o->lock);
				return rc;
			}
			free(h->data);
			h->data = text;
			h->len = tlen;
			o->text = c;
		}
		o->read = o->seen = o->text;
	}
	size_t n = off < h->len ? h->len - (size_t)off : 0;
	if (n > len)
		n = len;
	if (n)
		memcpy(buf, h->data + off, n);
	pthread_mutex_unlock(&o->lock);
	return (ssize_t)n;
}

static unsigned poll_hist(struct uft_tfs_handle *h, bool peek)
{
	struct hist_open *o = h->priv;
	uint64_t c;
	if (hist_updates(&h->n, &c) < 0)
		return POLLERR;
	unsigned ev = 0;
	pthread_mutex_lock(&o->lock);
	if (c != o->read)
		ev |= POLLIN | POLLRDNORM;
	if (c != o->seen) {
		ev |= POLLPRI;
		if (!peek)
			o->seen = c;
	}
	pthread_mutex_unlock(&o->lock);
	return ev;
}

/* Logs an engine or registry failure the kernel's way: location
 * "hist:SYSTEM:EVENT", the command as "hist:" + specification. */
static void log_hist_error(const struct tfs_node *n, const char *cmd,
			   const struct uft_hist_error *he)
{
	char loc[2 * TFS_NAME_MAX + 8];
	snprintf(loc, sizeof(loc), "hist:%s:%s", n->sys, n->ev);
	if (he->err == -EOPNOTSUPP) {
		char msg[128];
		snprintf(msg, sizeof(msg), "%s not supported",
			 he->unsupported ? he->unsupported : "this");
		tfs_log_error(n->inst, loc, cmd, msg, (unsigned)he->pos);
	} else if (he->in_filter) {
		/* As any trigger's filter: the filter's own entry. */
		size_t off = (size_t)he->filter_off <= strlen(cmd) ? (size_t)he->filter_off : 0;
		tfs_log_error(
		    n->inst, UFT_FILTER_ERR_LOC, cmd + off, uft_filter_strerror(he->filter.code),
		    he->filter.code > 0 && he->filter.pos > 0 ? (unsigned)he->filter.pos : 0);
	} else {
		/* what the kernel logs on the way, even when the command works */
		for (uint32_t i = 0; i < he->n_prior; i++)
			tfs_log_error(n->inst, loc, cmd, uft_hist_strerror(he->prior[i].code),
				      he->prior[i].pos > 0 ? (unsigned)he->prior[i].pos : 0);
		if (he->code > 0)
			tfs_log_error(n->inst, loc, cmd, uft_hist_strerror(he->code),
				      he->pos > 0 ? (unsigned)he->pos : 0);
	}
}

int tfs_hist_write(const struct tfs_node *n, const struct uft_trig_spec *sp)
{
	struct uft_hist_error he;
	uft_registry_set_clock = tfs_set_clock;
	/* A stack key unwinds at event time, signal handlers included: the
	 * unwinder is loaded first (any command naming a stack will do). */
	if (!sp->remove && strstr(sp->hist, "stacktrace"))
		uft_stack_prepare();
	int rc = uft_registry_hist_cmd(n->inst->buffer, n->sys, n->ev, sp->hist, sp->remove, &he);
	/* A snapshot() action takes the instance's snapshot as a snapshot
	 * trigger does: through the request the tree's thread serves. */
	if (rc == 0 && !sp->remove && uft_registry_hist_snapshots(n->inst->buffer)) {
		tfs_triggers_start_thread();
		if (tfs_snapshot_alloc(n->inst) != 0)
			return -ENOMEM;
	}
	if (rc == -ENOMEM || (rc == 0 && !he.n_prior))
		return rc;
	/* The command as the engine shows it: "hist:" + what follows. */
	const char *spec = sp->hist;
	if (strncmp(spec, "hist:", 5) == 0)
		spec += 5;
	else if (strcmp(spec, "hist") == 0)
		spec += 4;
	char *cmd;
	if (asprintf(&cmd, "hist:%s", spec) < 0)
		return -ENOMEM;
	log_hist_error(n, cmd, &he);
	free(cmd);
	return rc == -EOPNOTSUPP ? -EINVAL : rc;
}

const struct tfs_file tfs_hist_files[] = {
    /* under every event, the ftrace entries' too, as the kernel's */
    {.name = "hist",
     .dir = TFS_D_EVENT,
     .mode = 0444,
     .show = show_hist,
     .open = open_hist,
     .poll_events = poll_hist,
     .read_at = read_hist,
     .release = release_hist},
    {0},
};
