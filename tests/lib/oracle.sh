# The independent result checker (tests/lib/oracle.py: Little's law, percentiles
# recomputed from the stored buckets, intervals against the phase, the journal
# against the result, published-method figures recomputed from result files).
#   oracle result FILE.json [--journal FILE.jsonl] [--no-little WHY]
#   oracle journal FILE.jsonl [--killed]
#   oracle groups RESULTS_DIR REPORT-GROUPS.CSV
#   oracle summary CAMPAIGN_DIR
oracle() { python3 "$DBRIG_SOURCE_DIR/tests/lib/oracle.py" "$@"; }
