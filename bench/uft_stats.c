/* The only bench file that sees libuft's internal layout. */
#include <stdatomic.h>
#include <unistd.h>

#include "lib/runtime.h"
#include "uft_stats.h"

void bench_uft_counts(uint64_t *committed, uint64_t *dropped)
{
	const struct uft_wring *w = &uft_tls.lv[0];
	*committed = w->r ? w->entries : 0;
	*dropped = w->r ? w->dropped : 0;
}

int bench_uft_wait_drained(unsigned timeout_ms)
{
	struct uft_ring *r = uft_tls.lv[0].r;
	if (!r)
		return -1;
	for (unsigned waited = 0; waited < timeout_ms; waited++) {
		uint64_t p = atomic_load_explicit(&r->produced, memory_order_acquire);
		if (atomic_load_explicit(&r->consumed, memory_order_acquire) >= p)
			return 0;
		usleep(1000);
	}
	return -1;
}
