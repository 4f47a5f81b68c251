"""Processes we start: one runner for the lab, ``run``, ``smoke``, ``triage`` and the tests.

- :mod:`.tree`: start a command in its own session, tagged, so that every process it leads to
  (workers in sessions of their own included) is found and ended at the end, by id.
- :mod:`.bounded_run`: one command to completion or a deadline, as a :class:`BoundedRun`.
- :mod:`.after_launch`: "launch, then diagnose" (:func:`launch_then_diagnose`,
  :func:`diagnose_launch`).
- :mod:`.ports`: free ports for a launch, and waiting for a launcher to listen.
- :mod:`.supervisor` and :mod:`.launchenv`: ``paddle-doctor run``, the command with its guards'
  environment, its output copied through, its exit code decided; ``clean_env()`` there too.
- :mod:`.forked`: children forked to share work over pipes (lint's workers, diagnose's reader).

Standard library only (diagnose is imported when a diagnosis is made); never imports paddle.
"""
