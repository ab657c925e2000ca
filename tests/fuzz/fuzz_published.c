/* libFuzzer target: the published-reference reader (dbrig.published/1). */
#include "report/published.h"
#include "one_line.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct pub_review rev;
	struct strbuf err;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&rev, 0, sizeof(rev));
	strbuf_init(&err, 0);
	/* Released after a failure too, as published_load_dir does: a failed
	 * parse leaves what it had filled in. */
	fuzz_check_verdict(published_parse("review.json", text, &rev, &err), &err, "review.json");
	pub_review_release(&rev);
	strbuf_release(&err);
	free(text);
	return 0;
}
