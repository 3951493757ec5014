"""Reading network files (BIF, XMLBIF, Hugin NET, UAI) into pgmpy networks."""

from __future__ import annotations

import os
import re
from typing import Any

from .._util.files import gunzip, read_regular
from ..errors import NetworkFileError

__all__ = ["network_format", "read_network", "MAX_BYTES", "MAX_STATES"]

#: The default bound on a network file's size in bytes, decompressed (64 MiB; the largest
#: network pgmpy ships, diabetes, takes 5.5 MB): ``read_network(max_bytes=...)``.
MAX_BYTES = 64 * 2 ** 20

#: The most states a variable of a network file may have (a crafted file declaring a
#: million would take pgmpy's parser minutes).
MAX_STATES = 10_000

#: How deep an XMLBIF file's elements may nest (BIF, NETWORK, VARIABLE, OUTCOME: 4).
MAX_DEPTH = 32

#: The key under which a network learned by bnx records its class and features in its
#: graph attributes (``network.graph``, networkx's): ``(class_var, features)``. A
#: :class:`~bnx.Classifier` of that class with no ``features=`` takes them.
FEATURES_KEY = "bnx.features"

_READERS = {
    ".bif": "BIFReader",
    ".xmlbif": "XMLBIFReader",
    ".xml": "XMLBIFReader",
    ".net": "NETReader",
    ".uai": "UAIReader",
}


def read_network(path: str | os.PathLike, *, max_bytes: int = MAX_BYTES) -> Any:
    """Read a network file with pgmpy's reader for its format.

    The format follows the extension: ``.bif`` (BIF), ``.xml``/``.xmlbif`` (XMLBIF),
    ``.net`` (Hugin NET), ``.uai`` (UAI), each also gzipped (``.bif.gz``, the form
    pgmpy ships its networks in, ``.xml.gz``, ``.xmlbif.gz``, ``.net.gz``, ``.uai.gz``:
    decompressed in memory). Any failure becomes a :class:`~bnx.NetworkFileError` that
    names the file.

    A file that is not what it says is refused before pgmpy reads it: anything but a
    regular file (a directory, a FIFO, a device such as ``/dev/zero`` or a symlink to
    one: checked before it is opened), a file larger than ``max_bytes`` or a gzipped one
    that inflates past it (inflated a chunk at a time, so a small "gzip bomb" is refused
    after ``max_bytes`` of work and little memory), a variable with more than
    :data:`MAX_STATES` states, an XMLBIF file nested deeper than :data:`MAX_DEPTH` or
    missing a part pgmpy needs (named).

    Parameters
    ----------
    path : str or os.PathLike
        The network file.
    max_bytes : int, default :data:`MAX_BYTES` (64 MiB)
        The most bytes the file may hold, decompressed.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        The network, as pgmpy's reader makes it.

    Raises
    ------
    ArgumentError
        ``path`` is not a str or path-like.
    NetworkFileError
        The file is missing, of no format bnx reads, or malformed.

    See Also
    --------
    bnx.Classifier.from_file : A classifier straight from a network file.
    bnx.learn_naive_bayes : A network learned from data instead.

    Examples
    --------
    >>> import bnx
    >>> net = bnx.read_network(bnx.examples.network_path("admission.net"))
    >>> sorted(net.nodes())
    ['Admit', 'EntranceExam', 'FirstTimeApplicant', 'GPA', 'WorkExperience']
    """
    if not isinstance(path, (str, os.PathLike)):
        from ..errors import ArgumentError
        raise ArgumentError(f"a network file path must be a str or path-like, got {path!r}")
    path = os.fspath(path)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        from ..errors import ArgumentError
        raise ArgumentError(f"max_bytes must be a positive integer, got {max_bytes!r}")
    if os.path.isdir(path):
        raise NetworkFileError(f"{path}: is a directory, not a network file")
    ext, gzipped = network_format(path)
    if ext is None:
        raise NetworkFileError(
            f"{path}: unknown network format {gzipped or '(no extension)'!r}; "
            f"expected one of {', '.join(sorted(_READERS))}, or one of them gzipped "
            f"(.bif.gz, ...)")
    data = read_regular(path, max_bytes, NetworkFileError)
    if gzipped:
        data = gunzip(data, max_bytes, NetworkFileError, path)
        if not data.strip():
            raise NetworkFileError(f"{path}: the decompressed file is empty")
    text = _decode(data)
    _check_text(text, ext, path)
    from pgmpy import readwrite
    reader_cls = _net_reader() if ext == ".net" else getattr(readwrite, _READERS[ext])
    try:
        reader = reader_cls(string=text)
        reader._bnx_path = path
        model = _uai_model(reader) if ext == ".uai" else reader.get_model()
    except NetworkFileError:
        raise
    except Exception as exc:  # pgmpy's readers raise anything from parse errors
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise NetworkFileError(f"{path}: cannot read as {_READERS[ext][:-6]}: {detail}") from None
    fmt = _READERS[ext][:-6]
    if model.number_of_nodes() == 0:
        raise NetworkFileError(f"{path}: cannot read as {fmt}: no variables found")
    have = {cpd.variable for cpd in model.get_cpds()}
    missing = [n for n in model.nodes() if n not in have]
    if missing:
        raise NetworkFileError(f"{path}: cannot read as {fmt}: no probability table for "
                               f"{', '.join(map(repr, missing))} (truncated file?)")
    try:
        model.check_model()
    except Exception as exc:
        raise NetworkFileError(f"{path}: cannot read as {fmt}: {exc}") from exc
    return model


def network_format(path: str) -> tuple:
    """Return ``(extension, gzipped)`` of a network file's name.

    For example ``(".bif", True)`` for ``x.bif.gz``; ``(None, extension found)`` when it names no
    format bnx reads.

    Examples
    --------
    >>> network_format("child.BIF.gz"), network_format("notes.txt")
    (('.bif', True), (None, '.txt'))
    """
    stem, ext = os.path.splitext(os.fspath(path))
    ext = ext.lower()
    gzipped = ext == ".gz"
    if gzipped:
        ext = os.path.splitext(stem)[1].lower()
    if ext not in _READERS:
        return None, ext + ".gz" if gzipped else ext
    return ext, gzipped


def _decode(data: bytes) -> str:
    """Return the text of a network file: UTF-8, else Latin-1."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


_BIF_STATES = re.compile(r"type\s+discrete\s*\[\s*(\d+)\s*\]\s*\{([^}]*)\}")
_NET_STATES = re.compile(r"states\s*=\s*\(([^)]*)\)")


def _check_text(text: str, ext: str, path: str) -> None:
    """Refuse a file whose variables have too many states, or a malformed XMLBIF file.

    One linear scan of the text, before pgmpy's parser (which takes minutes on a variable
    with a million states, and names no part of a malformed XML file).
    """
    if ext in (".xml", ".xmlbif"):
        _check_xmlbif(text, path)
        return
    if ext == ".bif":
        counts = ((max(int(m.group(1)), m.group(2).count(",") + 1), m.start())
                  for m in _BIF_STATES.finditer(text))
    elif ext == ".net":
        counts = ((m.group(1).count('"') // 2, m.start()) for m in _NET_STATES.finditer(text))
    else:  # UAI: the type, the number of variables n, then the n cardinalities
        head = text.split(None, 2)
        n = int(head[1]) if len(head) == 3 and head[1].isdigit() else 0
        counts = ((int(t), 0) for t in head[-1].split(None, n)[:n] if t.isdigit())
    for k, at in counts:
        if k > MAX_STATES:
            line = text.count("\n", 0, at) + 1
            where = f" (line {line})" if at else ""
            raise NetworkFileError(f"{path}: a variable{where} has {k:,} states, more than "
                                   f"bnx reads ({MAX_STATES:,})")


def _check_xmlbif(text: str, path: str) -> None:
    r"""Refuse an XMLBIF file nested deeper than :data:`MAX_DEPTH`, or missing a part.

    The XML is parsed a slice at a time, its depth checked as it goes (a file nested
    200,000 deep is refused after one slice), then every part pgmpy's reader reads is
    looked for: a ``NETWORK`` with a ``NAME``; each ``VARIABLE`` with a ``NAME`` and its
    ``OUTCOME``\ s (at most :data:`MAX_STATES`); each ``DEFINITION`` with a ``FOR``, its
    ``GIVEN``\ s and a ``TABLE``, all with text.
    """
    from xml.etree import ElementTree as ET

    def bad(problem: str) -> NetworkFileError:
        return NetworkFileError(f"{path}: cannot read as XMLBIF: {problem}")

    parser = ET.XMLPullParser(events=("start", "end"))
    depth, root = 0, None
    try:
        for at in range(0, len(text), 1 << 12):
            parser.feed(text[at:at + (1 << 12)])
            for event, elem in parser.read_events():
                if event == "start":
                    depth += 1
                    root = elem if root is None else root
                    if depth > MAX_DEPTH:
                        raise bad(f"its elements nest deeper than {MAX_DEPTH} levels "
                                  f"(<{elem.tag}> at depth {depth}); XMLBIF nests 4")
                else:
                    depth -= 1
        parser.close()
    except ET.ParseError as exc:
        raise bad(f"it is not well-formed XML ({exc})") from None
    network = root.find("NETWORK") if root is not None else None
    if network is None:
        raise bad("it has no <NETWORK> element under its root")

    def text_of(elem, tag: str, where: str) -> str:
        found = elem.find(tag)
        if found is None or not (found.text or "").strip():
            raise bad(f"{where} has no <{tag}> with text")
        return found.text

    if network.find("NAME") is None:
        raise bad("its <NETWORK> has no <NAME>")
    for k, var in enumerate(network.findall("VARIABLE"), 1):
        name = text_of(var, "NAME", f"its VARIABLE number {k}")
        outcomes = var.findall("OUTCOME")
        if not outcomes or any(o.text is None for o in outcomes):
            raise bad(f"its variable {name.strip()!r} has no outcomes, or an empty one")
        if len(outcomes) > MAX_STATES:
            raise bad(f"its variable {name.strip()!r} has {len(outcomes):,} states, more "
                      f"than bnx reads ({MAX_STATES:,})")
    for k, definition in enumerate(network.findall("DEFINITION"), 1):
        name = text_of(definition, "FOR", f"its DEFINITION number {k}").strip()
        if any(g.text is None for g in definition.findall("GIVEN")):
            raise bad(f"the DEFINITION of {name!r} has an empty <GIVEN>")
        text_of(definition, "TABLE", f"the DEFINITION of {name!r}")


def _net_reader() -> type:
    """Make pgmpy's ``NETReader``, with a table of the wrong size named.

    pgmpy's own reader ends in numpy's "cannot reshape array of size 2 into shape (2,2)".
    """
    import math

    import numpy as np
    from pgmpy.readwrite import NETReader

    class _NETReader(NETReader):
        def get_values(self):  # pgmpy's NETReader.get_values, checking each table's size
            parents, states = self.variable_parents, self.variable_states
            cpds = {}
            for var, match in zip(list(parents), self.cpd_expr.scan_string(self.network)):
                k = len(states[var])
                m = math.prod(len(states[p]) for p in parents[var])
                flat = np.array(match[0], dtype="float64")
                if flat.size != k * m:
                    given = f" given {', '.join(map(str, parents[var]))}" if parents[var] else ""
                    raise ValueError(
                        f"the table of {var!r}{given} has {flat.size} numbers where its {k} "
                        f"states times {m} parent configuration{'s' if m != 1 else ''} need "
                        f"{k * m} (a truncated or malformed file?)")
                cpds[var] = flat.reshape(m, k).T
            return cpds

    return _NETReader


def reader_path(reader: Any) -> str:
    """Return the file a pgmpy reader was given (for messages)."""
    return str(getattr(reader, "_bnx_path", "UAI file"))


def _uai_model(reader: Any) -> Any:
    """Build a Bayesian network from pgmpy's UAI parser, with tables laid out as UAI defines.

    In a UAI ``BAYES`` file the child is the last variable of each function's scope
    and the last variable changes fastest. pgmpy 1.1's ``UAIReader.get_model`` reads
    the values child-first instead, which transposes every table; we keep its parser
    and reshape the values ourselves.
    """
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    if reader.network_type != "BAYES":
        raise NetworkFileError(f"{reader_path(reader)}: UAI network type "
                               f"{reader.network_type!r} is not BAYES")
    parsed = reader.grammar.parse_string(reader.network)
    card = {v: int(reader.domain[v]) for v in reader.variables}
    model = DiscreteBayesianNetwork()
    model.add_nodes_from(reader.variables)
    cpds = []
    children: set = set()
    for fn in range(int(reader.no_functions)):
        scope = parsed["fun_" + str(fn)]
        scope = [scope] if isinstance(scope, int) else list(scope)
        names = ["var_" + str(v) for v in scope]
        raw = parsed["fun_values_" + str(fn)]
        raw = [raw] if isinstance(raw, str) else list(raw)  # one value comes as a string
        values = np.array([float(v) for v in raw])
        if names[-1] in children:
            raise NetworkFileError(f"{reader_path(reader)}: two tables for {names[-1]}")
        children.add(names[-1])
        child, parents = names[-1], names[:-1]
        values = values.reshape([card[v] for v in names])
        values = np.moveaxis(values, -1, 0).reshape(card[child], -1)
        model.add_edges_from((p, child) for p in parents)
        if parents:
            cpds.append(TabularCPD(child, card[child], values, evidence=parents,
                                   evidence_card=[card[p] for p in parents]))
        else:
            cpds.append(TabularCPD(child, card[child], values))
    _check_uai_length(reader, parsed, card)
    model.add_cpds(*cpds)
    return model


def _check_uai_length(reader: Any, parsed: Any, card: dict) -> None:
    """Refuse a UAI file with more entries than declared (pgmpy's grammar stops after them)."""
    tokens = reader.network.split()
    n = len(card)
    expected = 3 + n  # type, number of variables, cardinalities, number of functions
    for fn in range(int(reader.no_functions)):
        scope = parsed["fun_" + str(fn)]
        scope = [scope] if isinstance(scope, int) else list(scope)
        raw = parsed["fun_values_" + str(fn)]
        raw = [raw] if isinstance(raw, str) else list(raw)
        expected += 1 + len(scope) + 1 + len(raw)
    if len(tokens) != expected:
        raise NetworkFileError(
            f"{reader_path(reader)}: the file has {len(tokens)} numbers where its header "
            f"declares {expected}; a table has more or fewer entries than it says")
