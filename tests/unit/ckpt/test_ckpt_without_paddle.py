"""inspect, diff and strip work where paddle is not installed (an import blocker stands in for
its absence); check says it needs paddle for --model, in one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

BLOCKED = """
import sys
class NoPaddle:
    def find_spec(self, name, path=None, target=None):
        if name == "paddle" or name.startswith("paddle."):
            raise ImportError(f"No module named {name!r} (blocked by the test)")
        return None
sys.meta_path.insert(0, NoPaddle())
from paddle_doctor.cli.main import main
code = main(sys.argv[1:])
assert not [m for m in sys.modules if m.split(".")[0] == "paddle"], "paddle was imported"
print("EXIT", code)
"""


def run_without_paddle(*args):
    proc = subprocess.run([sys.executable, "-c", BLOCKED, *map(str, args)], capture_output=True, text=True, timeout=60)
    lines = proc.stdout.strip().splitlines()
    assert lines and lines[-1].startswith("EXIT "), proc.stderr
    return int(lines[-1].split()[1]), "\n".join(lines[:-1]), proc.stderr


def test_commands_without_paddle(made, tmp_path):
    code, out, _ = run_without_paddle("ckpt", "inspect", "--format", "json", made.path("module.p2.pdparams"))
    assert code == 0 and json.loads(out)["prefix"] == "module."
    code, out, _ = run_without_paddle("ckpt", "diff", made.path("resnet18.p4.pdparams"), made.path("resnet18.safetensors"))
    assert code == 0 and out.startswith("SAME:")
    code, out, _ = run_without_paddle("ckpt", "strip", made.path("student.pdparams"), "-o", tmp_path / "clean.pdparams")
    assert code == 0 and (tmp_path / "clean.pdparams").exists()
    code, _, err = run_without_paddle("ckpt", "check", made.path("student.pdparams"), "--model", "paddle.vision.models:resnet18")
    assert code == 2 and "needs paddle" in err and err.count("\n") == 1, err
