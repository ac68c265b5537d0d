# SPDX-License-Identifier: LGPL-2.1-or-later
"""uft_events: trace events defined at run time from Python.

A thin ctypes layer over libuft's user-events API (<uft/user_events.h>),
which has the shape of the kernel's user_events: a registration string
``NAME FIELD[;FIELD...]``, an enable flag that uft sets while the event is
enabled anywhere in the process's tracefs tree, and writes of payloads laid
out as the fields. No build step: the module finds libuft as the process
already has it (``uft record`` preloads it), else at $UFT_LIBUFT, else as
libuft.so.0 on the library path.

    import uft_events
    ev = uft_events.Event("request u32 status; __data_loc char[] path")
    if ev.enabled:
        ev.emit(status=200, path="/index.html")
"""

import ctypes
import os
import struct

__all__ = ["Event", "library"]

_NUM = {
    "u8": "B", "s8": "b", "u16": "H", "s16": "h", "u32": "I", "s32": "i",
    "u64": "Q", "s64": "q", "int": "i", "unsigned int": "I", "short": "h",
    "unsigned short": "H", "char": "b", "unsigned char": "B",
}
_HEADER = 8  # the common fields before the payload in a record

_lib = None


def library():
    """libuft, loaded once."""
    global _lib
    if _lib is None:
        path = os.environ.get("UFT_LIBUFT") or "libuft.so.0"
        lib = ctypes.CDLL(path, use_errno=True)
        lib.uft_user_event_register.argtypes = [
            ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_int,
            ctypes.POINTER(ctypes.c_int)]
        lib.uft_user_event_register.restype = ctypes.c_int
        lib.uft_user_event_unregister.argtypes = [ctypes.POINTER(ctypes.c_uint32), ctypes.c_int]
        lib.uft_user_event_unregister.restype = ctypes.c_int
        lib.uft_user_event_delete.argtypes = [ctypes.c_char_p]
        lib.uft_user_event_delete.restype = ctypes.c_int
        lib.uft_user_event_write_buf.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        lib.uft_user_event_write_buf.restype = ctypes.c_ssize_t
        lib.uft_user_event_refused.argtypes = [ctypes.c_int]
        lib.uft_user_event_refused.restype = ctypes.c_uint64
        _lib = lib
    return _lib


def _fields(definition):
    """(name, kind, type, size) of each field of a registration string."""
    rest = definition.strip().split(None, 1)
    out = []
    for text in (rest[1].split(";") if len(rest) > 1 else []):
        tok = text.split()
        if not tok:
            continue
        if tok[0] in ("__data_loc", "__rel_loc") and len(tok) == 3:
            out.append((tok[2], tok[0], tok[1], 4))
        elif tok[0] == "struct" and len(tok) == 4:
            out.append((tok[2], "struct", tok[1], int(tok[3])))
        elif len(tok) == 2 and tok[0].startswith("char[") and tok[0].endswith("]"):
            out.append((tok[1], "chars", tok[0], int(tok[0][5:-1])))
        elif len(tok) == 2 and tok[0] in _NUM:
            out.append((tok[1], "num", tok[0], struct.calcsize("<" + _NUM[tok[0]])))
        else:
            raise ValueError("unknown field %r" % text.strip())
    return out


def _raise(rc, what):
    raise OSError(-rc, "%s: %s" % (what, os.strerror(-rc)))


def _bytes(v):
    return v.encode() if isinstance(v, str) else bytes(v)


class Event:
    """One run-time event of system user_events, registered with an enable flag."""

    def __init__(self, definition):
        self.definition = definition
        self.name = definition.split()[0]
        self.fields = _fields(definition)
        self._word = ctypes.c_uint32(0)
        self._index = ctypes.c_int(-1)
        rc = library().uft_user_event_register(definition.encode(), ctypes.byref(self._word), 0,
                                               ctypes.byref(self._index))
        if rc:
            _raise(rc, definition)
        self.index = self._index.value

    @property
    def enabled(self):
        """True while the event is enabled anywhere in the process's tree."""
        return bool(self._word.value & 1)

    def payload(self, *args, **kwargs):
        """The payload bytes for these values (positional in field order, or by name)."""
        vals = dict(zip((f[0] for f in self.fields), args))
        vals.update(kwargs)
        fixed = sum(f[3] for f in self.fields)
        head, tail = b"", b""
        for name, kind, ftype, size in self.fields:
            v = vals.get(name, 0 if kind == "num" else b"")
            if kind == "num":
                head += struct.pack("<" + _NUM[ftype], v)
            elif kind in ("chars", "struct"):
                head += _bytes(v)[:size].ljust(size, b"\0")
            else:
                data = _bytes(v) + (b"\0" if "char" in ftype else b"")
                off = _HEADER + fixed + len(tail)
                if kind == "__rel_loc":
                    off -= _HEADER + len(head) + 4
                head += struct.pack("<I", off | (len(data) << 16))
                tail += data
        return head + tail

    def write(self, data):
        """Writes raw payload bytes; returns their size or a negative errno."""
        return library().uft_user_event_write_buf(self.index, data, len(data))

    def emit(self, *args, **kwargs):
        """Records one event with these field values (nothing while disabled)."""
        if not self.enabled:
            return 0
        rc = self.write(self.payload(*args, **kwargs))
        if rc < 0:
            _raise(rc, self.name)
        return rc

    def refused(self):
        """Payloads of this event refused so far."""
        return library().uft_user_event_refused(self.index)

    def close(self):
        """Forgets the enable flag; the event stays until deleted."""
        if self._index.value >= 0:
            library().uft_user_event_unregister(ctypes.byref(self._word), 0)
            self._index.value = -1

    def delete(self):
        """Closes, then deletes the event if nothing else uses it (0 or a negative errno)."""
        self.close()
        return library().uft_user_event_delete(self.name.encode())
