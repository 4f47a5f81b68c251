"""Formats for CI: GitHub workflow annotations, a Markdown summary for ``$GITHUB_STEP_SUMMARY``, and
JUnit XML of check Findings. Pure functions of the records they are given, like the rest of render/."""
