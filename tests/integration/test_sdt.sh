#!/bin/bash
# Every typed event carries a SystemTap SDT note whose semaphore is the event's
# gate, so perf, bpftrace and gdb find uft's tracepoints.
set -euo pipefail
B=${UFT_BUILD:-build}
command -v readelf >/dev/null || { echo "readelf not installed"; exit 77; }
notes=$(readelf -n "$B/bin/demo")
for ev in request worker_state batch; do
	grep -B1 "Name: $ev\$" <<<"$notes" | grep -q "Provider: demo" ||
		{ echo "no SDT note for demo:$ev"; exit 1; }
	sem=$(grep -A2 "Name: $ev\$" <<<"$notes" | sed -nE 's/.*Semaphore: (0x[0-9a-f]+).*/\1/p')
	[ -n "$sem" ] && [ "$((sem))" -ne 0 ] || { echo "demo:$ev has no semaphore"; exit 1; }
done
# the semaphore is the gate symbol in .probes
nm "$B/bin/demo" | grep -q ' demo_request_semaphore$'
readelf -S "$B/bin/demo" | grep -q '\.probes'
echo ok
