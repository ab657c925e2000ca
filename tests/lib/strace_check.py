#!/usr/bin/env python3
"""What a process really did, from an `strace -f` log (Python standard library only).

  strace_check.py atomic LOG PATH...
      each PATH was written atomically: opened only as PATH.tmp.<suffix> (the
      12 random hex digits of core/fileio.c, created O_EXCL) for writing, that
      descriptor fsynced, closed, then renamed to PATH, then the folder
      fsynced; PATH itself never opened for writing.
      (strace -f -e trace=openat,close,fsync,fdatasync,rename)
  strace_check.py journal LOG PATH
      every line of the journal PATH was flushed on its own: as many
      fdatasync calls on its descriptor as PATH has lines.
  strace_check.py argv LOG SECRET...
      no SECRET appears in the argv of any execve (the environment may hold
      it: that is how MYSQL_PWD is passed). (strace -f -v -s 65535 -e trace=execve)
"""
import os
import re
import sys

ERR = []
LINE = re.compile(r"^(\d+)\s+(.*)$")


def calls(log):
    """(pid, name, args, result) in order, unfinished/resumed pairs joined."""
    pending = {}
    out = []
    for raw in open(log, errors="replace"):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        pid, rest = int(m.group(1)), m.group(2)
        if rest.endswith("<unfinished ...>"):
            pending[pid] = rest[: -len("<unfinished ...>")]
            continue
        r = re.match(r"^<\.\.\. (\w+) resumed>(.*)$", rest)
        if r:
            rest = pending.pop(pid, r.group(1) + "(") + r.group(2)
        c = re.match(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)", rest)
        if c:
            out.append((pid, c.group(1), c.group(2), c.group(3)))
    return out


def strings(args):
    """The double-quoted strings of an argument list, unescaped."""
    return [bytes(s, "utf-8").decode("unicode_escape") for s in re.findall(r'"((?:[^"\\]|\\.)*)"', args)]


def atomic(log, paths):
    cs = calls(log)
    for path in paths:
        ap = os.path.abspath(path)
        ok = False
        for k, (pid, name, args, res) in enumerate(cs):
            if name != "rename" or res != "0":
                continue
            s = strings(args)
            if len(s) != 2 or os.path.abspath(s[1]) != ap:
                continue
            tmp = s[0]
            if not re.fullmatch(re.escape(path if not os.path.isabs(tmp) else ap) + r"\.tmp\.[0-9a-f]+", tmp) and \
                    not re.fullmatch(re.escape(ap) + r"\.tmp\.[0-9a-f]+", os.path.abspath(tmp)):
                ERR.append("%s: renamed from %s, not from %s.tmp.<suffix>" % (path, tmp, path))
                continue
            # the open of the temporary file, its fsync and close, all before the rename
            fd = None
            steps = []
            for pid2, n2, a2, r2 in cs[:k]:
                if pid2 != pid:
                    continue
                if n2 == "openat" and strings(a2) and os.path.abspath(strings(a2)[0]) == os.path.abspath(tmp):
                    if "O_WRONLY" in a2 and "O_CREAT" in a2:
                        fd, steps = r2, ["open"]
                elif fd is not None and n2 in ("fsync", "fdatasync", "close") and a2.split(",")[0].strip() == fd:
                    steps.append(n2)
                    if n2 == "close":
                        break
            if steps[:1] != ["open"] or "fsync" not in steps or steps[-1:] != ["close"]:
                ERR.append("%s: temporary file not opened, fsynced and closed before the rename (saw %s)" % (path, steps))
                continue
            # the folder fsynced after the rename
            dfd = None
            for pid2, n2, a2, r2 in cs[k + 1:]:
                if pid2 != pid:
                    continue
                if n2 == "openat" and "O_DIRECTORY" in a2 and strings(a2) and \
                        os.path.abspath(strings(a2)[0]) == os.path.dirname(ap):
                    dfd = r2
                elif dfd is not None and n2 == "fsync" and a2.strip() == dfd:
                    ok = True
                    break
            if not ok:
                ERR.append("%s: its folder was not fsynced after the rename" % path)
            break
        else:
            ERR.append("%s: never renamed into place" % path)
        for pid, name, args, res in cs:
            s = strings(args)
            if name == "openat" and s and os.path.abspath(s[0]) == ap and ("O_WRONLY" in args or "O_RDWR" in args):
                ERR.append("%s: opened for writing in place (%s)" % (path, args))
        if ok:
            print("strace_check: %s: temporary file, fsync, rename, folder fsync" % path)


def journal(log, path):
    cs = calls(log)
    ap = os.path.abspath(path)
    lines = sum(1 for _ in open(path))
    fd, n, opened = None, 0, 0
    for pid, name, args, res in cs:
        s = strings(args)
        if name == "openat" and s and os.path.abspath(s[0]) == ap:
            if "O_APPEND" not in args or "O_WRONLY" not in args:
                ERR.append("%s: opened without O_WRONLY|O_APPEND (%s)" % (path, args))
            fd, opened = res, opened + 1
        elif fd is not None and name == "fdatasync" and args.strip() == fd:
            n += 1
        elif fd is not None and name == "close" and args.strip() == fd:
            fd = None
    if opened != 1:
        ERR.append("%s: opened %d times" % (path, opened))
    if n != lines:
        ERR.append("%s: %d lines but %d fdatasync calls: lines were not flushed one by one" % (path, lines, n))
    else:
        print("strace_check: %s: %d lines, each flushed with its own fdatasync" % (path, lines))


def argv(log, secrets):
    n = 0
    for pid, name, args, res in calls(log):
        if name != "execve":
            continue
        n += 1
        # execve("path", [argv...], [env...]): the argv list is the first [...]
        m = re.match(r'^"(?:[^"\\]|\\.)*",\s*\[(.*?)\](?:,\s*\[|,\s*0x|,\s*NULL|$)', args)
        av = m.group(1) if m else args
        for sec in secrets:
            if sec and sec in av:
                ERR.append("execve of pid %d has the secret in its argv: %s" % (pid, av[:300]))
    if n == 0:
        ERR.append("no execve traced in %s" % log)
    print("strace_check: %d execve calls, no secret in any argv" % n)
    return n


def main(a):
    if len(a) < 3:
        sys.exit(__doc__)
    if a[1] == "atomic":
        atomic(a[2], a[3:])
    elif a[1] == "journal":
        journal(a[2], a[3])
    elif a[1] == "argv":
        argv(a[2], a[3:])
    else:
        sys.exit(__doc__)
    for e in ERR:
        print("strace_check: FAIL: " + e, file=sys.stderr)
    return 1 if ERR else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
