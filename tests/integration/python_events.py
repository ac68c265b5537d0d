# SPDX-License-Identifier: GPL-2.0-or-later
"""Driven by test_python_events.sh. `check`: defines an event from Python,
follows its enable flag while `uft ctl` enables it in this very process, and
reads the records back from the process's tree byte for byte. `emit`:
defines the event and emits a fixed series while it is enabled (under
`uft record`)."""
import os
import subprocess
import sys
import time

import uft_events

UFT = os.environ["UFT"]
DEF = "pyev u32 n; s64 delta; char[8] tag; __data_loc char[] msg; __rel_loc char[] note"
ROWS = [(1, -2, "py", "hello", "a"), (2, 1 << 40, "abcdefgh", "", "note two"),
        (300, 0, "x", "with spaces and = signs", "")]


def ctl(*args):
    r = subprocess.run([UFT, "ctl", "-p", str(os.getpid())] + list(args), capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit("FAIL: uft ctl %s: %s" % (" ".join(args), r.stderr))
    return r.stdout


def expect(what, got, want):
    if got != want:
        sys.exit("FAIL: %s:\n--- got\n%s--- expected\n%s---" % (what, got, want))


def bodies(text):
    return "".join(l.split(": ", 1)[1] + "\n" for l in text.splitlines()
                   if not l.startswith("#") and " pyev: " in l)


def want_lines():
    return "".join("pyev: n=%d delta=%d tag=%s msg=%s note=%s\n" % r for r in ROWS)


def wait_for_socket():
    """The control socket is made by a thread libuft starts when loaded."""
    for _ in range(300):
        r = subprocess.run([UFT, "ctl", "-p", str(os.getpid()), "ls"], capture_output=True)
        if r.returncode == 0:
            return
        time.sleep(0.1)
    sys.exit("FAIL: no control socket after 30 s")


def check():
    ev = uft_events.Event(DEF)
    wait_for_socket()
    expect("enabled before", ev.enabled, False)
    fmt = ctl("cat", "events/user_events/pyev/format")
    evid = ctl("cat", "events/user_events/pyev/id").strip()
    expect("format", fmt,
           "name: pyev\nID: %s\nformat:\n"
           "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
           "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
           "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
           "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
           "\tfield:u32 n;\toffset:8;\tsize:4;\tsigned:0;\n"
           "\tfield:s64 delta;\toffset:12;\tsize:8;\tsigned:1;\n"
           "\tfield:char tag[8];\toffset:20;\tsize:8;\tsigned:1;\n"
           "\tfield:__data_loc char[] msg;\toffset:28;\tsize:4;\tsigned:1;\n"
           "\tfield:__rel_loc char[] note;\toffset:32;\tsize:4;\tsigned:1;\n\n"
           "print fmt: \"n=%%u delta=%%lld tag=%%s msg=%%s note=%%s\", REC->n, REC->delta, "
           "REC->tag, __get_str(msg), __get_rel_str(note)\n" % evid)
    expect("dynamic_events", ctl("cat", "dynamic_events"), "u:" + DEF + "\n")
    # Disabled: emit records nothing.
    expect("emit while disabled", ev.emit(*ROWS[0]), 0)
    ctl("write", "events/user_events/pyev/enable", "1")
    expect("enabled after enable", ev.enabled, True)
    expect("status", ctl("cat", "user_events_status"), "pyev # Used by ftrace\n\nActive: 1\nBusy: 1\n")
    for r in ROWS:
        ev.emit(*r)
    expect("trace", bodies(ctl("cat", "trace")), want_lines())
    # The payload's bytes are the record's, after the common header.
    p = ev.payload(*ROWS[0])
    expect("payload size", ev.write(p), len(p))
    # Hostile payloads are refused, counted, and record nothing.
    ctl("write", "trace", "")
    before = ev.refused()
    expect("short", ev.write(p[:20]), -22)
    bad = bytearray(p)
    bad[20] += 100  # msg's offset (payload byte 20) past the end
    expect("bad data_loc", ev.write(bytes(bad)), -14)
    expect("oversize", ev.write(p + b"\0" * 5000), -7)
    expect("refused", ev.refused() - before, 3)
    expect("trace after hostile writes", bodies(ctl("cat", "trace")), "")
    ctl("write", "events/user_events/pyev/enable", "0")
    expect("enabled after disable", ev.enabled, False)
    # Busy while registered; deleted once closed.
    r = subprocess.run([UFT, "ctl", "-p", str(os.getpid()), "write", "-a", "dynamic_events",
                        "-:pyev"], capture_output=True, text=True)
    if r.returncode == 0:
        sys.exit("FAIL: -:pyev accepted while registered")
    expect("delete", ev.delete(), 0)
    expect("dynamic_events after delete", ctl("cat", "dynamic_events"), "")
    print("python events: ok")


def emit():
    ev = uft_events.Event(DEF)
    if not ev.enabled:
        sys.exit("FAIL: not enabled under uft record -e user_events:pyev")
    for r in ROWS:
        ev.emit(*r)


if __name__ == "__main__":
    {"check": check, "emit": emit}[sys.argv[1]]()
