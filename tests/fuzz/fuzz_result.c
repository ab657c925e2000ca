/* libFuzzer target: the dbrig.result/1 reader of `dbrig report`. */
#include "result/model.h"
#include "result/read.h"
#include "one_line.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct run *run = NULL;
	struct strbuf err;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	strbuf_init(&err, 0);
	rc = results_parse_result("i1.json", text, &run, &err);
	fuzz_check_verdict(rc, &err, "i1.json");
	if (rc == 0)
		run_free(run);
	strbuf_release(&err);
	free(text);
	return 0;
}
