#!/usr/bin/python3
"""Parse every statement and procedure of `dbrig tpcc --print-sql --dialect=D` with
sqlfluff's grammar for that dialect (Debian's sqlfluff 1.4.5), then the negative controls,
which the same check must reject.

usage: sqlfluff_check.py DIALECT PRINT_SQL_FILE CONTROLS_FILE

DIALECT is the sqlfluff dialect (tsql, mysql, postgres). PRINT_SQL_FILE is --print-sql's
output: ';'-ended statements, "-- procedure: NAME" blocks up to the next block or the
"-- cleanup" header. CONTROLS_FILE holds one statement per line that is not valid in the
dialect. The '?' markers become what the driver sends or sqlfluff can read: @P1..@Pn for
tsql (msodbcsql's sp_prepexec), @P1.. for mysql (user variables), 1 for postgres
(sqlfluff 1.4.5 lexes no $n). sqlfluff 1.4.5's mysql and postgres grammars have no
locking clause: " FOR UPDATE" is removed before a mysql or postgres parse (never tsql,
where it is the negative control).
Prints one line per failure and a summary; exits 1 if a statement fails or a control parses.
"""
import multiprocessing
import re
import sys


def pieces(text):
    """(label, sql) of every statement and procedure of --print-sql's output."""
    out, cur, proc, name, section = [], [], None, None, ""
    for line in text.split("\n"):
        if line.startswith("-- procedure: "):
            if proc is not None:
                out.append(("procedure " + proc, "\n".join(cur)))
            proc, cur = line[len("-- procedure: "):], []
            continue
        if line.startswith("-- cleanup") and proc is not None:
            out.append(("procedure " + proc, "\n".join(cur)))
            proc, cur = None, []
        if proc is not None:
            cur.append(line)
            continue
        if line.startswith("-- "):
            if line.startswith("-- dbrig ") or line.startswith("-- after ") or line.startswith("-- on every") \
                    or line.startswith("-- statements") or line.startswith("-- cleanup"):
                section = line[3:].split(" (")[0]
            else:
                name = line[3:]
            continue
        if not line.strip():
            continue
        cur.append(line)
        if line.endswith(";"):
            out.append(("%s %s" % (section, name or len(out) + 1), "\n".join(cur)))
            cur, name = [], None
    if proc is not None:
        out.append(("procedure " + proc, "\n".join(cur)))
    return out


def normalise(dialect, sql):
    k = [0]

    def marker(_):
        k[0] += 1
        return "1" if dialect == "postgres" else "@P%d" % k[0]
    sql = re.sub(r"\?", marker, sql)
    if dialect in ("mysql", "postgres"):
        sql = sql.replace(" FOR UPDATE", "")
    return sql


def parse(args):
    dialect, label, sql = args
    import sqlfluff
    from sqlfluff.api.simple import APIParsingError
    try:
        sqlfluff.parse(normalise(dialect, sql), dialect=dialect)
        return label, None
    except APIParsingError as e:
        return label, " ".join(str(e).split("\n")[1:2])[:160]
    except Exception as e:  # a lexer failure is a rejection too
        return label, "%s: %s" % (type(e).__name__, str(e)[:140])


def main():
    dialect, printed, controls = sys.argv[1:4]
    stmts = pieces(open(printed).read())
    ctrl = [l for l in open(controls).read().split("\n") if l.strip()]
    # A control made of one of the dialect's own statements, misspelt: the
    # check must see the statements it is given.
    first = stmts[0][1]
    ctrl.append(first.replace("CREATE TABLE", "CREATE TABEL", 1))
    jobs = [(dialect, l, s) for l, s in stmts] + [(dialect, "control %d" % i, s) for i, s in enumerate(ctrl)]
    with multiprocessing.Pool(2) as pool:
        results = pool.map(parse, jobs, chunksize=1)
    bad = 0
    for (label, err), job in zip(results, jobs):
        is_control = label.startswith("control ")
        if is_control and err is None:
            print("FAIL %s: %s parsed although it is not %s: %s" % (dialect, label, dialect, job[2][:120]))
            bad += 1
        elif not is_control and err is not None:
            print("FAIL %s: %s: %s" % (dialect, label, err))
            bad += 1
    ok = [l for l, err in results if err is None and not l.startswith("control ")]
    nproc = sum(1 for l in ok if l.startswith("procedure "))
    rejected = sum(1 for l, err in results if err is not None and l.startswith("control "))
    print("sqlfluff %s: %d of %d statements and procedures parsed (%d procedures), %d of %d controls rejected"
          % (dialect, len(ok), len(stmts), nproc, rejected, len(ctrl)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
