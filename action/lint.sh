#!/usr/bin/env bash
# What the paddle-doctor composite action (action.yml) runs to lint: SARIF for upload-sarif.
#   PD_LINT_PATHS  files or folders, space-separated
#   PD_SARIF       where the SARIF log goes
# lint exits 1 when it finds something: that is a result for code scanning, not a failed step.
set -u
read -r -a paths <<< "${PD_LINT_PATHS:-.}"
paddle-doctor lint --format sarif "${paths[@]}" > "$PD_SARIF"
status=$?
[ "$status" -le 1 ] || exit "$status"
