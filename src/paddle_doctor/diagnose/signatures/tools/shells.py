"""Signatures: what a shell reports of the job it ran, in any locale: a killed job, a native crash, an abort or a bus
error (bash's "line N" and glibc's signal names, translated), and a line of a script that ran an option as a command
(a broken line continuation). Spliced into :data:`..rows.older_forms.OLDER_FORMS` at their old place.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

SHELL_ROWS = (
    # bash reports a job that SIGKILL ended as "<script>: line N: <pid> Killed": in a translated locale both
    # "line" (bash's own catalog) and "Killed" (glibc's strsignal) come translated.
    # bash runs each line of a script as a command: a line that starts with an option (--flag=...) ran alone
    # because the line continuation before it broke (a blank or a CRLF after the backslash), so the command
    # above lost its arguments and the shell reports the option as a program it cannot find.
    _sig("shell_option_run_as_command", r"^\S+?[:：] ?(?:line|行|Zeile|строка) ?\d+[:：] (?P<opt>--?[A-Za-z][\w-]*)(?:=\S*)?"
         r"[:：] (?:No such file or directory|command not found|没有那个文件或目录|未找到命令)", "cause",
         CauseId.config_error, 97, "run.sh: line 7: --train_data_dir=./data/: No such file or directory",
         title="the shell ran the option {opt} as a command: a line continuation in the script is broken (a blank "
               "or a carriage return after the backslash), so the command above lost its arguments",
         source="bash execute_cmd.c (\"%s: line %d: \" with \"%s: No such file or directory\" / \"%s: command not "
                "found\" for a command word it cannot run; zh_CN catalog: 行, 没有那个文件或目录, 未找到命令)"),
    _sig("shell_killed_translated", r"^\S+?[:：] ?(?:行|Zeile|строка) \d+[:：]\s+\d+\s+(?:已杀死|強制終了|Getötet|Убито)"
         r"(?:\s+\S.*)?$", "cause", CauseId.host_oom_killed, 75,
         "script/run_ChnSentiCorp2.sh: 行 30: 23195 已杀死",
         title="the shell reports the process was killed (SIGKILL; the kernel OOM killer is the usual sender)",
         source="bash jobs.c / execute_cmd.c (_(\"%s: line %d: \") from bash's message catalog: zh_CN \"行\", "
                "ja \"行\", de \"Zeile\", ru \"строка\") with strsignal(SIGKILL) from glibc's (zh_CN 已杀死, ja "
                "強制終了, de Getötet, ru Убито) (ERNIE#24)"),
    # The same report for a job that a native fault ended (SIGSEGV, SIGILL, SIGFPE): glibc's strsignal in the
    # locale's words, bash's " (core dumped)" in its own (zh_CN "(吐核)" before bash 5, "(核心已转储)" after). A
    # reporter's retyped paste may put a full-width colon after the script's name, or a short label of its own
    # ("提示：") before the signal's name.
    _sig("shell_native_crash_translated", r"^(?:\S+?[:：] ?(?:line|行|Zeile|строка) \d+[:：]\s+\d+\s+|[^\x00-\x7f]{1,6}"
         r"[：:]\s*)?(?P<sig>段错误|非法指令|"
         r"浮点数例外|Speicherzugriffsfehler|Ungültiger Maschinenbefehl|Ошибка сегментирования|セグメンテーション違反"
         r"です)", "cause", CauseId.segfault, 88,
         "run_train.sh: 行 35:  2557 段错误               (吐核)python -u train.py --use_gpu=False",
         title="the shell reports the process died of a native fault ({sig}: a segmentation fault, an illegal "
               "instruction or an arithmetic fault)",
         source="bash jobs.c (a job a signal ended: \"%s: line %d: \" and strsignal(sig), \" (core dumped)\" from "
                "bash's catalog) with glibc's strsignal translated: zh_CN SIGSEGV 段错误, SIGILL 非法指令, SIGFPE "
                "浮点数例外; de SIGSEGV Speicherzugriffsfehler, SIGILL Ungültiger Maschinenbefehl; ru SIGSEGV Ошибка "
                "сегментирования; ja SIGSEGV セグメンテーション違反です (PaddleSpeech#442)"),
    # The same shells' report of an abort or a bus error, in glibc's zh_CN words (SIGABRT 已放弃, SIGBUS 总线错误): only
    # with the core-dump note or the job line, as the words alone are ordinary Chinese ("given up", "bus error").
    _sig("shell_abort_bus_translated", r"(?:^|[:：]\s*\d+\s+|^\s*)(?P<sig>已放弃|总线错误)\s*\((?:核心已转储|吐核)\)|"
         r"^\S+?[:：] ?行 \d+[:：]\s+\d+\s+(?P<sig2>已放弃|总线错误)", "cause", CauseId.segfault, 45,
         "已放弃 (核心已转储)",
         title="the shell reports the process died of {sig}{sig2} (an abort or a bus error: a native crash; an abort "
               "often ends an error printed before it)",
         source="bash jobs.c with glibc's strsignal in zh_CN (SIGABRT 已放弃, SIGBUS 总线错误, \" (core dumped)\" "
                "核心已转储 / 吐核)", most="medium"),
)
