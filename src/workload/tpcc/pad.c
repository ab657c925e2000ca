/*
 * `dbrig tpcc prepare --pad-to=BYTES`: widen customer, stock and order_line
 * so that a warehouse takes about BYTES (docs/tpcc.md, "Scale fidelity").
 * A CHAR(n) NOT NULL DEFAULT '' column per table (MySQL: CHAR(255) columns
 * in latin1, a byte a character, as many as n needs; PostgreSQL: STORAGE
 * PLAIN, so that TOAST does not compress the blanks away), added after the
 * tables are created and before the load, which does not name it. n per
 * table so that each of the three grows by the same factor, from the bytes
 * per warehouse measured without padding (tests/integration/tpcc_size.sh;
 * SQL Server's computed), as docs/tpcc.md's table gives them.
 */
#include "workload/tpcc/tpcc.h"

#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>

#define MIB (1024.0 * 1024.0)

/* Unpadded MiB per warehouse: customer (with its index), stock, order_line, the whole warehouse. */
static const double base_mib[TPCC_DIALECT_COUNT][TPCC_PAD_TABLES + 1] = {
	[TPCC_MYSQL] = {19.5, 33.5, 24.3, 82.5},
	[TPCC_POSTGRESQL] = {20.2, 36.1, 36.4, 99.5},
	[TPCC_MSSQL] = {19.6, 31.6, 22.1, 77.0},
};
/* Rows per warehouse (clause 4.3.3.1; order_line: 30,000 orders of 10 lines on average). */
static const double rows[TPCC_PAD_TABLES] = {30000, 100000, 300000};
static const char *const tables[TPCC_PAD_TABLES] = {"customer", "stock", "order_line"};
static const char *const prefix[TPCC_PAD_TABLES] = {"c", "s", "ol"};

uint64_t tpcc_pad_base(enum tpcc_dialect d)
{
	return (uint64_t)(base_mib[d][TPCC_PAD_TABLES] * MIB);
}

int tpcc_pad_widths(enum tpcc_dialect d, uint64_t to, unsigned width[TPCC_PAD_TABLES], char *err, size_t n)
{
	uint64_t base = tpcc_pad_base(d), max = TPCC_PAD_MAX_FACTOR * base;
	double three = 0, g;

	for (unsigned t = 0; t < TPCC_PAD_TABLES; t++)
		width[t] = 0;
	if (to == 0)
		return 0;
	if (to < base || to > max) {
		snprintf(err, n,
			 "--pad-to=%llu: %s the %s dialect's %llu bytes per warehouse without padding "
			 "(expected 0 for none or %llu..%llu, at most %u times that)",
			 (unsigned long long)to, to < base ? "smaller than" : "absurdly larger than",
			 tpcc_dialect_name(d), (unsigned long long)base, (unsigned long long)base,
			 (unsigned long long)max, TPCC_PAD_MAX_FACTOR);
		return -1;
	}
	for (unsigned t = 0; t < TPCC_PAD_TABLES; t++)
		three += base_mib[d][t] * MIB;
	/* The three tables' common factor g: (g - 1) * three is what the padding adds. */
	g = 1.0 + (double)(to - base) / three;
	for (unsigned t = 0; t < TPCC_PAD_TABLES; t++)
		width[t] = (unsigned)((g - 1.0) * base_mib[d][t] * MIB / rows[t] + 0.5);
	return 0;
}

unsigned tpcc_pad_sql(enum tpcc_dialect d, const unsigned width[TPCC_PAD_TABLES], char *out[TPCC_PAD_STMTS_MAX])
{
	unsigned k = 0;

	for (unsigned t = 0; t < TPCC_PAD_TABLES; t++) {
		struct strbuf sb;
		if (!width[t])
			continue;
		strbuf_init(&sb, 128);
		if (d == TPCC_MYSQL) {
			/* CHAR holds at most 255 characters: ceil(n / 255) columns of n in all. */
			unsigned cols = (width[t] + 254) / 255, left = width[t];
			strbuf_addf(&sb, "ALTER TABLE %s", tables[t]);
			for (unsigned i = 0; i < cols; i++) {
				unsigned w = left / (cols - i);
				left -= w;
				strbuf_addf(&sb, "%s ADD COLUMN %s_pad%u CHAR(%u) CHARACTER SET latin1 NOT NULL DEFAULT ''",
					    i ? "," : "", prefix[t], i + 1, w);
			}
			out[k++] = strbuf_detach(&sb);
		} else if (d == TPCC_POSTGRESQL) {
			strbuf_addf(&sb, "ALTER TABLE %s ADD COLUMN %s_pad CHAR(%u) NOT NULL DEFAULT ''", tables[t],
				    prefix[t], width[t]);
			out[k++] = strbuf_detach(&sb);
			strbuf_init(&sb, 128);
			strbuf_addf(&sb, "ALTER TABLE %s ALTER COLUMN %s_pad SET STORAGE PLAIN", tables[t], prefix[t]);
			out[k++] = strbuf_detach(&sb);
		} else {
			strbuf_addf(&sb, "ALTER TABLE %s ADD %s_pad CHAR(%u) NOT NULL DEFAULT ''", tables[t], prefix[t],
				    width[t]);
			out[k++] = strbuf_detach(&sb);
		}
	}
	return k;
}
