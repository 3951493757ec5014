"""docs/benchmarks.md is a page for users: current figures and the commands that reproduce
them, no development history (that is CHANGES.md's), and no command that cannot run."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

PAGE = ROOT / "docs" / "benchmarks.md"
TEXT = PAGE.read_text(encoding="utf-8")

#: A command the page shows: ``python bench/NAME.py`` and its arguments, to the line's end
#: or a shell comment.
COMMAND = re.compile(r"python (bench/[\w./-]+\.py)([^\n`#]*)")

HISTORY = {
    "a commit hash": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"),
    "an issue number": re.compile(r"\bissues?\s+#?\d+|#\d+\b", re.IGNORECASE),
    "a branch": re.compile(r"\bbranch(es)?\b", re.IGNORECASE),
    "a session": re.compile(r"\bsessions?\b", re.IGNORECASE),
    "a path of the development machine": re.compile(r"(?<![\w.])/(work|root|tmp)\b"),
}


def _commands() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in COMMAND.finditer(TEXT)]


@pytest.mark.parametrize("what", sorted(HISTORY))
def test_the_page_has_no_development_history(what):
    found = sorted({m.group(0) for m in HISTORY[what].finditer(TEXT)})
    assert not found, f"docs/benchmarks.md names {what}: {found} (history goes in CHANGES.md)"


def test_the_detectors_catch_what_they_are_for():
    examples = {"a commit hash": "at 951b093", "an issue number": "issue 17 and #12",
                "a branch": "on the branch andes", "a session": "in another session",
                "a path of the development machine": "a path /work/shared"}
    assert {what: bool(HISTORY[what].search(text)) for what, text in examples.items()} == \
        dict.fromkeys(HISTORY, True)
    assert not HISTORY["a commit hash"].search("1,587,838 nodes and 4188416 instances, 5e-16")
    assert not HISTORY["a path of the development machine"].search("../shared/data, a/tmp")


def test_every_command_names_an_existing_script_and_its_options():
    commands = _commands()
    assert len(commands) >= 15, "the page shows a command per table"
    for script, args in commands:
        path = ROOT / script
        assert path.is_file(), f"docs/benchmarks.md runs {script}, which does not exist"
        source = path.read_text(encoding="utf-8")
        known = set(re.findall(r"add_argument\(\s*\"(--[\w-]+)\"", source)) | {"--help"}
        used = set(re.findall(r"(?<![\w-])(--[\w-]+)", args))
        assert used <= known, f"{script} has no option {sorted(used - known)}"


def _headings() -> set[str]:
    ids = set()
    for title in re.findall(r"^#{1,6} (.+)$", TEXT, flags=re.MULTILINE):
        plain = title.replace("`", "").lower()
        ids.add(re.sub(r"[^\w\- ]", "", plain.replace(" ", "-")))  # MyST's slug
        ids.add(re.sub(r"[^a-z0-9]+", "-", plain).strip("-"))      # docutils' id
    return ids


def test_links_into_the_page_find_their_heading():
    sources = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
    anchors = {a for p in sources
               for a in re.findall(r"benchmarks\.md#([\w-]+)", p.read_text(encoding="utf-8"))}
    assert not anchors - _headings(), f"no heading for {sorted(anchors - _headings())}"
