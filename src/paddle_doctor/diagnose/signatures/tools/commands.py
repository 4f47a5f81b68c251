"""Signatures: the command line a job was started with: `python -m MODULE` that the interpreter cannot find (runpy's
one line, no traceback), an option typed with a typographic dash, a bare word given as the script (spliced at the end
of :mod:`..rows.launch_env`)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

COMMAND_LINE_ROWS = (
    # `python -m MODULE` when the interpreter cannot find MODULE (no traceback: runpy prints one line)
    _sig("runpy_module_spec", r"^\S*?python[\w.]*: Error while finding module specification for '(?P<module>[\w.]+)' "
         r"\((?P<exc>\w+Error): (?P<msg>.*)\)$", "exception", CauseId.python_exception, 50,
         "/usr/bin/python3: Error while finding module specification for 'paddle.distributed.launch' "
         "(ModuleNotFoundError: No module named 'paddle')",
         title="{exc}: {msg} (this interpreter cannot run `-m {module}`: is it the environment Paddle is installed in?)",
         source="CPython Lib/runpy.py _get_module_details ('Error while finding module specification for %r (%s: %s)'), "
                "printed by Modules/main.c pymain_run_module as '<argv0>: <message>'"),
    # An option typed with a typographic dash (an em or en dash, as a rendered README or a word processor turns
    # "--" into): the program takes it for a positional value, not the option. Seen in the command a launcher or
    # subprocess reports (a Python list's repr).
    _sig("option_typographic_dash", r"'[\u2014\u2013]{1,2}(?P<opt>[A-Za-z][\w-]*)'", "cause", CauseId.config_error, 75,
         "subprocess.CalledProcessError: Command '['python', '-u', './train.py', '\u2014param_path', './config.json']' "
         "returned non-zero exit status 1.",
         title="the command passes \u2014{opt} with a typographic dash, not --{opt}: the option is not recognised (retype "
               "the dashes; a copied README turns -- into a dash)",
         source="CPython Lib/subprocess.py CalledProcessError (\"Command '%s' returned non-zero exit status %d.\", the "
                "argument list's repr); Lib/argparse.py (prefix_chars '-' only)", most="medium"),
    # The interpreter given a bare word where the script's path goes (`python3.7 gpu|cpu ...`: a script that builds the
    # command from a config read by position, shifted by one line; `python train` without .py): the command is wrong,
    # not a file lost. CPython 3.10+ prints it made absolute ('/cwd/gpu'): its last part is what was given. A name
    # with a dot (a script, a file) is read as a missing file (load_not_exists).
    _sig("python_script_not_a_path", r"^\S*?python[\w.]*(?:\.exe)?: can't open file ['\"](?:[^'\"\s]{0,300}[/\\])?(?P<arg>[^'\"/\\.\s]{1,60})['\"]: "
         r"\[Errno 2\]", "cause", CauseId.config_error, 75,
         "python3.7: can't open file 'gpu': [Errno 2] No such file or directory",
         title="the interpreter was given '{arg}' where the script's path goes: the command line is wrong (a value "
               "shifted into the script's place, or the script named without its .py)", most="medium",
         source="CPython Modules/main.c pymain_run_file (\"%ls: can't open file %R: [Errno %d] %s\"; 3.10+ with the path "
                "made absolute, 2.7 with \"'%s'\")"),
    _sig("runpy_no_module", r"^\S*?python[\w.]*: No module named (?P<module>[\w.]+)$", "exception",
         CauseId.python_exception, 50, "/usr/bin/python3: No module named paddle.distributed",
         title="ModuleNotFoundError: no module named {module} (this interpreter cannot run `-m {module}`: is it the "
               "environment Paddle is installed in?)",
         source="CPython Lib/runpy.py _get_module_details ('No module named %s'), printed by Modules/main.c as "
                "'<argv0>: <message>'"),
    # A SyntaxError located in a config file (YAML, JSON): Python ran the config as its script, i.e. the command puts
    # the config where the script goes (`launch --gpus 0 -c x.yaml` without tools/train.py). The location line of a
    # SyntaxError has no ", in <function>" after its line number.
    _sig("config_run_as_script", r'^\s*File "(?P<path>[^"\n]{1,300}\.(?:ya?ml|json))", line \d+\s*$', "cause",
         CauseId.config_error, 80, '  File "./ppcls/configs/PULC/vehicle_attribute/PPLCNet_x1_0.yaml", line 2',
         title="Python ran the config file {path} as its script: the command gives the config where the script goes "
               "(the tool's script, such as tools/train.py, before -c)", most="medium",
         source="CPython's SyntaxError report (traceback.format_exception_only: '  File \"%s\", line %d', without the "
                "frame's ', in %s'), for a file run as __main__ (runpy / the launcher's training_script)"),
)
