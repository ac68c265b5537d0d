#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Regenerates src/proctrace/syscall_table_gen.c: the x86_64 system calls by
number with their kernel event names and argument fields, as the kernel's
syscalls:sys_enter_NAME format files give them.

Numbers come from <asm/unistd_64.h> plus scripts/syscalls_extra_x86_64.txt
(calls newer than the installed headers); fields from the running kernel's
tracefs (events/syscalls/sys_enter_*/format). Run it on a machine whose tracefs
is readable; builds use the committed output and never read tracefs.

Beside the kernel's fields it decides the text decoding (process-tracer.md,
"Formats and the syscall table"): which arguments are user strings the tracer
reads (from the field's type and name, reviewed below), which are shown by
name through __print_flags()/__print_symbolic() (tables by syscall and
argument name; the numbers are the x86_64 uapi headers' values), which calls
return an address (shown in hex) and the errno names of the exits.
Usage: scripts/gen_proctrace_syscalls.py [UNISTD_H] [TRACEFS]"""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
unistd = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/x86_64-linux-gnu/asm/unistd_64.h"
tracefs = sys.argv[2] if len(sys.argv) > 2 else "/sys/kernel/tracing"
out = os.path.join(root, "src/proctrace/syscall_table_gen.c")

# The header's name -> the name of the kernel's SYSCALL_DEFINE (its events).
RENAME = {"stat": "newstat", "fstat": "newfstat", "lstat": "newlstat",
          "uname": "newuname", "sendfile": "sendfile64", "umount2": "umount"}

nrs = {}
with open(unistd) as f:
    for line in f:
        m = re.match(r"#define __NR_(\w+)\s+(\d+)\s*$", line)
        if m:
            nrs[int(m.group(2))] = m.group(1)
with open(os.path.join(here, "syscalls_extra_x86_64.txt")) as f:
    for line in f:
        line = line.split("#")[0].split()
        if len(line) == 2 and int(line[1]) not in nrs:
            nrs[int(line[1])] = line[0]


def fields(event):
    path = os.path.join(tracefs, "events/syscalls", event, "format")
    try:
        text = open(path).read()
    except OSError:
        return None
    res = []
    for m in re.finditer(r"field:([^;]*);\toffset:(\d+);\tsize:(\d+);\tsigned:(\d);", text):
        decl = m.group(1)
        name = decl.rsplit(" ", 1)[1]
        typ = decl[: -len(name)].rstrip()
        if name.startswith("common_") or name == "__syscall_nr":
            continue
        off, size, signed = int(m.group(2)), int(m.group(3)), int(m.group(4))
        # every argument is a long slot after the int __syscall_nr
        if size != 8 or signed != 0 or off != 16 + 8 * len(res):
            sys.exit(f"{event}: field {name} is not an 8-byte argument slot")
        res.append((typ, name))
    return res


rows = []
missing = []
for nr in sorted(nrs):
    name = nrs[nr]
    ev = RENAME.get(name, name)
    args = fields("sys_enter_" + ev)
    if args is None:
        missing.append(name)
    rows.append((nr, name, ev, args))
if len(missing) > 40:
    sys.exit(f"tracefs at {tracefs} has no syscall events for {len(missing)} calls")


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- text decoding ----

# User strings read from the tracee: `const char *`/`char *` arguments with
# these names, NUL-terminated names of files or objects. Left out on purpose:
# buffers with a length (buf, list, optval, sethostname's name), message
# pointers, execve's argv/envp (arrays of pointers), keys.
STRING_ARGS = {"filename", "pathname", "path", "oldname", "newname", "specialfile",
               "special", "dir_name", "dev_name", "new_root", "put_old",
               "from_pathname", "to_pathname", "u_name", "uname", "_fs_name",
               "_type", "_description"}
# `name` is a path for these, an extended attribute's name for the xattr
# calls; elsewhere (sethostname, setdomainname) it has a length, not a NUL.
STRING_NAME_CALLS = {"acct", "umount", "getxattr", "lgetxattr", "fgetxattr", "setxattr",
                     "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
                     "fremovexattr", "getxattrat", "setxattrat", "removexattrat"}
# mount's `type` is the file system's name.
STRING_EXTRA = {("mount", "type")}


def is_string(ev, typ, name):
    if typ not in ("const char *", "char *"):
        return False
    if name == "name":
        return ev in STRING_NAME_CALLS
    return name in STRING_ARGS or (ev, name) in STRING_EXTRA


def syms(pairs):
    return ", ".join('{0x%x, %s}' % (v, cstr(n)) for v, n in pairs)


def flags_then(zero_name, base, base_mask, flag_pairs):
    """`BASE|FLAG|FLAG`: a symbolic value in the bits of base_mask (or, with
    base None, the zero_name when the whole value is 0), a '|' only when both
    parts print, then the flags of the other bits, unknown bits in hex."""
    rest = 0xffffffff & ~base_mask
    if base is None:
        head = '__print_symbolic(@ == 0, {0x0, ""}, {0x1, %s})' % cstr(zero_name)
        return ("%s%s", head + ', __print_flags(@ & 0x%x, "|", %s)' % (rest, syms(flag_pairs)))
    sep = "(@ & 0x%x) != 0" % rest
    if all(v for v, _ in base):  # no name for 0: the base may print nothing
        sep = "(@ & 0x%x) != 0 && %s" % (base_mask, sep)
    return ("%s%s%s",
            "__print_symbolic(@ & 0x%x, %s), " % (base_mask, syms(base)) +
            '__print_symbolic(%s, {0x0, ""}, {0x1, "|"}), ' % sep +
            '__print_flags(@ & 0x%x, "|", %s)' % (rest, syms(flag_pairs)))


# include/uapi/asm-generic/fcntl.h (x86_64 has the generic values), composites first.
O_FLAGS = [(0x410000, "O_TMPFILE"), (0x101000, "O_SYNC"), (0x40, "O_CREAT"), (0x80, "O_EXCL"),
           (0x100, "O_NOCTTY"), (0x200, "O_TRUNC"), (0x400, "O_APPEND"), (0x800, "O_NONBLOCK"),
           (0x1000, "O_DSYNC"), (0x2000, "O_ASYNC"), (0x4000, "O_DIRECT"),
           (0x8000, "O_LARGEFILE"), (0x10000, "O_DIRECTORY"), (0x20000, "O_NOFOLLOW"),
           (0x40000, "O_NOATIME"), (0x80000, "O_CLOEXEC"), (0x200000, "O_PATH")]
O_ACC = [(0, "O_RDONLY"), (1, "O_WRONLY"), (2, "O_RDWR")]
# include/uapi/asm-generic/mman-common.h, arch/x86/include/uapi/asm/mman.h
PROT = [(0x1, "PROT_READ"), (0x2, "PROT_WRITE"), (0x4, "PROT_EXEC"), (0x8, "PROT_SEM"),
        (0x1000000, "PROT_GROWSDOWN"), (0x2000000, "PROT_GROWSUP")]
MAP = [(0x3, "MAP_SHARED_VALIDATE"), (0x1, "MAP_SHARED"), (0x2, "MAP_PRIVATE"),
       (0x10, "MAP_FIXED"), (0x20, "MAP_ANONYMOUS"), (0x40, "MAP_32BIT"),
       (0x100, "MAP_GROWSDOWN"), (0x800, "MAP_DENYWRITE"), (0x1000, "MAP_EXECUTABLE"),
       (0x2000, "MAP_LOCKED"), (0x4000, "MAP_NORESERVE"), (0x8000, "MAP_POPULATE"),
       (0x10000, "MAP_NONBLOCK"), (0x20000, "MAP_STACK"), (0x40000, "MAP_HUGETLB"),
       (0x80000, "MAP_SYNC"), (0x100000, "MAP_FIXED_NOREPLACE")]
# <linux/sched.h>; the low byte of clone's flags is the exit signal.
CLONE = [(0x100, "CLONE_VM"), (0x200, "CLONE_FS"), (0x400, "CLONE_FILES"),
         (0x800, "CLONE_SIGHAND"), (0x1000, "CLONE_PIDFD"), (0x2000, "CLONE_PTRACE"),
         (0x4000, "CLONE_VFORK"), (0x8000, "CLONE_PARENT"), (0x10000, "CLONE_THREAD"),
         (0x20000, "CLONE_NEWNS"), (0x40000, "CLONE_SYSVSEM"), (0x80000, "CLONE_SETTLS"),
         (0x100000, "CLONE_PARENT_SETTID"), (0x200000, "CLONE_CHILD_CLEARTID"),
         (0x400000, "CLONE_DETACHED"), (0x800000, "CLONE_UNTRACED"),
         (0x1000000, "CLONE_CHILD_SETTID"), (0x2000000, "CLONE_NEWCGROUP"),
         (0x4000000, "CLONE_NEWUTS"), (0x8000000, "CLONE_NEWIPC"),
         (0x10000000, "CLONE_NEWUSER"), (0x20000000, "CLONE_NEWPID"),
         (0x40000000, "CLONE_NEWNET"), (0x80000000, "CLONE_IO")]
# <asm/signal.h>; real-time signals as strace names the kernel's numbers.
SIGNALS = [(1, "SIGHUP"), (2, "SIGINT"), (3, "SIGQUIT"), (4, "SIGILL"), (5, "SIGTRAP"),
           (6, "SIGABRT"), (7, "SIGBUS"), (8, "SIGFPE"), (9, "SIGKILL"), (10, "SIGUSR1"),
           (11, "SIGSEGV"), (12, "SIGUSR2"), (13, "SIGPIPE"), (14, "SIGALRM"), (15, "SIGTERM"),
           (16, "SIGSTKFLT"), (17, "SIGCHLD"), (18, "SIGCONT"), (19, "SIGSTOP"), (20, "SIGTSTP"),
           (21, "SIGTTIN"), (22, "SIGTTOU"), (23, "SIGURG"), (24, "SIGXCPU"), (25, "SIGXFSZ"),
           (26, "SIGVTALRM"), (27, "SIGPROF"), (28, "SIGWINCH"), (29, "SIGIO"), (30, "SIGPWR"),
           (31, "SIGSYS"), (32, "SIGRTMIN")] + [(32 + k, "SIGRT_%d" % k) for k in range(1, 33)]
# <linux/fs.h> SEEK_*, <linux/socket.h> AF_*, <linux/net.h> SOCK_*
WHENCE = [(0, "SEEK_SET"), (1, "SEEK_CUR"), (2, "SEEK_END"), (3, "SEEK_DATA"), (4, "SEEK_HOLE")]
FAMILY = [(0, "AF_UNSPEC"), (1, "AF_UNIX"), (2, "AF_INET"), (4, "AF_IPX"), (5, "AF_APPLETALK"),
          (10, "AF_INET6"), (15, "AF_KEY"), (16, "AF_NETLINK"), (17, "AF_PACKET"),
          (29, "AF_CAN"), (31, "AF_BLUETOOTH"), (38, "AF_ALG"), (40, "AF_VSOCK"),
          (44, "AF_XDP")]
SOCK_TYPE = [(1, "SOCK_STREAM"), (2, "SOCK_DGRAM"), (3, "SOCK_RAW"), (4, "SOCK_RDM"),
             (5, "SOCK_SEQPACKET"), (6, "SOCK_DCCP"), (10, "SOCK_PACKET")]
SOCK_FLAGS = [(0x800, "SOCK_NONBLOCK"), (0x80000, "SOCK_CLOEXEC")]
# access()'s modes F_OK 0, X_OK 1, W_OK 2, R_OK 4: every combination.
ACCESS = [(0, "F_OK")] + [(m, "|".join(n for b, n in ((4, "R_OK"), (2, "W_OK"), (1, "X_OK"))
                                      if m & b)) for m in range(1, 8)]

# name -> (conversions, arguments with @ for the field's value)
DECODERS = {
    "dfd": ("%s", '__print_symbolic(@, {0xffffff9c, "AT_FDCWD"})'),
    "open_flags": flags_then(None, O_ACC, 0x3, O_FLAGS),
    "prot": flags_then("PROT_NONE", None, 0, PROT),
    "mmap_flags": ("%s", '__print_flags(@, "|", %s)' % syms(MAP)),
    "clone_flags": ("%s%s%s", '__print_flags(@ & 0xffffff00, "|", %s), ' % syms(CLONE) +
                    '__print_symbolic((@ & 0xffffff00) != 0 && (@ & 0xff) != 0, {0x0, ""}, '
                    '{0x1, "|"}), __print_symbolic(@ & 0xff, {0x0, ""}, %s)' % syms(SIGNALS)),
    "access_mode": ("%s", "__print_symbolic(@, %s)" % syms(ACCESS)),
    "signal": ("%s", '__print_symbolic(@, {0x0, "0"}, %s)' % syms(SIGNALS)),
    "whence": ("%s", "__print_symbolic(@, %s)" % syms(WHENCE)),
    "family": ("%s", "__print_symbolic(@, %s)" % syms(FAMILY)),
    "sock_type": flags_then(None, SOCK_TYPE, 0xf, SOCK_FLAGS),
}
SIG_CALLS = ("kill", "tkill", "tgkill", "rt_sigaction", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
             "pidfd_send_signal")
RULES = {("open", "flags"): "open_flags", ("openat", "flags"): "open_flags",
         ("execveat", "fd"): "dfd",
         ("mmap", "prot"): "prot", ("mprotect", "prot"): "prot", ("pkey_mprotect", "prot"): "prot",
         ("mmap", "flags"): "mmap_flags", ("clone", "clone_flags"): "clone_flags",
         ("access", "mode"): "access_mode", ("faccessat", "mode"): "access_mode",
         ("faccessat2", "mode"): "access_mode", ("lseek", "whence"): "whence",
         ("socket", "family"): "family", ("socketpair", "family"): "family",
         ("socket", "type"): "sock_type", ("socketpair", "type"): "sock_type"}
RULES.update({(c, "sig"): "signal" for c in SIG_CALLS})
# Calls whose return value is an address: shown in hex.
RET_HEX = {"mmap", "mremap", "brk", "shmat"}


def decoder(ev, typ, name):
    d = RULES.get((ev, name))
    if not d and name in ("dfd", "olddfd", "newdfd") and typ == "int":
        d = "dfd"
    return d


# include/uapi/asm-generic/errno-base.h, include/uapi/asm-generic/errno.h and
# include/linux/errno.h (the kernel's restart codes a tracer sees at an exit).
ERRNO = ["EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF",
         "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV",
         "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY",
         "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK",
         "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP", None, "ENOMSG", "EIDRM",
         "ECHRNG", "EL2NSYNC", "EL3HLT", "EL3RST", "ELNRNG", "EUNATCH", "ENOCSI", "EL2HLT",
         "EBADE", "EBADR", "EXFULL", "ENOANO", "EBADRQC", "EBADSLT", None, "EBFONT", "ENOSTR",
         "ENODATA", "ETIME", "ENOSR", "ENONET", "ENOPKG", "EREMOTE", "ENOLINK", "EADV",
         "ESRMNT", "ECOMM", "EPROTO", "EMULTIHOP", "EDOTDOT", "EBADMSG", "EOVERFLOW",
         "ENOTUNIQ", "EBADFD", "EREMCHG", "ELIBACC", "ELIBBAD", "ELIBSCN", "ELIBMAX",
         "ELIBEXEC", "EILSEQ", "ERESTART", "ESTRPIPE", "EUSERS", "ENOTSOCK", "EDESTADDRREQ",
         "EMSGSIZE", "EPROTOTYPE", "ENOPROTOOPT", "EPROTONOSUPPORT", "ESOCKTNOSUPPORT",
         "EOPNOTSUPP", "EPFNOSUPPORT", "EAFNOSUPPORT", "EADDRINUSE", "EADDRNOTAVAIL",
         "ENETDOWN", "ENETUNREACH", "ENETRESET", "ECONNABORTED", "ECONNRESET", "ENOBUFS",
         "EISCONN", "ENOTCONN", "ESHUTDOWN", "ETOOMANYREFS", "ETIMEDOUT", "ECONNREFUSED",
         "EHOSTDOWN", "EHOSTUNREACH", "EALREADY", "EINPROGRESS", "ESTALE", "EUCLEAN",
         "ENOTNAM", "ENAVAIL", "EISNAM", "EREMOTEIO", "EDQUOT", "ENOMEDIUM", "EMEDIUMTYPE",
         "ECANCELED", "ENOKEY", "EKEYEXPIRED", "EKEYREVOKED", "EKEYREJECTED", "EOWNERDEAD",
         "ENOTRECOVERABLE", "ERFKILL", "EHWPOISON"]
RESTART = [(512, "ERESTARTSYS"), (513, "ERESTARTNOINTR"), (514, "ERESTARTNOHAND"),
           (515, "ENOIOCTLCMD"), (516, "ERESTART_RESTARTBLOCK")]
ERRNO_ALL = [(i + 1, n) for i, n in enumerate(ERRNO) if n] + RESTART
# Every syscall's own exit event carries the format: the common errors only
# (the base ones and the first of the others, up to ELOOP); the raw sys_exit has
# them all. A number outside a table shows no name.
ERRNO_SHORT_MAX = 40


def errno_arg(limit, pairs):
    """The errno name of `ret` as " (ENAME)", "" when ret is not an error or
    not in the table: a negative value in [-4095, -1] is an error."""
    guard = "REC->ret + 4095 < 4095"
    if limit:
        guard += " && 0 - REC->ret <= %d" % limit
    # (the condition in parentheses: libtraceevent binds `?` tighter than `&&`)
    return ("__print_symbolic((%s) ? 0 - REC->ret : 0, {0x0, \"\"}, %s)"
            % (guard, ", ".join('{0x%x, " (%s)"}' % (v, n) for v, n in pairs)))


with open(out, "w") as f:
    f.write("/* SPDX-License-Identifier: GPL-2.0-or-later */\n")
    f.write("/* x86_64 system calls by number: the kernel's event name (syscalls:sys_enter_NAME),\n"
            " * its argument fields as the kernel's format files declare them, and how the\n"
            " * text shows them (strings read from the tracee, flag and symbol names).\n"
            " * Generated by scripts/gen_proctrace_syscalls.py; do not edit. */\n")
    f.write('#include "proctrace/syscall_table.h"\n\n')
    f.write("/* clang-format off */\n")
    names = sorted(DECODERS)
    f.write("const struct pt_decoder pt_decoders[] = {\n\t{NULL, NULL},\n")
    for n in names:
        conv, args = DECODERS[n]
        f.write(f"\t{{{cstr(conv)}, {cstr(args)}}}, /* {n} */\n")
    f.write("};\n\n")
    f.write("const char pt_errno_short[] =\n\t%s;\n" % cstr(
        errno_arg(ERRNO_SHORT_MAX, [p for p in ERRNO_ALL if p[0] <= ERRNO_SHORT_MAX])))
    f.write("const char pt_errno_all[] =\n\t%s;\n\n" % cstr(errno_arg(0, ERRNO_ALL)))
    f.write("const struct pt_syscall pt_syscalls[] = {\n")
    nstr = 0
    for nr, name, ev, args in rows:
        if args is None:
            f.write(f"\t{{{nr}, {cstr(name)}, NULL, 0, {{}}, {{}}, 0, {{}}, 0}},\n")
            continue
        types = ", ".join(cstr(t) for t, _ in args)
        anames = ", ".join(cstr(n) for _, n in args)
        strs = sum(1 << i for i, (t, n) in enumerate(args) if is_string(ev, t, n))
        nstr += bin(strs).count("1")
        decs = [decoder(ev, t, n) for t, n in args]
        dec = ", ".join(str(names.index(d) + 1 if d else 0) for d in decs)
        hexret = int(ev in RET_HEX)
        f.write(f"\t{{{nr}, {cstr(name)}, {cstr(ev)}, {len(args)}, {{{types}}}, {{{anames}}}, "
                f"0x{strs:x}, {{{dec}}}, {hexret}}},\n")
    f.write("};\n/* clang-format on */\n\n")
    f.write("const unsigned pt_nr_syscalls = sizeof(pt_syscalls) / sizeof(pt_syscalls[0]);\n")
print(f"{out}: {len(rows)} calls, {nstr} string arguments, {len(missing)} without a kernel "
      f"event: {' '.join(missing)}")
