#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Reads a Perfetto protobuf trace with the field numbers the export uses
# (docs/design/export.md) and prints what it holds, one sorted line per
# fact, for the tests to compare: process and thread tracks, counter
# tracks, slices begun per thread and name, slices ended per thread,
# instants per thread and name with their annotation names, counter values.
# Checks on the way that every packet is on sequence 1, that interned names
# are defined before use, and that each thread's slices nest once sorted
# by time. Exit 1 with a message on anything malformed.
import sys
from collections import Counter, defaultdict


def varint(b, i):
    v = s = 0
    while True:
        if i >= len(b):
            raise ValueError("truncated varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return v, i


def fields(b):
    """(field, wire type, value) of one message; LEN values as bytes."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 1:
            v, i = b[i:i + 8], i + 8
        elif w == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise ValueError("truncated field %d" % f)
            v, i = b[i:i + n], i + n
        elif w == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % w)
        yield f, w, v


def one(b, f):
    for g, _, v in fields(b):
        if g == f:
            return v
    return None


def sint(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def main():
    data = open(sys.argv[1], "rb").read()
    out = []
    names = {}
    tracks = {}  # uuid -> label
    events = []  # (ts, order, uuid, kind, name, annotations)
    counters = defaultdict(list)
    for order, (f, w, pkt) in enumerate(fields(data)):
        if f != 1 or w != 2:
            raise ValueError("Trace field %d is not a packet" % f)
        if one(pkt, 10) != 1:
            raise ValueError("packet not on sequence 1")
        interned = one(pkt, 12)
        if interned is not None:
            for g, _, en in fields(interned):
                if g == 2:
                    names[one(en, 1)] = one(en, 2).decode()
        td = one(pkt, 60)
        if td is not None:
            uuid = one(td, 1)
            proc, thr = one(td, 3), one(td, 4)
            if proc is not None:
                label = "%d %s" % (one(proc, 1), one(proc, 6).decode())
                out.append("process " + label)
            elif thr is not None:
                label = "%d %s" % (one(thr, 2), one(thr, 5).decode())
                out.append("thread %d %s" % (one(thr, 1), label))
            else:
                label = one(td, 2).decode()
                out.append("counter-track %s%s" % (label, "" if one(td, 8) is None else " (counter)"))
            tracks[uuid] = label
        te = one(pkt, 11)
        if te is not None:
            ts = one(pkt, 8)
            kind, uuid = one(te, 9), one(te, 11)
            if uuid not in tracks:
                raise ValueError("event on undescribed track %x" % uuid)
            name = None
            if one(te, 10) is not None:
                if one(te, 10) not in names:
                    raise ValueError("name iid %d used before it is interned" % one(te, 10))
                name = names[one(te, 10)]
            elif one(te, 23) is not None:
                name = one(te, 23).decode()
            annos = [one(a, 10).decode() for g, _, a in fields(te) if g == 4]
            if kind == 4:
                counters[tracks[uuid]].append(sint(one(te, 30)))
            events.append((ts, order, tracks[uuid], kind, name, annos))
    events.sort()
    depth = Counter()
    tally = Counter()
    for ts, _, track, kind, name, annos in events:
        if kind == 1:
            depth[track] += 1
            tally["begin %s %s" % (track, name)] += 1
        elif kind == 2:
            depth[track] -= 1
            if depth[track] < 0:
                raise ValueError("slice end without begin on %s at %d" % (track, ts))
            tally["end %s" % track] += 1
        elif kind == 3:
            tally["instant %s %s [%s]" % (track, name, ",".join(annos))] += 1
    for t, d in depth.items():
        if d:
            raise ValueError("%d slices left open on %s" % (d, t))
    out += ["%s x%d" % (k, n) for k, n in tally.items()]
    out += ["counter %s %s" % (k, ",".join(map(str, v))) for k, v in counters.items()]
    print("\n".join(sorted(out)))


try:
    main()
except (ValueError, AttributeError, UnicodeDecodeError) as e:
    print("perfetto_summary: %s" % e, file=sys.stderr)
    sys.exit(1)
