#!/usr/bin/env python3
"""A structural check of vm-templates/windows-sqlserver-setup.ps1 (issue 23 item 7).

Debian carries no PowerShell, so nothing here can parse or run the script. This is a list of
what a reading can check, not a parser:
  - strings closed ('...' with '' inside, "..." with `" and "" inside and $( ... ) nested),
    and (), {}, [] balanced outside strings and comments, each closer matching its opener;
  - every $variable read is assigned somewhere in the file (=, foreach, a function's
    parameter) or is one of PowerShell's automatic ones: a typo Set-StrictMode would stop
    only on the guest;
  - no Invoke-Expression / iex, no dot-sourcing or & of a data file, no password on a
    command line (sqlcmd -P / -U);
  - what the setup must do (issue 23 B5, item 5): the under-test disk online and writable,
    D:, the database created pre-sized and attached FOR ATTACH, the recovery model set.

  ps1.py FILE...          check the files; file:line: what, per problem; exit 1 on any
  ps1.py --self-test FILE  also plant each rule's example in FILE's text and expect a finding
"""
import re
import sys

AUTOMATIC = {"_", "true", "false", "null", "lastexitcode", "erroractionpreference", "args", "psitem",
             "pscmdlet", "input", "matches", "error", "env", "pwd", "home", "host"}
REQUIRED = [
    (r"Set-Disk\b[^\n]*-IsOffline \$false", "brings the under-test disk online (Set-Disk -IsOffline $false)"),
    (r"Set-Disk\b[^\n]*-IsReadOnly \$false", "makes it writable (Set-Disk -IsReadOnly $false)"),
    (r"-DriveLetter D\b", "gives it drive letter D:"),
    (r"-NewDriveLetter D\b", "puts D: back on a restored clone"),
    (r"SerialNumber[^\n]*'dbrig-undertest'", "finds the disk by its serial dbrig-undertest"),
    (r"FOR ATTACH", "attaches the cloned database (CREATE DATABASE ... FOR ATTACH)"),
    (r"SIZE = \$\(\$p\.data_size_mb\)MB", "pre-sizes the data file"),
    (r"SIZE = \$\(\$p\.log_size_mb\)MB", "pre-sizes the log file"),
    (r"SET RECOVERY", "sets the recovery model"),
    (r"sp_configure 'max server memory \(MB\)'", "applies max_server_memory_mb"),
]
FORBIDDEN = [
    (r"(?i)\bInvoke-Expression\b|(?<![\w-])iex\b", "Invoke-Expression runs text as code"),
    (r"(?im)^\s*\.\s+\$|&\s*\$conf\b", "dot-sourcing or calling a data file runs it as code"),
    (r"(?i)sqlcmd(\.exe)?\b[^\n]*\s-[PU]\s", "a password or login on sqlcmd's command line"),
]
PAIRS = {")": "(", "}": "{", "]": "["}


def scan(text):
    """Yield (line, kind, value) for code characters outside strings and comments; check strings close."""
    problems, code = [], []  # code: (line, char)
    i, n, line = 0, len(text), 1

    def quoted(i, line, start_line, q):
        # inside a '...' or "..." string: returns the index after its closing quote; a doubled
        # quote is one quote; in "...", ` escapes and $( ... ) is code
        while i < n:
            c = text[i]
            if c == "\n":
                line += 1
            if q == '"' and c == "`":
                i += 2
                continue
            if c == q:
                if i + 1 < n and text[i + 1] == q:
                    i += 2
                    continue
                return i + 1, line
            if q == '"' and c == "$" and i + 1 < n and text[i + 1] == "(":
                i, line = sub(i + 2, line)
                continue
            i += 1
        problems.append((start_line, "a %s...%s string is not closed" % (q, q)))
        return n, line

    def sub(i, line):
        # inside $( ... ) within a string: code until the matching )
        depth = 1
        while i < n:
            c = text[i]
            if c == "\n":
                line += 1
            if c in "'\"":
                i, line = quoted(i + 1, line, line, c)
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1, line
            code.append((line, c))
            i += 1
        return n, line

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "<" and text.startswith("<#", i):
            j = text.find("#>", i)
            if j < 0:
                problems.append((line, "a <# comment is not closed"))
                break
            line += text.count("\n", i, j)
            i = j + 2
            continue
        if c == "`":
            i += 2
            continue
        if c in "'\"":
            i, line = quoted(i + 1, line, line, c)
            continue
        code.append((line, c))
        i += 1
    stack = []
    for ln, c in code:
        if c in "({[":
            stack.append((ln, c))
        elif c in ")}]":
            if not stack or stack[-1][1] != PAIRS[c]:
                problems.append((ln, "%s closes nothing open (or the wrong bracket)" % c))
                return problems
            stack.pop()
    for ln, c in stack:
        problems.append((ln, "%s is never closed" % c))
    return problems


def strip_comments(text):
    out = []
    for ln in text.split("\n"):
        m = re.match(r"^(\s*)#", ln)
        out.append("" if m else ln)
    return "\n".join(out)


def check(path, text):
    found = ["%s:%d: %s" % (path, ln, what) for ln, what in scan(text)]
    body = strip_comments(text)
    assigned = set(AUTOMATIC)
    for m in re.finditer(r"\$(\w+)\s*(?:\+|-)?=(?!=)", body):
        assigned.add(m.group(1).lower())
    for m in re.finditer(r"(?i)foreach\s*\(\s*\$(\w+)\s+in\b", body):
        assigned.add(m.group(1).lower())
    for m in re.finditer(r"(?i)function\s+[\w-]+\s*\(([^)]*)\)", body):
        for v in re.findall(r"\$(\w+)", m.group(1)):
            assigned.add(v.lower())
    for no, ln in enumerate(body.split("\n"), 1):
        for m in re.finditer(r"\$(\w+)", ln):
            v = m.group(1).lower()
            if v not in assigned and not ln[max(0, m.start() - 1):m.start()] == "`":
                found.append("%s:%d: $%s is read but never assigned" % (path, no, m.group(1)))
    for pat, why in FORBIDDEN:
        for m in re.finditer(pat, body):
            found.append("%s:%d: %s" % (path, body.count("\n", 0, m.start()) + 1, why))
    for pat, what in REQUIRED:
        if not re.search(pat, body):
            found.append("%s: nothing %s" % (path, what))
    return found


def self_test(path, text):
    plants = [
        ("an unclosed brace", text.replace("foreach ($line in Get-Content -LiteralPath $conf) {",
                                           "foreach ($line in Get-Content -LiteralPath $conf) { {", 1)),
        ("an unclosed string", text.replace("'C:\\dbrig\\setup.log'", "'C:\\dbrig\\setup.log", 1)),
        ("a mistyped variable", text.replace("Set-Disk -Number $disk.Number -IsOffline", "Set-Disk -Number $dsik.Number -IsOffline", 1)),
        ("Invoke-Expression", text + "\nInvoke-Expression (Get-Content $conf)\n"),
        ("a dot-sourced data file", text + "\n. $conf\n"),
        ("a password on sqlcmd's command line", text + "\n& sqlcmd.exe -S $server -U sa -P $p.db_password\n"),
        ("no FOR ATTACH", text.replace("FOR ATTACH", "")),
        ("the disk left offline", text.replace("-IsOffline $false", "-IsOffline $true", 1)),
        ("no recovery model", text.replace("SET RECOVERY", "SET PARTNER")),
    ]
    bad = 0
    for what, planted in plants:
        if planted == text:
            print("%s: self-test: cannot plant %s (the script changed?)" % (path, what))
            bad += 1
        elif not check(path, planted):
            print("%s: self-test: %s planted, not found" % (path, what))
            bad += 1
    return bad


def main():
    args = sys.argv[1:]
    selftest = bool(args) and args[0] == "--self-test"
    if selftest:
        args = args[1:]
    if not args:
        sys.exit(__doc__)
    bad = 0
    for path in args:
        text = open(path, encoding="utf-8").read()
        for f in check(path, text):
            print(f)
            bad += 1
        if selftest:
            bad += self_test(path, text)
    if bad:
        sys.exit(1)
    print("ps1: %d file(s): strings and brackets close, variables assigned, required steps present%s"
          % (len(args), ", self-test caught every planted fault" if selftest else ""))


if __name__ == "__main__":
    main()
