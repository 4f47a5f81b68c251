"""How diagnose holds up when a log is pasted in another form: each labelled log the working tree gets right
is rewritten as users paste it (quoted in a reply, indented as a Markdown code block, fenced, with CRLF line
ends, behind docker's timestamps, cut to its last lines, its indentation lost) and diagnosed again.

    python bench/paste_forms.py                  # every form, every default set (score_corpus's)
    python bench/paste_forms.py quote indent     # some forms

Prints, per form, how many of the logs that are right as given stay right, and the first ones that do not.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from score_corpus import default_sets, labels  # noqa: E402


def _lines(text: str) -> list[str]:
    return text.splitlines(True)


FORMS = {
    "quote": lambda t: "".join("> " + line for line in _lines(t)),
    "indent": lambda t: "".join("    " + line for line in _lines(t)),
    "fence": lambda t: "```\n" + t + ("" if t.endswith("\n") else "\n") + "```\n",
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "docker_ts": lambda t: "".join("2024-05-01T10:00:00.123Z " + line for line in _lines(t)),
    "last5": lambda t: "\n".join([line for line in t.splitlines() if line.strip()][-5:]) + "\n",
    # copied from a rendered page (a comment without a code block): every line's indentation is lost
    "dedent": lambda t: "".join(line.lstrip(" \t") for line in _lines(t)),
    # copied from a page or a mail that puts a blank line after every line
    "double": lambda t: "".join(line.rstrip("\r\n") + "\n\n" for line in _lines(t)),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("forms", nargs="*", help=f"forms to try, of {', '.join(FORMS)} (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.forms if name not in FORMS]
    if unknown:
        parser.error(f"unknown form(s): {', '.join(unknown)}")
    from paddle_doctor.diagnose import diagnose_paths

    forms = args.forms or list(FORMS)
    kept = {name: [0, 0] for name in forms}
    lost: dict[str, list[str]] = {name: [] for name in forms}
    with tempfile.TemporaryDirectory() as tmp:
        pasted = Path(tmp) / "paste.log"
        for folder in default_sets():
            for label in labels(folder):
                path = folder / f"{label['id']}.log"
                rc = diagnose_paths([str(path)]).root_cause
                if rc is None or rc.cause != label["root_cause"]:
                    continue  # only what is right as given says something about the form
                text = path.read_text(encoding="utf-8", errors="replace")
                for name in forms:
                    pasted.write_text(FORMS[name](text), encoding="utf-8")
                    again = diagnose_paths([str(pasted)]).root_cause
                    right = again is not None and again.cause == label["root_cause"]
                    kept[name][0] += right
                    kept[name][1] += 1
                    if not right:
                        lost[name].append(f"{folder.name}/{label['id']} ({again.cause if again else 'no verdict'})")
    for name in forms:
        right, total = kept[name]
        print(f"{name}: {right}/{total} stay right" + (f"; lost: {', '.join(lost[name][:8])}" if lost[name] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
