"""The ``bnx`` command's parser and its ``compile``, ``explain`` and ``serve`` commands.

:func:`main` runs one command line.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence

from ..errors import OnStatesError
from ._options import (
    COMPILE_HELP,
    COMPILE_UP_TO,
    MAX_BYTES_HELP,
    MAX_MEMORY_HELP,
    MAX_NODES_HELP,
    add_model_options,
    max_bytes,
    max_memory,
    max_nodes,
    positive_int,
    shows_progress,
)
from .text import _legend, _names, _pairs, _show

__all__ = ["main"]

_ODD_SUFFIXES = (".bnx", ".json")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not usage + message
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


_BACKEND_HELP = ("the dd backend: auto (CUDD when dd.cudd is installed, else the pure "
                 "Python one), autoref (pure Python) or cudd (default auto)")


def _build_parser() -> argparse.ArgumentParser:
    from .._version import __version__
    p = _Parser(prog="bnx", description="Exact symbolic explanations of Bayesian network "
                "classifiers (Shih, Choi and Darwiche, IJCAI 2018).")
    p.add_argument("--version", action="version", version=f"bnx {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    v = sub.add_parser("votes", help="the paper's votes case study, end to end",
                       description="Learn naive Bayes from the UCI votes data, compile it and "
                       "explain it; print the paper's figures beside ours.")
    v.add_argument("--backend", default="auto", choices=["auto", "autoref", "cudd"],
                   help=_BACKEND_HELP)
    v.add_argument("--quick", action="store_true",
                   help="skip the MC-explanations of all positive instances")
    v.add_argument("--no-progress", action="store_true",
                   help="no progress bar (drawn only when stderr is a terminal)")

    def network_args(q):
        q.add_argument("network", metavar="NETWORK",
                       help="a .bif, .xmlbif, .net or .uai network file, or one of them "
                       "gzipped (.bif.gz, ...)")
        q.add_argument("--class", dest="class_var", required=True, metavar="C",
                       help="the class variable")
        q.add_argument("--positive", metavar="S",
                       help="its positive state (without it: the most probable of the "
                       "class's states is decided, one ODD for every class)")
        q.add_argument("--threshold", type=float, metavar="T",
                       help="decide positive iff Pr(C=S | x) >= T (default 0.5)")
        q.add_argument("--rule", choices=["threshold", "argmax"], default=None,
                       help="threshold (default): Pr(C=S | x) >= T; argmax: S is the most "
                       "probable state of C (the first one wins a tie)")
        q.add_argument("--features", metavar="F1,F2,...",
                       help="the observed features, any nodes but the class (default: the "
                       "network's leaves)")
        q.add_argument("--order", metavar="F1,F2,...", help="the ODD's variable order")
        q.add_argument("--backend", default="auto", choices=["auto", "autoref", "cudd"],
                       help=_BACKEND_HELP)
        q.add_argument("--max-nodes", type=max_nodes, metavar="N", help=MAX_NODES_HELP)
        q.add_argument("--max-bytes", type=max_bytes, metavar="B",
                       help=MAX_BYTES_HELP)
        q.add_argument("--max-memory", type=max_memory, metavar="B", help=MAX_MEMORY_HELP)
        q.add_argument("--timeout", type=_positive_float, metavar="S",
                       help="stop compiling after S seconds")
        q.add_argument("--no-progress", action="store_true",
                       help="no progress bar (shown when the ODD is estimated to be large)")

    c = sub.add_parser("compile", help="compile a network file into its decision function",
                       description="Compile a classifier and print its ODD's size, its number "
                       "of positive instances (without --positive, of instances decided each "
                       "class state) and the compile time.")
    network_args(c)
    c.add_argument("--output", metavar="FILE.bnx",
                   help="save the compiled ODD (load it with bnx.ODD.load or bnx explain)")
    c.add_argument("--draw", metavar="FILE",
                   help="draw the ODD (.dot, or .svg/.png/.pdf with Graphviz)")

    e = sub.add_parser("explain", help="explain one decision",
                       description="Print the report on the decision on an instance: what was "
                       "decided, why, and what would change it (with --background, the SHAP "
                       "values too; an instance that leaves features out gets how sure its "
                       "decision is). --mc, --pi, --shortest, --on and the question flags "
                       "print those answers instead. NETWORK may also be an ODD saved by "
                       "'bnx compile --output' (then --class and --positive are not needed). "
                       "A network too large to compile is explained without compiling, one "
                       "decision at a time (see --compile). "
                       "Without --positive the classifier picks the most probable class state, "
                       "and --rival S asks why it and not S.")
    add_model_options(e, backend_help=_BACKEND_HELP, seconds=_positive_float,
                      max_nodes_help=MAX_NODES_HELP + " (a naive Bayes or TAN classifier "
                      "is then explained by bnx.linear without compiling)",
                      progress_help="no progress bar (shown when the ODD is estimated to be "
                      "large, and for --data on a terminal)", compile_help=COMPILE_HELP,
                      timeout_help="bound the report to S seconds after the file is read "
                      "(default 10; with --data, each row's report, and no default on "
                      "compiling): compiling the network may take up to half of it (all of "
                      "it with --compile yes, which has no default bound), and a compile "
                      "that does not finish gives way to the report without compiling; "
                      "what was proven by then is reported"),
    source = e.add_mutually_exclusive_group(required=True)
    source.add_argument("--instance", metavar='"F1=s1,F2=s2,..."',
                        help="an instance; for a partial one (features left out are "
                        "unobserved) the report says how sure its decision is and what to "
                        "observe next")
    source.add_argument("--data", metavar="ROWS.csv",
                        help="explain every row of a CSV file with a header line naming the "
                        "features ('?' and empty cells are missing); prints or writes one "
                        "line of answers per row (see --output)")
    e.add_argument("--output", metavar="ANSWERS.csv",
                   help="with --data: write the answers here (default: print them)")
    e.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="with --data: worker processes (default 1)")
    e.add_argument("--what", metavar="A1,A2,...",
                   help="with --data: the answers (default decision,posterior,mc_count,"
                   "mc_shortest,pi_count,pi_shortest; the MC answers are left out, with a "
                   "note, when a feature's on state is unknown: see --on)")
    e.add_argument("--within", choices=("support", "all"),
                   help="the instances the report's reasons and changes range over: support "
                   "(the default: those the network allows) or all (every instance, the "
                   "decision function of the paper)")
    e.add_argument("--rival", metavar="S",
                   help="a multi-class classifier (no --positive): why the decided class and "
                   "not the class S (the reasons rule S out, the changes make it S)")
    e.add_argument("--on", metavar='"F1=s1|s2,..."',
                   help="on states for MC-explanations (default: those declared on the "
                   "classifier, else a binary feature's affirmative state: yes of yes/no, "
                   "1 of 1/0, + of +/-, ...; other features need one)")
    kind = e.add_mutually_exclusive_group()
    kind.add_argument("--mc", action="store_true", help="only MC-explanations")
    kind.add_argument("--pi", action="store_true", help="only PI-explanations")
    e.add_argument("--shortest", action="store_true",
                   help="only the shortest explanations")
    e.add_argument("--limit", type=positive_int, default=20, metavar="N",
                   help="show at most N explanations of each kind (default 20)")
    from .questions import question_args
    question_args(e)
    from .serve import add_serve_parser
    add_serve_parser(sub, backend_help=_BACKEND_HELP, seconds=_positive_float)
    from .check import add_check_parser
    add_check_parser(sub, backend_help=_BACKEND_HELP, seconds=_positive_float)
    return p


# ---------------------------------------------------------------------- helpers
def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


#: Show a progress bar when estimate_size predicts at least this many nodes.
PROGRESS_FROM = 200_000


def _compile(clf, args, timeout: float | None = None):
    """Compile with the command's budget; a bar when the ODD is estimated to be large.

    ``timeout``: the compile's bound when the command gives it one (default ``--timeout``).
    """
    from ..compilation import compile as compile_
    from ..compilation import estimate_size
    order = _names(args.order)
    progress = shows_progress(args) and estimate_size(clf, order) >= PROGRESS_FROM
    return compile_(clf, order, backend=args.backend, max_nodes=args.max_nodes,
                    timeout=args.timeout if timeout is None else timeout,
                    max_memory=getattr(args, "max_memory", None), progress=progress)


def _load(args, timeout: float | None = None):
    """(classifier or None, odd) from the arguments; ``timeout`` as for :func:`_compile`."""
    from ..errors import BnxError
    if args.network.endswith(_ODD_SUFFIXES):
        from ..odd._odd import ODD
        given = [opt for opt, value in (("--class", args.class_var), ("--positive", args.positive),
                                        ("--threshold", args.threshold), ("--rule", args.rule),
                                        ("--features", args.features), ("--order", args.order),
                                        ("--max-nodes", args.max_nodes),
                                        ("--max-memory", getattr(args, "max_memory", None)),
                                        ("--timeout", args.timeout),
                                        ("--compile", None if getattr(args, "compile", "auto")
                                         == "auto" else args.compile)) if value is not None]
        if given:
            raise BnxError(f"{', '.join(given)} cannot change a saved ODD; compile the network "
                           f"again with them")
        return None, ODD.load(args.network, backend=args.backend)
    _check_network_path(args.network)
    if args.class_var is None:
        raise BnxError("--class is required with a network file (and --positive for a "
                       "yes-or-no decision about one state)")
    clf = args.classifier = getattr(args, "classifier", None) or _classifier(args)
    return clf, _compile(clf, args, timeout)


def _check_network_path(path: str) -> None:
    """Refuse a file that is neither a network nor a saved ODD, or that is not there.

    This is checked before asking for the options a network needs.
    """
    import os

    from ..errors import NetworkFileError
    from ..network.readers import network_format
    ext, found = network_format(path)
    if ext is None:
        raise NetworkFileError(
            f"{path}: neither a network file (.bif, .xml, .xmlbif, .net, .uai, or one of "
            f"them gzipped: .bif.gz) nor a saved ODD ({', '.join(_ODD_SUFFIXES)}), by its "
            f"extension {found or '(none)'!r}")
    if not os.path.isfile(path):
        raise NetworkFileError(f"{path}: no such file")


def _classifier(args, **more):
    """Make the classifier that --class, --positive, --threshold, --rule and --features name.

    ``more``: other arguments of the classifier, as ``ordinal=``. Without --positive, the
    multi-class classifier (the most probable class state).
    """
    from ..classifier._classifier import Classifier
    from ..errors import BnxError
    if args.positive is None:
        if args.threshold is not None:
            raise BnxError("--threshold needs --positive (the state it is a threshold on); "
                           "without it the most probable class state is decided")
        return Classifier.from_file(args.network, args.class_var,
                                    features=_names(args.features),
                                    max_bytes=args.max_bytes, **more)
    if args.rule == "argmax":
        if args.threshold is not None:
            raise BnxError("--threshold cannot be used with --rule argmax: the most probable "
                           "state decides")
        return Classifier.from_file(args.network, args.class_var, args.positive,
                                    features=_names(args.features), rule="argmax",
                                    max_bytes=args.max_bytes, **more)
    threshold = 0.5 if args.threshold is None else args.threshold
    return Classifier.from_file(args.network, args.class_var, args.positive,
                                threshold=threshold, features=_names(args.features),
                                max_bytes=args.max_bytes, **more)


def _rule_text(clf) -> str:
    if clf.multiclass:
        return (f"the most probable state of {clf.class_var} (argmax, the first one wins a "
                f"tie): {', '.join(map(str, clf.classes))}")
    if clf.rule == "argmax":
        return f"{clf.class_var}={clf.positive} is the most probable state (argmax)"
    return f"Pr({clf.class_var}={clf.positive} | x) >= {float(clf.threshold):g}"


# ---------------------------------------------------------------------- commands
def _cmd_compile(args) -> None:
    clf = _classifier(args)
    t0 = time.perf_counter()
    odd = _compile(clf, args)
    dt = time.perf_counter() - t0
    print(f"network:    {args.network} ({clf.structure.replace('_', ' ')}, "
          f"{len(clf.features)} features)")
    print(f"decision:   {_rule_text(clf)}")
    print(f"order:      {', '.join(map(str, odd.features))}")
    print(f"ODD size:   {odd.size} nodes ({odd.backend})")
    from .questions import world_counts
    counts, total = world_counts(odd)  # among the instances the network allows
    n = sum(counts.values())
    among = "instances" if n == total else f"instances the network allows ({total:,} in all)"
    if clf.multiclass:
        print("decided:    " + ", ".join(f"{s} {k:,}" for s, k in counts.items())
              + f" of {n:,} {among}")
    else:
        print(f"positive:   {counts[True]:,} of {n:,} {among}")
    print(f"compiled:   {dt * 1000:.1f} ms")
    if args.output:
        odd.save(args.output)
        print(f"saved:      {args.output}")
    if args.draw:
        odd.draw(args.draw)
        print(f"drawn:      {args.draw}")


#: naive Bayes and TAN classifiers with more features are explained without compiling
_LINEAR_WIDTH = 30


def _explain_linear(args, reason: str | None = None) -> bool:
    """Explain a naive Bayes or TAN classifier too wide to compile, with bnx.linear.

    True if done.

    Too wide: more than ``_LINEAR_WIDTH`` features, or ``reason`` (compilation failed).
    """
    if args.network.endswith(_ODD_SUFFIXES) or args.class_var is None or args.positive is None:
        return False
    from ..linear.report import explain_text, explainable
    clf = args.classifier = getattr(args, "classifier", None) or _classifier(args)
    # read once: _load uses it too
    if not explainable(clf) or (reason is None and len(clf.features) <= _LINEAR_WIDTH):
        return False
    reason = reason or (f"{len(clf.features)} features are too many to compile "
                        f"(more than {_LINEAR_WIDTH})")
    on = _on_arg(args)
    how = ("exact for TANs: a dynamic programme over the feature tree" if
           clf.structure == "tan" else "exact for naive Bayes")
    print(f"note: {reason}; explained without compiling by bnx.linear ({how})\n")
    if _report_mode(args):
        from ..report import explain
        print(explain(clf, _pairs(args.instance, "--instance"), **_bounded(args)).text())
        return True
    print(explain_text(clf, _pairs(args.instance, "--instance"), on=on, mc=not args.pi,
                       pi=not args.mc, shortest=args.shortest, limit=args.limit))
    return True


def _on_arg(args) -> dict | None:
    if not args.on:
        return None
    return {k: v.split("|") for k, v in _pairs(args.on, "--on").items()}


def _on_refused(odd, on: dict | None) -> str | None:
    """Why MC-explanations are refused (features whose on states are unknown), or None."""
    from ..explanation.mc import on_states
    try:
        on_states(odd, on)
    except OnStatesError as exc:
        return str(exc)
    return None


def _explain_rows(args, odd) -> None:
    """Run ``bnx explain MODEL --data ROWS.csv``: :func:`bnx.explain_data` over a CSV file.

    ``odd`` is the compiled ODD, or a classifier explained without compiling.
    """
    import pandas as pd

    from ..classifier._classifier import Classifier
    from ..errors import ArgumentError, DataError
    from ..tabular.batch import default_what, explain_data
    try:
        rows = pd.read_csv(args.data, dtype=str, na_values=["?", ""], keep_default_na=False,
                           skipinitialspace=True)
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read the CSV file {args.data!r}: {exc}") from None
    on = _on_arg(args)
    what = _names(args.what)
    if what is not None and not what:
        raise ArgumentError("--what names no answer")
    if isinstance(odd, Classifier):  # each row's report; --timeout bounds each one
        answers = explain_data(odd, rows, what=what, n_jobs=args.jobs,
                               progress=shows_progress(args), timeout=args.timeout)
        return _write_answers(args, answers)
    if what is None:  # explain_data's default, with its note on stderr
        what, note = default_what(odd, on)
        if note:
            print(f"bnx: note: {note}", file=sys.stderr)
    background = None
    if args.shap:
        from .questions import read_background
        what, background = [*what, "shap"], read_background(args)
    if args.sensitivity:
        what = [*what, "sensitivity"]
    answers = explain_data(odd, rows, what=what, on=on, n_jobs=args.jobs,
                           progress=shows_progress(args),
                           background=background)
    _write_answers(args, answers)


def _write_answers(args, answers) -> None:
    """Print the answers of ``--data`` as CSV, or write them to ``--output``."""
    from ..errors import OutputError
    if args.output is None:
        print(answers.to_csv(index_label="row"), end="")
        return
    try:
        answers.to_csv(args.output, index_label="row")
    except OSError as exc:
        raise OutputError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"explained {len(answers):,} rows of {args.data} into {args.output} "
          f"({', '.join(answers.columns)})")


def _report_mode(args) -> bool:
    """Whether ``bnx explain`` prints the report: no option selects single answers."""
    from .questions import questions_asked
    return not (args.mc or args.pi or args.shortest or args.on or args.immutable
                or questions_asked(args))


def _bounded(args, left: float | None = None) -> dict:
    """``timeout=`` and ``within=`` for :func:`bnx.explain` where given, and ``progress=``.

    ``left``: the seconds of the command's bound still left (after compiling), which then
    is the timeout.
    """
    out = {} if args.timeout is None else {"timeout": args.timeout}
    if left is not None:
        out["timeout"] = max(left, 1e-3)
    if getattr(args, "within", None) is not None:  # (bnx explain only)
        out["within"] = args.within
    out["progress"] = shows_progress(args)  # the seconds spent, on a terminal
    return out


def _report_bound(args) -> float | None:
    """Return the seconds ``bnx explain`` gives one report: ``--timeout``, or 10 s."""
    from ..report._build import SEARCH_TIMEOUT
    return SEARCH_TIMEOUT if args.timeout is None else args.timeout


def _compile_share(args) -> float | None:
    """Return the compile's bound in ``bnx explain`` on a network file (``None``: none).

    Half of the report's (:func:`_report_bound`) with ``--compile auto``, the rest left to
    the report, on the diagram or, when the compile does not finish, without it; with
    ``--compile yes``, ``--timeout`` as given (no default); the single answers and
    ``--data`` need the whole decision function: ``--timeout`` as given.
    """
    return _report_bound(args) / 2 if _auto_report(args) else args.timeout


def _auto_report(args) -> bool:
    """Whether ``bnx explain`` prints one report and may explain it without compiling."""
    return (args.data is None and _report_mode(args) and args.background is None
            and args.compile == "auto")


#: The options of ``bnx explain`` that need the whole decision function (single answers,
#: questions about every instance) or concern compiling it.
_DIAGRAM_FLAGS = ("mc", "pi", "shortest", "on", "immutable")


def _diagram_asks(args) -> list[str]:
    """Return the options given that need the compiled decision function.

    ``--compile auto`` then compiles; ``--compile no`` refuses them.
    """
    from ..tabular._reports import REPORT_WHAT
    from ..tabular.batch import WHAT
    from .questions import _QUESTIONS
    asks = []
    if args.data is None:
        asks += [f"--{k}" for k in (*_DIAGRAM_FLAGS, *_QUESTIONS) if getattr(args, k)]
    else:
        odd_only = [w for w in _names(args.what) or () if w in WHAT and w not in REPORT_WHAT]
        if odd_only:
            asks.append(f"--what {','.join(odd_only)}")
        asks += [f"--{k}" for k in ("on", "shap", "sensitivity") if getattr(args, k)]
    return asks + [opt for opt, value in (("--order", args.order),
                                          ("--max-nodes", args.max_nodes)) if value is not None]


def _report_only(args) -> list[str]:
    """Return the answers of ``--data --what`` that only a report without compiling gives."""
    from ..tabular._reports import REPORT_WHAT
    from ..tabular.batch import WHAT
    if getattr(args, "data", None) is None:
        return []
    return [w for w in _names(args.what) or () if w in REPORT_WHAT and w not in WHAT]


def _uncompiled(args, asks: list[str]):
    """Return the network file's classifier when ``--compile`` says not to compile it.

    ``None``: compile it (or it is a saved ODD).

    ``--compile auto`` compiles when an option needs the whole decision function (``asks``)
    or when it is estimated at most :data:`COMPILE_UP_TO` nodes (a note on stderr says when
    it is not compiled); ``--compile no`` never compiles, and refuses those options;
    ``--compile yes`` always compiles. Answers only a report gives (``--what reason``,
    :func:`_report_only`) are never compiled for.
    """
    from ..errors import ArgumentError, BnxError
    mode = args.compile
    if args.network.endswith(_ODD_SUFFIXES) or mode == "yes":
        return None
    if asks and mode == "no":
        raise ArgumentError(f"{', '.join(asks)} {'needs' if len(asks) == 1 else 'need'} "
                            f"the compiled decision function, which --compile no does not "
                            f"build: compile once with 'bnx compile NETWORK ... --output "
                            f"MODEL.bnx' and use MODEL.bnx, or leave --compile no out")
    if asks:
        return None
    _check_network_path(args.network)
    if args.class_var is None:
        raise BnxError("--class is required with a network file (and --positive for a "
                       "yes-or-no decision about one state)")
    clf = args.classifier = getattr(args, "classifier", None) or _classifier(args)
    if mode == "auto" and not _report_only(args):
        from ..compilation import estimate_size
        size = estimate_size(clf)
        if size <= COMPILE_UP_TO:
            return None
        print(f"bnx: note: the decision function is estimated at {size:,} nodes (over "
              f"{COMPILE_UP_TO:,}): explained without compiling (--compile yes compiles it)",
              file=sys.stderr)
    return clf


def _without_compiling(args) -> bool:
    """Explain a network file without compiling when ``--compile`` says so; True if done.

    ``bnx explain NETWORK`` (:func:`_uncompiled`): the report on the instance by
    :func:`bnx.explain` on the classifier (with ``--data``, :func:`bnx.explain_data` on
    it, each row's report), nothing compiled.
    """
    from ..errors import ArgumentError
    asks, only = _diagram_asks(args), _report_only(args)
    if asks and only:
        raise ArgumentError(f"{', '.join(asks)} need the compiled decision function and "
                            f"--what {','.join(only)} a report without compiling: ask for "
                            f"them in two runs")
    if (args.compile == "no" and args.data is None and asks
            and set(asks) <= {"--mc", "--pi", "--shortest", "--on"}
            and _explain_linear(args, reason="not compiled (--compile no)")):
        return True  # naive Bayes and TAN: single answers without compiling
    clf = _uncompiled(args, asks)
    if clf is None:
        return False
    if args.data is not None:
        _explain_rows(args, clf)
        return True
    _instance_only(args)
    from ..report import explain
    from .questions import read_background
    background = read_background(args) if args.background is not None else None
    print(explain(clf, _pairs(args.instance, "--instance"), rival=args.rival,
                  background=background, **_bounded(args)).text())
    return True


def _explain_instead(args, exc, started: float) -> None:
    """Print the report without compiling, after a compile that ran out of its share.

    The report gets what is left of the command's bound (:func:`_report_bound`).
    """
    from ..report import explain
    _instance_only(args)
    left = _report_bound(args) - (time.monotonic() - started)
    print(f"bnx: note: not compiled ({exc}); explained without compiling in the "
          f"{max(left, 0):.1f} s left of the report's {_report_bound(args):g} s "
          f"(--compile yes compiles it; --timeout S gives the report more)", file=sys.stderr)
    print(explain(args.classifier, _pairs(args.instance, "--instance"), rival=args.rival,
                  **_bounded(args, left)).text())


def _instance_only(args) -> None:
    """Refuse the options of ``--data`` with ``--instance``."""
    from ..errors import BnxError
    for opt in ("output", "what"):
        if getattr(args, opt) is not None:
            raise BnxError(f"--{opt} goes with --data, not with --instance")


def _cmd_explain(args) -> None:
    from ..errors import BnxError, CompilationLimitError
    if args.within is not None and (args.data is not None or not _report_mode(args)):
        raise BnxError("--within goes with the report on one instance (not with --data or "
                       "the options that ask single questions)")
    from ..explanation.pi import pi_explanations
    linear = args.compile != "yes"  # bnx.linear for a wide naive Bayes or TAN
    if args.data is None and linear and _explain_linear(args):
        return
    if _without_compiling(args):
        return
    started = time.monotonic()  # (after reading the file: the report's bound counts from here)
    share = None if args.network.endswith(_ODD_SUFFIXES) else _compile_share(args)
    try:
        clf, odd = _load(args, share)
    except CompilationLimitError as exc:
        if args.data is None and linear and _explain_linear(args, reason=str(exc)):
            return
        if _auto_report(args):  # (a saved ODD is not compiled: never here)
            return _explain_instead(args, exc, started)
        asks = _diagram_asks(args)
        if asks and args.compile == "auto":  # what the user can do on this command line
            raise CompilationLimitError(
                f"{exc}. {', '.join(asks)} {'needs' if len(asks) == 1 else 'need'} the "
                f"whole decision function; without {'it' if len(asks) == 1 else 'them'}, "
                f"bnx explain reports on this one decision without compiling") from None
        raise
    if args.data is not None:
        return _explain_rows(args, odd)
    _instance_only(args)
    x = _pairs(args.instance, "--instance")
    if _report_mode(args):  # the report; a saved ODD's posterior from its tables, no pgmpy
        from ..report import explain
        from .questions import read_background
        background = read_background(args) if args.background is not None else None
        left = None
        if args.network.endswith(_ODD_SUFFIXES) or args.compile != "yes":
            left = _report_bound(args) - (time.monotonic() - started)
        print(explain(odd, x, rival=args.rival, background=background,
                      **_bounded(args, left)).text())
        return
    head, whole, rival = None, odd, None
    if odd.multiclass:  # the questions are asked of one class formula, named as the report's
        if set(x) < set(odd.features):  # evidence: the report says how sure and what next
            from ..report import explain
            print(explain(odd, x).text())
            return
        from ..odd._odd import formula_for
        formula_for(odd, x, rival=args.rival)  # the rival checked before anything prints
        rival = args.rival  # every question takes the multi-class ODD and the rival
    elif args.rival is not None:
        from ..odd._odd import formula_for
        formula_for(odd, x, rival=args.rival)  # a binary ODD: only its other decision
    if clf is None and (args.sdp or args.sensitivity or set(x) < set(odd.features)):
        clf = odd.classifier  # a saved ODD's classifier (None for old files)
    from .observe import explain_partial, is_partial
    if is_partial(clf, x):  # evidence: its decision and what to observe next
        return explain_partial(clf, odd, x, args.limit)
    on = _on_arg(args)
    feats = list(clf.features) if clf is not None else list(odd.display_order)
    if len(feats) > 6:
        print(_legend(feats))
    from ..report import decided_text  # the report's first sentence; no pgmpy for a file
    print(decided_text(odd, x) if head is None else head)
    from .questions import answer_questions, questions_asked
    only_questions = questions_asked(args) and not (args.mc or args.pi)
    refused = None if args.pi or only_questions else _on_refused(odd, on)
    if refused is not None and not args.mc:
        print(f"\n{refused}")
    elif refused is not None:  # --mc asked for them: an error, in the same words
        raise OnStatesError(refused)
    elif not args.pi and not only_questions:
        from ..explanation.mc import mc_explanations
        mc = mc_explanations(whole, x, rival=rival, on=on)  # titled in the class's words
        print("\n" + _show(mc.shortest() if args.shortest else mc, args.limit, feats))
    if not args.mc and not only_questions:
        pi = pi_explanations(whole, x, rival=rival)
        print("\n" + _show(pi.shortest() if args.shortest else pi, args.limit, feats))
    answer_questions(args, clf, odd, x, feats, rival=rival)


def _cmd_serve(args) -> None:
    """Serve the explorer page of the model until Ctrl-C (``bnx serve``).

    A network file's classifier is compiled or not as ``--compile`` says, as for ``bnx
    explain``.
    """
    from ..serve import run
    asks = [opt for opt, value in (("--order", args.order), ("--max-nodes", args.max_nodes))
            if value is not None]
    clf = _uncompiled(args, asks)
    how = {"host": args.host, "port": args.port, "workers": args.workers,
           "deadline": args.deadline, "queue": args.queue, "exit": True}
    if clf is not None:  # --timeout bounds each report
        return run(clf, timeout=args.timeout, **how)
    _, odd = _load(args)
    run(odd, **how)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bnx`` command; returns the exit code."""
    from ..errors import BnxError
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    from .check import cmd_check
    from .votes import cmd_votes as _cmd_votes
    model = argparse.Namespace(saved=lambda a: a.network.endswith(_ODD_SUFFIXES), load=_load,
                               classifier=_classifier, compile=_compile)
    handler = {"votes": _cmd_votes, "compile": _cmd_compile, "explain": _cmd_explain,
               "serve": _cmd_serve, "check": lambda a: cmd_check(a, model)}
    try:
        handler[args.command](args)
    except BnxError as exc:
        print(f"bnx: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bnx: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
