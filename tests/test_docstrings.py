"""Every public function's docstring has the four numpydoc sections a reader looks for.

The public functions are the callables of ``bnx.__all__``, ``bnx.linear.__all__`` and the
``__all__`` of ``bnx.compilation``, ``bnx.report`` and ``bnx.serve``. Each docstring, read by
``numpydoc.docscrape`` (the parser the documentation site uses), must have Parameters,
Returns, See Also and Examples; every name in See Also must be a public object (so the
links stay true when a name moves), and the examples are doctests that call the function
(the suite runs them: ``--doctest-modules``).
"""

from __future__ import annotations

import importlib
import inspect

import pytest
from numpydoc import docscrape

import bnx

MODULES = ("bnx", "bnx.linear", "bnx.compilation", "bnx.report", "bnx.serve")
SECTIONS = ("Parameters", "Returns", "See Also", "Examples")


def _public_functions() -> dict[str, object]:
    """Name each public function once, by its first public path in ``MODULES``' order."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if inspect.isfunction(obj) and id(obj) not in seen:
                seen.add(id(obj))
                found[f"{name}.{attr}"] = obj
    return found


FUNCTIONS = _public_functions()


def _resolve(name: str, function) -> object | None:
    """Find the object a See Also entry names: in the function's module, or a dotted path."""
    name = name.lstrip("~.")
    module = inspect.getmodule(function)
    head, *rest = name.split(".")
    candidates = []
    if hasattr(module, head):
        candidates.append((getattr(module, head), rest))
    if hasattr(bnx, head):
        candidates.append((getattr(bnx, head), rest))
    for cut in range(len(name.split(".")), 0, -1):
        parts = name.split(".")
        try:
            candidates.append((importlib.import_module(".".join(parts[:cut])), parts[cut:]))
        except ImportError:
            continue
        break
    for obj, path in candidates:
        for part in path:
            obj = getattr(obj, part, None)
        if obj is not None:
            return obj
    return None


def test_the_public_functions_are_found():
    assert "bnx.compile" in FUNCTIONS and "bnx.serve.run" in FUNCTIONS
    assert len(FUNCTIONS) >= 40


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_public_function_has_the_four_sections(name):
    function = FUNCTIONS[name]
    doc = docscrape.FunctionDoc(function)
    missing = [section for section in SECTIONS if not doc[section]]
    assert not missing, f"{name}'s docstring has no {', '.join(missing)}"
    documented = {p.name.split(":")[0].strip() for p in doc["Parameters"]}
    documented = {part.strip().lstrip("*") for n in documented for part in n.split(",")}
    params = [p for p in inspect.signature(function).parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    undocumented = [p.name for p in params if p.name not in documented]
    assert not undocumented, f"{name}'s Parameters leave out {undocumented}"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_see_also_names_public_objects(name):
    function = FUNCTIONS[name]
    entries = [n for names, _ in docscrape.FunctionDoc(function)["See Also"] for n, _ in names]
    unknown = [n for n in entries if _resolve(n, function) is None]
    assert not unknown, f"{name}'s See Also names {unknown}, which are not found"
    assert all(_resolve(n, function) is not function for n in entries), \
        f"{name}'s See Also names the function itself"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_the_examples_call_the_function(name):
    function = FUNCTIONS[name]
    examples = "\n".join(docscrape.FunctionDoc(function)["Examples"])
    assert ">>> " in examples, f"{name}'s Examples hold no doctest"
    assert f"{function.__name__}(" in examples, f"{name}'s Examples never call it"


def test_the_check_finds_what_it_forbids():
    def undocumented(x):
        """Do something.

        Returns
        -------
        int
        """

    def named_wrong(x):
        """Do something.

        Parameters
        ----------
        x : int

        See Also
        --------
        bnx.no_such_function
        """

    assert not docscrape.FunctionDoc(undocumented)["Parameters"]
    assert not docscrape.FunctionDoc(undocumented)["Examples"]
    assert _resolve("bnx.no_such_function", named_wrong) is None
    assert _resolve("bnx.robustness", named_wrong) is bnx.robustness
    assert _resolve("compile", bnx.estimate_size) is bnx.compile
