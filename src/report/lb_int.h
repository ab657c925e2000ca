/*
 * What the parts of the leaderboard share (report/leaderboard.c and
 * report/lb_render.c only): leaderboard.c matches protocols and builds the
 * boards, lb_render.c renders them.
 */
#ifndef DBRIG_REPORT_LB_INT_H
#define DBRIG_REPORT_LB_INT_H

#include "core/strbuf.h"
#include "report/leaderboard.h"

#include <stdint.h>

/* leaderboard.c: a whole number as the report prints it ("10,000,000"). */
void lb_num(struct strbuf *sb, int64_t v);

#endif
