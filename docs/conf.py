"""Sphinx configuration of bnx's documentation site.

Build it with ``pip install -e ".[docs]"`` and ``python -m sphinx -W -b html docs
docs/_build/html`` (``.ci/run`` does, after the tests). The build never touches the network:
the intersphinx inventories are the small files in ``docs/_inventories`` (see its README),
and the notebooks are rendered from the outputs stored in them.
"""

from __future__ import annotations

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the clone's bnx, even without an editable install

import bnx  # noqa: E402

project = "bnx"
author = "bnx developers"
copyright = "bnx developers"
release = version = bnx.__version__

extensions = [
    "myst_nb",                      # Markdown pages (MyST) and the notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
]

root_doc = "index"
exclude_patterns = ["_build", "_inventories", "_scripts", "notebooks/.ipynb_checkpoints",
                    "**/.ipynb_checkpoints"]
templates_path = ["_templates"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# --- API reference: generated from the docstrings, every name in bnx.__all__ (api/index.rst)
autosummary_generate = True
autosummary_ignore_module_all = False      # a module page lists its __all__
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"                 # types are in the numpydoc sections
add_module_names = False
numpydoc_show_class_members = False        # the class template lists the members
numpydoc_class_members_toctree = False
# every documented function and method has its Returns section: -W fails on one without
numpydoc_validation_checks: set[str] = {"RT01"}

# --- Markdown and notebooks
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
# The notebooks are rendered from the outputs stored in them, never run here (the test
# suite runs them; tests/test_docs.py checks every code cell has its stored output).
nb_execution_mode = "off"

# --- Links to the libraries bnx builds on, without the network: the inventories are the
# small files in docs/_inventories, written offline by make_inventories.py there (Python,
# numpy, pandas; pgmpy and dd are skipped, see its docstring). BNX_DOCS_ONLINE=1 uses the
# sites' own inventories instead, pgmpy's included.
_INV = pathlib.Path(__file__).parent / "_inventories"
_SITES = {
    "python": "https://docs.python.org/3",
    "numpy": "https://numpy.org/doc/stable",
    "pandas": "https://pandas.pydata.org/docs",
    "pgmpy": "https://pgmpy.org",
}
if os.environ.get("BNX_DOCS_ONLINE"):
    intersphinx_mapping = {k: (url, None) for k, url in _SITES.items()}
else:
    intersphinx_mapping = {k: (url, str(_INV / f"{k}.inv")) for k, url in _SITES.items()
                           if (_INV / f"{k}.inv").exists()}
intersphinx_timeout = 5
numpydoc_xref_param_type = True
numpydoc_xref_ignore = "all"               # link only the names below, never plain words
_LINKED = ("pandas.DataFrame", "pandas.Series", "numpy.ndarray", "fractions.Fraction",
           "pathlib.Path", "os.PathLike", "collections.abc.Mapping", "bnx.Classifier",
           "bnx.ODD", "bnx.Explanations", "bnx.ExplanationCheck")
# a role, not a bare name: with numpydoc_xref_ignore = "all" a bare alias is not linked
numpydoc_xref_aliases = {
    **{name: f":obj:`{name}`" for name in _LINKED},
    **{name.rsplit(".", 1)[1]: f":obj:`~{name}`" for name in _LINKED},
}


def _skip_reexport(app, what, name, obj, skip, options):
    """Document a name re-exported by a module of ``bnx.__all__`` once.

    For example ``bnx.linear``'s ``ExplanationCheck``: it is documented at the top level,
    where it is listed.
    """
    if what == "module" and name in bnx.__all__ and getattr(bnx, name, None) is obj:
        return True
    return None


def setup(app):
    """Connect :func:`_skip_reexport` to autodoc."""
    app.connect("autodoc-skip-member", _skip_reexport)


# --- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"bnx {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list[str] = ["_static"]
# the report's 88-column text wraps within the page (docs/_static/bnx.css)
html_css_files = ["bnx.css"]
