#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every typed event carries a SystemTap SDT note whose semaphore is the event's
# gate, so perf, bpftrace and gdb find uft's tracepoints.
set -euo pipefail
B=${UFT_BUILD:-build}
command -v readelf >/dev/null || { echo "readelf not installed"; exit 77; }
notes=$(readelf -n "$B/bin/demo")
for ev in request worker_state batch; do
	note=$(grep -B1 -A2 "Name: $ev\$" <<<"$notes" || true)
	[[ $note == *"Provider: demo"* ]] || { echo "no SDT note for demo:$ev"; exit 1; }
	# two probe sites (the whole writer, and the slow path that inline call
	# sites take), one semaphore
	sems=$(sed -nE 's/.*Semaphore: (0x[0-9a-f]+).*/\1/p' <<<"$note" | sort -u)
	[ "$(grep -c 'Location:' <<<"$note")" -eq 2 ] || { echo "demo:$ev: not 2 probe sites"; exit 1; }
	[ "$(wc -l <<<"$sems")" -eq 1 ] || { echo "demo:$ev: probe sites with different semaphores"; exit 1; }
	[ -n "$sems" ] && [ "$((sems))" -ne 0 ] || { echo "demo:$ev has no semaphore"; exit 1; }
done
# the semaphore is the gate symbol, in .probes
syms=$(nm "$B/bin/demo")
[[ $syms == *" demo_request_semaphore"* ]] || { echo "no demo_request_semaphore"; exit 1; }
sections=$(readelf -S "$B/bin/demo")
[[ $sections == *".probes"* ]] || { echo "no .probes section"; exit 1; }
echo ok
