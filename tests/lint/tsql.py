#!/usr/bin/env python3
"""T-SQL traps: what sqlfluff's tsql grammar parses but SQL Server refuses.

No SQL Server runs where dbrig is built, and sqlfluff (tests/integration/
tpcc_sqlfluff.sh) checks grammar, not what the server compiles: it accepts an
aggregate over a subquery (Msg 130 on every version), DROP ... IF EXISTS (2016+),
and other dialects' syntax it happens to know. This is a list of known traps
over sql/mssql/*.sql, not a server: a statement it passes may still fail.

Comments and string literals are blanked first (line numbers kept), so a rule
matches code only. One line per finding: FILE:LINE: RULE: what, and the fix.

  tsql.py [--target=2014] [DIR]   check DIR (default: sql/mssql of this checkout)
  tsql.py --self-test             also plant each rule's example in a copy of DIR
                                  and expect that rule, at that line, to fail it
Exit 0 clean, 1 findings (or a failed self-test), 2 usage.
"""
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

AGGREGATES = ("AVG", "CHECKSUM_AGG", "COUNT", "COUNT_BIG", "GROUPING", "GROUPING_ID", "MAX", "MIN",
              "STDEV", "STDEVP", "SUM", "VAR", "VARP", "STRING_AGG", "APPROX_COUNT_DISTINCT")
AGG_CALL = re.compile(r"\b(" + "|".join(AGGREGATES) + r")\s*\(", re.I)

# (id, first SQL Server version that takes it (0: none does), regex, what and the fix, example)
# The example is one line planted by --self-test; the rule must report it.
RULES = [
    ("drop-if-exists", 2016, r"\bDROP\s+\w+\s+IF\s+EXISTS\b",
     "DROP ... IF EXISTS is SQL Server 2016+; write IF OBJECT_ID(N'x', N'U') IS NOT NULL DROP TABLE x",
     "DROP TABLE IF EXISTS warehouse;"),
    ("create-or-alter", 2016, r"\bCREATE\s+OR\s+ALTER\b",
     "CREATE OR ALTER is SQL Server 2016 SP1+; drop (OBJECT_ID) and CREATE",
     "CREATE OR ALTER PROCEDURE p AS SELECT 1;"),
    ("string-agg", 2017, r"\bSTRING_AGG\s*\(", "STRING_AGG is SQL Server 2017+",
     "SELECT STRING_AGG(w_name, ',') FROM warehouse;"),
    ("trim", 2017, r"\bTRIM\s*\(", "TRIM is SQL Server 2017+; write LTRIM(RTRIM(x))",
     "SELECT TRIM(w_name) FROM warehouse;"),
    ("concat-ws", 2017, r"\bCONCAT_WS\s*\(", "CONCAT_WS is SQL Server 2017+; write CONCAT",
     "SELECT CONCAT_WS(',', w_name, w_city) FROM warehouse;"),
    ("translate", 2017, r"\bTRANSLATE\s*\(", "TRANSLATE is SQL Server 2017+",
     "SELECT TRANSLATE(w_name, 'ab', 'cd') FROM warehouse;"),
    ("string-split", 2016, r"\bSTRING_SPLIT\s*\(", "STRING_SPLIT is SQL Server 2016+",
     "SELECT value FROM STRING_SPLIT('1,2', ',');"),
    ("json", 2016, r"\b(OPENJSON|JSON_VALUE|JSON_QUERY|JSON_MODIFY|ISJSON)\s*\(", "the JSON functions are SQL Server 2016+",
     "SELECT JSON_VALUE(w_name, '$.a') FROM warehouse;"),
    ("datediff-big", 2016, r"\bDATEDIFF_BIG\s*\(", "DATEDIFF_BIG is SQL Server 2016+",
     "SELECT DATEDIFF_BIG(ms, o_entry_d, CURRENT_TIMESTAMP) FROM orders;"),
    ("at-time-zone", 2016, r"\bAT\s+TIME\s+ZONE\b", "AT TIME ZONE is SQL Server 2016+",
     "SELECT o_entry_d AT TIME ZONE 'UTC' FROM orders;"),
    ("session-context", 2016, r"\bSESSION_CONTEXT\s*\(", "SESSION_CONTEXT is SQL Server 2016+",
     "SELECT SESSION_CONTEXT(N'a');"),
    ("greatest-least", 2022, r"\b(GREATEST|LEAST)\s*\(", "GREATEST and LEAST are SQL Server 2022+; write CASE",
     "SELECT GREATEST(w_tax, w_ytd) FROM warehouse;"),
    ("generate-series", 2022, r"\b(GENERATE_SERIES|DATETRUNC|DATE_BUCKET)\s*\(",
     "GENERATE_SERIES, DATETRUNC and DATE_BUCKET are SQL Server 2022+",
     "SELECT value FROM GENERATE_SERIES(1, 10);"),
    ("distinct-from", 2022, r"\bIS\s+(NOT\s+)?DISTINCT\s+FROM\b", "IS [NOT] DISTINCT FROM is SQL Server 2022+",
     "SELECT 1 FROM warehouse WHERE w_tax IS DISTINCT FROM w_ytd;"),
    ("seq-key", 2019, r"\bOPTIMIZE_FOR_SEQUENTIAL_KEY\b", "OPTIMIZE_FOR_SEQUENTIAL_KEY is SQL Server 2019+",
     "CREATE INDEX ix ON orders (o_id) WITH (OPTIMIZE_FOR_SEQUENTIAL_KEY = ON);"),
    ("limit", 0, r"\bLIMIT\b", "LIMIT is not T-SQL; write TOP (n) ... ORDER BY",
     "SELECT w_id FROM warehouse ORDER BY w_id LIMIT 1;"),
    ("backquote", 0, r"`", "backquotes are not T-SQL; write the name bare or in [brackets]",
     "SELECT `w_id` FROM warehouse;"),
    ("auto-increment", 0, r"\bAUTO_INCREMENT\b", "AUTO_INCREMENT is not T-SQL; write IDENTITY(1,1)",
     "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY);"),
    ("on-duplicate-key", 0, r"\bON\s+DUPLICATE\s+KEY\b", "ON DUPLICATE KEY is not T-SQL; write MERGE or UPDATE then INSERT",
     "INSERT INTO tpcc_meta (m_name, m_value) VALUES ('a', 'b') ON DUPLICATE KEY UPDATE m_value = 'b';"),
    ("pipe-concat", 0, r"\|\|", "|| is not T-SQL concatenation; write + or CONCAT",
     "SELECT w_name || w_city FROM warehouse;"),
    ("now", 0, r"\bNOW\s*\(", "NOW() is not T-SQL; write CURRENT_TIMESTAMP or SYSDATETIME()",
     "SELECT NOW();"),
    ("ifnull", 0, r"\bIFNULL\s*\(", "IFNULL is not T-SQL; write COALESCE or ISNULL",
     "SELECT IFNULL(w_tax, 0) FROM warehouse;"),
    ("for-update", 0, r"\bFOR\s+UPDATE\b(?!\s+OF\s)", "FOR UPDATE outside a cursor is not T-SQL; write WITH (UPDLOCK, ROWLOCK)",
     "SELECT w_tax FROM warehouse WHERE w_id = 1 FOR UPDATE;"),
    ("returning", 0, r"\bRETURNING\b", "RETURNING is not T-SQL; write OUTPUT",
     "DELETE FROM new_order WHERE no_o_id = 1 RETURNING no_o_id;"),
    ("pg-cast", 0, r"(?<!:)::(?!:)\s*[A-Za-z_]", "::type casts are not T-SQL; write CAST(x AS type)",
     "SELECT w_tax::INTEGER FROM warehouse;"),
]

AGG_RULE = ("aggregate-nest", 0, None,
            "an aggregate over a subquery or another aggregate: SQL Server refuses it on every version "
            "(Msg 130); aggregate in a derived table and join it",
            ("SELECT COUNT_BIG(CASE WHEN EXISTS (SELECT 1 FROM orders o WHERE o.o_d_id = d.d_id) "
             "THEN 1 END) FROM district d;",
             "SELECT SUM(CASE WHEN d_ytd > AVG(d_ytd) OVER () THEN 1 END) FROM district;"))


def blank(text):
    """Comments and string literals replaced by spaces; newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "-" and text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            j = i + 1
            while j < n:
                if text[j] == "'":
                    if j + 1 < n and text[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            j = min(j + 1, n)
            out.append("'" + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + ("'" if j - i > 1 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def close_paren(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return len(code)


def check_text(text, target):
    """[(line, rule id, message)] for one file's text."""
    code = blank(text)
    found = []

    def line_of(pos):
        return code.count("\n", 0, pos) + 1

    for rid, since, rx, msg, _ in RULES:
        if since and since <= target:
            continue
        for m in re.finditer(rx, code, re.I):
            found.append((line_of(m.start()), rid, msg))
    for m in AGG_CALL.finditer(code):
        open_at = m.end() - 1
        inner = code[open_at + 1:close_paren(code, open_at)]
        if re.search(r"\bSELECT\b", inner, re.I) or AGG_CALL.search(inner):
            found.append((line_of(m.start()), AGG_RULE[0], m.group(1).upper() + "(...): " + AGG_RULE[3]))
    return sorted(set(found))


def check_dir(d, target, shown=None):
    """Prints every finding; returns how many."""
    shown = shown or d
    bad = 0
    names = sorted(f for f in os.listdir(d) if f.endswith(".sql"))
    if not names:
        print(f"{shown}: no .sql file", file=sys.stderr)
        return 1
    for name in names:
        with open(os.path.join(d, name), encoding="utf-8") as f:
            text = f.read()
        for line, rid, msg in check_text(text, target):
            print(f"{os.path.join(shown, name)}:{line}: {rid}: {msg}")
            bad += 1
    return bad


def self_test(d, target):
    """Each rule's example planted at the end of a copy of statements.sql (after the
    real statements, so line numbers are known) must be reported by that rule, at
    that line; the untouched copy must be clean. Returns failures."""
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "mssql")
        shutil.copytree(d, copy)
        victim = os.path.join(copy, "statements.sql")
        with open(victim, encoding="utf-8") as f:
            orig = f.read()
        if not orig.endswith("\n"):
            orig += "\n"
        line = orig.count("\n") + 2
        rules = [r for r in RULES if not (r[1] and r[1] <= target)] + [AGG_RULE]
        for rid, _, _, _, examples in rules:
            for example in (examples,) if isinstance(examples, str) else examples:
                with open(victim, "w", encoding="utf-8") as f:
                    f.write(orig + "-- planted by tsql.py --self-test\n" + example + "\n")
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    check_dir(copy, target, "copy")
                want = f"copy/statements.sql:{line}: {rid}: "
                if not any(x.startswith(want) for x in out.getvalue().splitlines()):
                    print(f"self-test: rule {rid} missed its example at statements.sql:{line}: {example}")
                    fails += 1
                # The same example inside a comment and inside a string is not code.
                for wrap in ("-- " + example, "SELECT '" + example.replace("'", "''") + "';"):
                    if any(g[1] == rid for g in check_text(orig + wrap + "\n", target)):
                        print(f"self-test: rule {rid} fired on its example quoted out of code: {wrap}")
                        fails += 1
        with open(victim, "w", encoding="utf-8") as f:
            f.write(orig)
        if check_dir(copy, target, "copy") != 0:
            print("self-test: the untouched copy is not clean")
            fails += 1
    print(f"self-test: {len(rules)} rules, {fails} failures", file=sys.stderr)
    return fails


def main(argv):
    target, selft, d = 2014, False, os.path.join(ROOT, "sql", "mssql")
    for a in argv:
        if a == "--self-test":
            selft = True
        elif a.startswith("--target="):
            v = a[len("--target="):]
            if not v.isdigit() or int(v) not in (2014, 2016, 2017, 2019, 2022):
                print(f"tsql.py: --target: \"{v}\" is not a SQL Server version (expected 2014, 2016, 2017, 2019 or 2022)",
                      file=sys.stderr)
                return 2
            target = int(v)
        elif a.startswith("-"):
            print(f"tsql.py: unknown option \"{a}\" (expected --target=YEAR or --self-test)", file=sys.stderr)
            return 2
        else:
            d = a
    shown = os.path.relpath(d, ROOT) if os.path.abspath(d).startswith(ROOT + os.sep) else d
    bad = check_dir(d, target, shown)
    if selft and self_test(d, target):
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
