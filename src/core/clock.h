/* Monotonic and wall clocks. Latency always uses CLOCK_MONOTONIC. */
#ifndef DBRIG_CORE_CLOCK_H
#define DBRIG_CORE_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#define NS_PER_SEC UINT64_C(1000000000)
#define NS_PER_MS UINT64_C(1000000)

uint64_t clock_now_ns(void);
/* "2026-11-29T23:30:00Z" for the current UTC time. */
void clock_utc_iso8601(char *buf, size_t n);
/* Sleep until the monotonic time `deadline_ns` (absolute); returns early on a signal. */
void clock_sleep_until(uint64_t deadline_ns);

#endif
