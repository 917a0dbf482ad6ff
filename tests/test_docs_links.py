"""Every relative link and image in README.md and docs/*.md points at a file that exists and that git
does not ignore (a fresh clone has it), and every #anchor into a Markdown page names one of its headings
(GitHub's slugs)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code spans."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def _anchors(page: Path) -> set[str]:
    slugs: set[str] = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():  # a code span's text stays in the slug
        if m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            base, n = slug, 1
            while slug in slugs:  # GitHub numbers repeated headings: name, name-1, name-2
                slug, n = f"{base}-{n}", n + 1
            slugs.add(slug)
    return slugs


def _links(page: Path) -> list[str]:
    return LINK.findall(_prose(page.read_text(encoding="utf-8")))


def _ignored(file: Path) -> bool:
    """Whether git ignores the file, so that it exists here but not in a clone (False outside a checkout)."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        return False
    return subprocess.run(["git", "check-ignore", "-q", str(file)], cwd=ROOT).returncode == 0


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path):
    assert _links(page), f"{page.name}: no links found (is the pattern broken?)"
    broken = []
    for target in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target} (no such file)")
        elif _ignored(file):
            broken.append(f"{target} (ignored by git: a clone lacks it)")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target} (no heading #{anchor})")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)
