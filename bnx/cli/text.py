"""The ``bnx`` command's text output.

Tables, the feature legend, and explanation sets laid out as rows (compactly in the paper's
style when there are many features).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InstanceError

__all__: list[str] = []


def _table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    fmt = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([fmt(header), line, *map(fmt, rows)])


def _legend(features: Sequence) -> str:
    return "features: " + "  ".join(f"{i + 1}={f}" for i, f in enumerate(features))


def _show(expl, limit: int, features: Sequence | None = None, title: str | None = None) -> str:
    """Show explanations as a table.

    With many features, compactly in the paper's style: one column per feature (numbered as
    in the legend), ``*`` for a dropped one.
    """
    features = list(features or expl.features)
    head = title or expl.title()
    if getattr(expl, "on", None) is not None:  # MC-explanations: which states count
        head += f"\n  {expl.on_text()}"
    rows = []
    for e in expl:
        rows.append([str(e.get(f, "*")) for f in features])
        if len(rows) >= limit:
            break
    more = f"\n  ... and {expl.count - limit:,} more" if expl.count > limit else ""
    if not rows:
        return f"{head}\n  (none)"
    if len(features) <= 6:
        body = _table(rows, [str(f) for f in features])
        return f"{head}\n" + "\n".join("  " + ln for ln in body.splitlines()) + more
    width = max(len(c) for r in rows for c in r)
    num = "  " + " ".join(str(i + 1).rjust(width) if width > 1 else str((i + 1) % 10)
                          for i in range(len(features)))
    body = "\n".join("  " + " ".join(c.rjust(width) for c in r) for r in rows)
    return f"{head}\n{num}\n{body}{more}"


def _pairs(text: str, what: str) -> dict:
    out = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" not in part:
            raise InstanceError(f"{what}: {part!r} is not of the form FEATURE=STATE")
        k, v = part.split("=", 1)
        k = k.strip()
        if k in out:
            raise InstanceError(f"{what}: feature {k!r} is given twice")
        out[k] = v.strip()
    return out


def _names(text: str | None) -> list | None:
    return None if text is None else [t.strip() for t in text.split(",") if t.strip()]
