/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Events defined at run time (include/uft/user_events.h): a registration
 * string becomes a descriptor of system user_events, registered like a
 * synthetic event; the caller's enable bits follow the descriptor's enabled
 * flag through the registry's enable hook; a write copies the payload,
 * checks it as untrusted input and records it in every buffer the event
 * goes to.
 *
 * Locks: ue_lock (the events, their indexes) is taken before the registry's
 * lock; en_lock (the enable bits) is innermost: the enable hook takes it
 * under the registry's lock, and nothing is called while it is held.
 * Writers take no lock: the index table is read inside a grace section and a
 * deleted event is freed after a grace period. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine/uevent/uevent.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/secure_env.h"
#include "runtime/core/user_events.h"
#include "util/atomics.h"
#include "wire/env_names.h"
#include <uft/uft.h>
#include <uft/user_events.h>

#define UEV_MAX 1024 /* indexes */

struct uev {
	struct uft_event ev; /* first: the descriptor the hook is handed */
	struct uft_uev_def def;
	struct uft_field *fields;
	char *listing;
	volatile uint16_t gate;
	int index;
	bool enabled;		 /* as the hook last said (en_lock) */
	uint32_t nr_enablers;	 /* (en_lock) */
	uint64_t refused;	 /* atomic */
	int kindex;		 /* the kernel's write index, -1 when not registered there */
	volatile uint32_t kword; /* the kernel's enable bit 0 */
};

struct enabler {
	uint32_t *word;
	int bit;
	struct uev *ev;
};

static pthread_mutex_t ue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t en_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uev *volatile table[UEV_MAX];
static struct enabler *enablers;
static uint32_t nr_enablers, cap_enablers;
static uint64_t refused_all; /* atomic, including unknown indexes */
static const char uev_file[] = "user_events";
/* The kernel's user_events_data: -1 not tried, -2 refused. */
static int kfd = -1;

/* ---- the kernel's ABI (include/uapi/linux/user_events.h) ---- */
struct kuser_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((packed));
struct kuser_unreg {
	uint32_t size;
	uint8_t disable_bit;
	uint8_t reserved;
	uint16_t reserved2;
	uint64_t disable_addr;
} __attribute__((packed));
#define KDIAG_IOCSREG _IOWR('*', 0, struct kuser_reg *)
#define KDIAG_IOCSDEL _IOW('*', 1, char *)
#define KDIAG_IOCSUNREG _IOW('*', 2, struct kuser_unreg *)

static const char *const kpaths[] = {"/sys/kernel/tracing/user_events_data",
				     "/sys/kernel/debug/tracing/user_events_data"};

/* The kernel's user_events_data when the setting asks for it; says once
 * why not when it cannot be used. */
static int kernel_fd(void)
{
	if (kfd != -1)
		return kfd;
	const char *on = uft_env(UFT_ENV_USER_EVENTS_KERNEL);
	if (!on || strcmp(on, "1") != 0) {
		uft_env_report_ignored();
		kfd = -2;
		return kfd;
	}
	int err = ENOENT;
	for (size_t i = 0; i < sizeof(kpaths) / sizeof(kpaths[0]) && kfd < 0; i++) {
		kfd = open(kpaths[i], O_RDWR | O_CLOEXEC);
		if (kfd < 0 && errno != ENOENT)
			err = errno;
	}
	if (kfd < 0) {
		fprintf(stderr,
			"uft: user_events: " UFT_ENV_USER_EVENTS_KERNEL
			"=1, but the kernel's user_events_data cannot be opened (%s); events are "
			"recorded by uft alone\n",
			strerror(err));
		kfd = -2;
	}
	return kfd;
}

static void kernel_register(struct uev *u, const char *def)
{
	u->kindex = -1;
	int fd = kernel_fd();
	if (fd < 0)
		return;
	struct kuser_reg r = {.size = sizeof(r),
			      .enable_bit = 0,
			      .enable_size = 4,
			      .enable_addr = (uint64_t)(uintptr_t)&u->kword,
			      .name_args = (uint64_t)(uintptr_t)def};
	if (ioctl(fd, KDIAG_IOCSREG, &r) == 0)
		u->kindex = (int)r.write_index;
	else
		fprintf(stderr, "uft: user_events: the kernel refused %s: %s\n", u->def.name,
			strerror(errno));
}

static void kernel_unregister(struct uev *u)
{
	if (u->kindex < 0 || kfd < 0)
		return;
	struct kuser_unreg r = {
	    .size = sizeof(r), .disable_bit = 0, .disable_addr = (uint64_t)(uintptr_t)&u->kword};
	ioctl(kfd, KDIAG_IOCSUNREG, &r);
	ioctl(kfd, KDIAG_IOCSDEL, u->def.name);
}

/* ---- events ---- */

static void uev_free(void *p)
{
	struct uev *u = p;
	uft_uev_fields_free(u->fields, u->def.nr);
	free((char *)u->ev.print_fmt);
	free(u->listing);
	uft_uev_def_free(&u->def);
	free(u);
}

/* Sets or clears the bit in the caller's word. */
static void flip(const struct enabler *e, bool on)
{
	if (on)
		__atomic_fetch_or(e->word, 1u << e->bit, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(e->word, ~(1u << e->bit), __ATOMIC_RELEASE);
}

static void enable_hook(const struct uft_event *d, bool on)
{
	if (d->file != uev_file)
		return;
	struct uev *u = (struct uev *)d;
	pthread_mutex_lock(&en_lock);
	u->enabled = on;
	for (uint32_t i = 0; i < nr_enablers; i++)
		if (enablers[i].ev == u)
			flip(&enablers[i], on);
	pthread_mutex_unlock(&en_lock);
}

static struct uev *find_live(const char *name)
{
	for (int i = 0; i < UEV_MAX; i++)
		if (table[i] && strcmp(table[i]->def.name, name) == 0)
			return table[i];
	return NULL;
}

/* A new event from a parsed definition (taken over): 0 or a negative errno. */
static int create(struct uft_uev_def *def, const char *text, struct uev **out)
{
	int slot = -1;
	for (int i = 0; i < UEV_MAX && slot < 0; i++)
		if (!table[i])
			slot = i;
	if (slot < 0)
		return -ENOSPC;
	struct uev *u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->def = *def;
	memset(def, 0, sizeof(*def));
	u->fields = uft_uev_fields(&u->def);
	u->listing = uft_uev_listing(&u->def);
	u->ev.print_fmt = uft_uev_print_fmt(&u->def);
	if (!u->fields || !u->listing || !u->ev.print_fmt) {
		uev_free(u);
		return -ENOMEM;
	}
	u->ev.magic = UFT_EVENT_MAGIC;
	u->ev.style = UFT_STYLE_STRUCT;
	u->ev.gate = &u->gate;
	u->ev.system = UFT_UEV_SYSTEM;
	u->ev.name = u->def.name;
	u->ev.fields = u->fields;
	u->ev.nr_fields = u->def.nr;
	u->ev.fixed_size = u->def.size;
	u->ev.file = uev_file;
	u->index = slot;
	int rc = uft_registry_add_dynamic(&u->ev);
	if (rc) {
		uev_free(u);
		return rc;
	}
	kernel_register(u, text);
	smp_store_release(&table[slot], u);
	*out = u;
	return 0;
}

static void hook_once(void)
{
	uft_registry_enable_hook = enable_hook;
}

int uft_user_event_define(const char *def, struct uev **out, const char **why)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	uft_init();
	pthread_once(&once, hook_once);
	struct uft_uev_def d;
	int rc = uft_uev_parse(def, &d, why);
	if (rc)
		return rc;
	pthread_mutex_lock(&ue_lock);
	struct uev *u = find_live(d.name);
	if (u) {
		if (!uft_uev_same(&u->def, &d)) {
			rc = -EADDRINUSE;
			if (why)
				*why = "the event exists with other fields";
		}
		uft_uev_def_free(&d);
	} else {
		rc = create(&d, def, &u);
		uft_uev_def_free(&d);
	}
	pthread_mutex_unlock(&ue_lock);
	if (rc == 0 && out)
		*out = u;
	return rc;
}

UFT_EXPORT int uft_user_event_register(const char *def, uint32_t *enable_word, int bit,
				       int *write_index)
{
	if (!enable_word || !write_index || bit < 0 || bit > 31 || ((uintptr_t)enable_word & 3))
		return -EINVAL;
	pthread_mutex_lock(&en_lock);
	for (uint32_t i = 0; i < nr_enablers; i++) {
		if (enablers[i].word == enable_word && enablers[i].bit == bit) {
			pthread_mutex_unlock(&en_lock);
			return -EADDRINUSE;
		}
	}
	pthread_mutex_unlock(&en_lock);
	struct uev *u;
	int rc = uft_user_event_define(def, &u, NULL);
	if (rc)
		return rc;
	pthread_mutex_lock(&ue_lock); /* u stays live while it is held */
	pthread_mutex_lock(&en_lock);
	rc = 0;
	for (uint32_t i = 0; i < nr_enablers && !rc; i++)
		if (enablers[i].word == enable_word && enablers[i].bit == bit)
			rc = -EADDRINUSE; /* registered meanwhile */
	if (!rc && table[u->index] != u)
		rc = -ENOENT; /* deleted meanwhile */
	if (!rc && nr_enablers == cap_enablers) {
		uint32_t n = cap_enablers ? cap_enablers * 2 : 16;
		struct enabler *p = realloc(enablers, n * sizeof(*p));
		if (p) {
			enablers = p;
			cap_enablers = n;
		} else {
			rc = -ENOMEM;
		}
	}
	if (!rc) {
		enablers[nr_enablers++] = (struct enabler){enable_word, bit, u};
		u->nr_enablers++;
		flip(&enablers[nr_enablers - 1], u->enabled);
		*write_index = u->index;
	}
	pthread_mutex_unlock(&en_lock);
	pthread_mutex_unlock(&ue_lock);
	return rc;
}

UFT_EXPORT int uft_user_event_unregister(uint32_t *enable_word, int bit)
{
	int rc = -ENOENT;
	pthread_mutex_lock(&en_lock);
	for (uint32_t i = 0; i < nr_enablers; i++) {
		if (enablers[i].word != enable_word || enablers[i].bit != bit)
			continue;
		flip(&enablers[i], false);
		enablers[i].ev->nr_enablers--;
		enablers[i] = enablers[--nr_enablers];
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&en_lock);
	return rc;
}

int uft_user_event_remove(const char *name)
{
	if (!name)
		return -EINVAL;
	pthread_mutex_lock(&ue_lock);
	struct uev *u = find_live(name);
	int rc = u ? 0 : -ENOENT;
	if (u) {
		pthread_mutex_lock(&en_lock);
		if (u->nr_enablers)
			rc = -EBUSY;
		pthread_mutex_unlock(&en_lock);
	}
	if (!rc)
		rc = uft_registry_remove_dynamic(&u->ev, false);
	if (!rc) {
		smp_store_release(&table[u->index], NULL);
		kernel_unregister(u);
		uft_grace_defer(u, uev_free);
	}
	pthread_mutex_unlock(&ue_lock);
	return rc;
}

UFT_EXPORT int uft_user_event_delete(const char *name)
{
	int rc = uft_user_event_remove(name);
	uft_grace_reclaim(false); /* the end of this control operation */
	return rc;
}

int uft_user_event_delete_all(bool check_only)
{
	int rc = 0;
	pthread_mutex_lock(&ue_lock);
	for (int i = 0; i < UEV_MAX && !rc; i++) {
		struct uev *u = table[i];
		if (!u)
			continue;
		pthread_mutex_lock(&en_lock);
		if (u->nr_enablers)
			rc = -EBUSY;
		pthread_mutex_unlock(&en_lock);
		if (!rc)
			rc = uft_registry_remove_dynamic(&u->ev, true);
	}
	pthread_mutex_unlock(&ue_lock);
	if (rc || check_only)
		return rc;
	for (int i = 0; i < UEV_MAX; i++) {
		struct uev *u = table[i];
		if (u && (rc = uft_user_event_remove(u->def.name)) != 0)
			return rc;
	}
	return 0;
}

void uft_user_event_each(void (*fn)(void *ctx, const struct uft_user_event_info *info), void *ctx)
{
	pthread_mutex_lock(&ue_lock);
	for (int i = 0; i < UEV_MAX; i++) {
		struct uev *u = table[i];
		if (!u)
			continue;
		pthread_mutex_lock(&en_lock);
		bool busy = u->enabled;
		pthread_mutex_unlock(&en_lock);
		struct uft_user_event_info info = {u->def.name, u->listing, busy};
		fn(ctx, &info);
	}
	pthread_mutex_unlock(&ue_lock);
}

bool uft_user_event_exists(const char *name)
{
	pthread_mutex_lock(&ue_lock);
	bool r = find_live(name) != NULL;
	pthread_mutex_unlock(&ue_lock);
	return r;
}

static ssize_t refuse(struct uev *u, ssize_t rc)
{
	if (u)
		uft_add_return_relaxed(&u->refused, 1);
	uft_add_return_relaxed(&refused_all, 1);
	return rc;
}

UFT_EXPORT ssize_t uft_user_event_write(int write_index, const struct iovec *iov, int iovcnt)
{
	if (write_index < 0 || write_index >= UEV_MAX)
		return refuse(NULL, -ENOENT);
	if (iovcnt < 0 || iovcnt > IOV_MAX || (iovcnt && !iov))
		return refuse(NULL, -EINVAL);
	size_t total = 0;
	for (int i = 0; i < iovcnt; i++) {
		if (iov[i].iov_len && !iov[i].iov_base)
			return refuse(NULL, -EFAULT);
		if (iov[i].iov_len > UFT_UEV_RECORD_MAX || total > UFT_UEV_RECORD_MAX)
			total = UFT_UEV_RECORD_MAX + 1;
		else
			total += iov[i].iov_len;
	}
	uft_grace_enter();
	struct uev *u = smp_load_acquire(&table[write_index]);
	ssize_t rc = (ssize_t)total;
	if (!u) {
		rc = refuse(NULL, -ENOENT);
		goto out;
	}
	if (total > UFT_UEV_RECORD_MAX - 8) {
		rc = refuse(u, -E2BIG);
		goto out;
	}
	/* The record is built and checked in a copy, so that nothing another
	 * thread changes in the caller's memory meanwhile gets past the check. */
	uint8_t rec[UFT_UEV_RECORD_MAX];
	uint32_t len = 8;
	for (int i = 0; i < iovcnt; i++) {
		memcpy(rec + len, iov[i].iov_base, iov[i].iov_len);
		len += (uint32_t)iov[i].iov_len;
	}
	int v = uft_uev_validate(&u->def, rec, len);
	if (v) {
		rc = refuse(u, v);
		goto out;
	}
	if (u->kindex >= 0 && (READ_ONCE(u->kword) & 1)) {
		uint32_t ki = (uint32_t)u->kindex;
		struct iovec kv[2] = {{&ki, sizeof(ki)}, {rec + 8, len - 8}};
		if (writev(kfd, kv, 2) < 0)
			(void)0; /* the kernel's copy is best effort */
	}
	if (!uft_event_targets(&u->ev))
		goto out;
	struct uft_rsv rsv;
	for (uint8_t *r = uft_reserve(&rsv, &u->ev, len); r; r = uft_reserve_next(&rsv)) {
		memcpy(r + 8, rec + 8, len - 8);
		uft_commit(&rsv);
	}
out:
	uft_grace_exit();
	return rc;
}

UFT_EXPORT ssize_t uft_user_event_write_buf(int write_index, const void *payload, size_t len)
{
	struct iovec v = {(void *)payload, len};
	return uft_user_event_write(write_index, &v, 1);
}

UFT_EXPORT uint64_t uft_user_event_refused(int write_index)
{
	if (write_index < 0)
		return __atomic_load_n(&refused_all, __ATOMIC_RELAXED);
	if (write_index >= UEV_MAX)
		return 0;
	uft_grace_enter();
	struct uev *u = smp_load_acquire(&table[write_index]);
	uint64_t n = u ? __atomic_load_n(&u->refused, __ATOMIC_RELAXED) : 0;
	uft_grace_exit();
	return n;
}
