"""The package's long description: README.md with its relative links made absolute (issue 30).

On a package index the README is shown outside the repository, so `docs/report.md` or the
`docs/report-example.png` image would point nowhere. hatchling runs this metadata hook when it
builds the sdist or the wheel (pyproject.toml: `[tool.hatch.metadata.hooks.custom]`, `readme` in
`dynamic`): each relative link becomes a link to the file in the repository's `main` branch, and
each image a link to its raw bytes, under the `Repository` URL of `[project.urls]` (one source).
In the repository itself README.md keeps its relative links, which work there and in a clone.
Fenced code blocks are left as they are: they show commands and output, not links.
"""

from __future__ import annotations

import re
from pathlib import Path

from hatchling.metadata.plugin.interface import MetadataHookInterface

BRANCH = "main"
# A Markdown link or image, `[text](target)` / `![alt](target)` (an optional "title" after the target),
# and an HTML `href="..."` or `src="..."`.
MD_LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?P<rest>[^)]*)\)")
HTML_ATTR = re.compile(r"""(?P<attr>\b(?:href|src)=)(?P<q>["'])(?P<target>[^"']+)(?P=q)""")
ABSOLUTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)  # https:, mailto:, //host
FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)


def absolute_links(text: str, repository: str, readme_path: str = "README.md") -> str:
    """``text`` with every relative link outside fenced code made absolute under ``repository``
    (``https://github.com/OWNER/NAME``): a page to ``blob/main/PATH``, an image to its raw bytes,
    a bare ``#anchor`` to the README's own page there."""
    repository = repository.rstrip("/")
    blob = f"{repository}/blob/{BRANCH}/"
    raw = repository.replace("https://github.com/", "https://raw.githubusercontent.com/", 1) + f"/{BRANCH}/"

    def target(value: str, image: bool) -> str:
        if ABSOLUTE.match(value):
            return value
        if value.startswith("#"):
            return f"{blob}{readme_path}{value}"
        return (raw if image else blob) + value.removeprefix("./")

    def md(m: re.Match) -> str:
        return f"{m['bang']}[{m['text']}]({target(m['target'], bool(m['bang']))}{m['rest']})"

    def html(m: re.Match) -> str:
        return f"{m['attr']}{m['q']}{target(m['target'], m['attr'] == 'src=')}{m['q']}"

    parts = re.split(r"(^(?:```|~~~).*?^(?:```|~~~)[^\n]*$)", text, flags=re.MULTILINE | re.DOTALL)
    return "".join(part if FENCE.match(part) else HTML_ATTR.sub(html, MD_LINK.sub(md, part)) for part in parts)


class CustomMetadataHook(MetadataHookInterface):
    """Sets ``readme`` (declared dynamic in pyproject.toml) from README.md with absolute links."""

    def update(self, metadata: dict) -> None:
        text = (Path(self.root) / "README.md").read_text(encoding="utf-8")
        metadata["readme"] = {"content-type": "text/markdown",
                              "text": absolute_links(text, metadata["urls"]["Repository"])}
