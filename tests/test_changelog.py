"""CHANGES.md keeps the Keep a Changelog form (https://keepachangelog.com/en/1.1.0/): one
``## [Unreleased]`` section on top, released versions below it as ``## [X.Y.Z] - DATE``,
only the standard subsections in the standard order, and lines written for users: no
commit hashes and no issue numbers."""

from __future__ import annotations

import re

from tests.conftest import ROOT

CHANGES = ROOT / "CHANGES.md"

#: The subsections Keep a Changelog defines, in its order.
SUBSECTIONS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")

_VERSION = re.compile(r"## \[(Unreleased|\d+\.\d+\.\d+[0-9A-Za-z.+-]*)\]( - \d{4}-\d{2}-\d{2})?")
# 7 to 40 hex digits with a digit and a letter among them: an abbreviated or full commit
# hash (a plain number or an English word made of a-f is not one).
_HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b", re.IGNORECASE)
_ISSUE = re.compile(r"\b(issue|pr|pull request)s?\s*#?\d+|(?<![\w&])#\d+\b", re.IGNORECASE)


def changelog_problems(text: str) -> list[str]:
    """What keeps `text` from being a changelog in the project's form (empty: none)."""
    problems = []
    lines = text.splitlines()
    versions = [ln for ln in lines if ln.startswith("## ")]
    if versions.count("## [Unreleased]") != 1:
        problems.append(f"{versions.count('## [Unreleased]')} '## [Unreleased]' headings, want 1")
    if versions and versions[0] != "## [Unreleased]":
        problems.append(f"the first section is {versions[0]!r}, not '## [Unreleased]'")
    for heading in versions:
        match = _VERSION.fullmatch(heading)
        if not match:
            problems.append(f"{heading!r} is neither '## [Unreleased]' "
                            "nor '## [X.Y.Z] - YYYY-MM-DD'")
        elif match.group(1) != "Unreleased" and not match.group(2):
            problems.append(f"{heading!r}: a released version needs its date")
    seen: list[str] = []
    for line in lines:
        if line.startswith("## "):
            seen = []
        elif line.startswith("### "):
            name = line[4:].strip()
            if name not in SUBSECTIONS:
                problems.append(f"{line!r}: not one of {', '.join(SUBSECTIONS)}")
            elif name in seen:
                problems.append(f"{line!r} twice in one version")
            elif seen and SUBSECTIONS.index(name) < SUBSECTIONS.index(seen[-1]):
                problems.append(f"{line!r} after '### {seen[-1]}': keep the standard order")
            else:
                seen.append(name)
        elif line.startswith("#") and not line.startswith("# "):
            problems.append(f"{line!r}: headings are '## ' versions and '### ' subsections")
    for number, line in enumerate(lines, 1):
        for pattern, what in ((_HASH, "a commit hash"), (_ISSUE, "an issue number")):
            found = pattern.search(line)
            if found:
                problems.append(f"line {number}: {found.group(0)!r} looks like {what}")
    return problems


def test_changes_md_is_in_keep_a_changelog_form():
    problems = changelog_problems(CHANGES.read_text(encoding="utf-8"))
    assert not problems, "CHANGES.md:\n" + "\n".join(problems)


def test_the_check_finds_what_the_form_forbids():
    good = ("# Changelog\n\n## [Unreleased]\n\n### Added\n\n- `bnx.explain`.\n\n### Fixed\n\n"
            "- 1,048,576 rows; a deadbeef of 2097152 bytes.\n\n## [0.1.0] - 2024-05-01\n\n"
            "### Added\n\n- First version.\n")
    assert changelog_problems(good) == []
    bad = {
        "## Unreleased\n\n### Added\n": "neither",
        "## [Unreleased]\n\n## [Unreleased]\n": "2 '## [Unreleased]'",
        "## [0.1.0] - 2024-05-01\n\n## [Unreleased]\n": "the first section",
        "## [Unreleased]\n\n## [0.1.0]\n": "needs its date",
        "## [Unreleased]\n\n### Performance\n": "not one of",
        "## [Unreleased]\n\n### Fixed\n\n### Added\n": "standard order",
        "## [Unreleased]\n\n### Added\n\n### Added\n": "twice",
        "## [Unreleased]\n\n#### Details\n": "headings are",
        "## [Unreleased]\n\n### Added\n\n- faster (4236eb3).\n": "commit hash",
        "## [Unreleased]\n\n### Added\n\n- faster (issue 17).\n": "issue number",
        "## [Unreleased]\n\n### Added\n\n- faster (#17).\n": "issue number",
    }
    for text, message in bad.items():
        problems = changelog_problems(text)
        assert any(message in p for p in problems), (text, problems)
