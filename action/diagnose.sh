#!/usr/bin/env bash
# What the paddle-doctor composite action (action.yml) runs on a failed job's logs.
#   PD_LOG_DIRS  launcher log dir(s), space-separated (one per node)
#   PD_REPORT    where the HTML timeline page goes (uploaded by the next step)
#   GITHUB_STEP_SUMMARY  the runner's summary file (the Markdown diagnosis is appended)
# stdout: GitHub workflow annotations (::error file=...,line=...::), read by the runner.
# Exit 0 when the analysis ran (the job has failed already), 2 on unusable input.
set -u
read -r -a dirs <<< "${PD_LOG_DIRS:-log}"
paddle-doctor diagnose --format github "${dirs[@]}" || exit $?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  paddle-doctor diagnose --format markdown "${dirs[@]}" >> "$GITHUB_STEP_SUMMARY" || exit $?
fi
if [ -n "${PD_REPORT:-}" ]; then
  paddle-doctor diagnose --html "$PD_REPORT" "${dirs[@]}" > /dev/null || exit $?
fi
