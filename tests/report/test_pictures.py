"""The report's pictures are readable: no text overlaps another (measured with the
renderer's extents of the drawn figure), and the title, the labels and the legend are all
inside the canvas; a partial instance draws what it knows (how sure the decision is and
what to observe next), not empty axes; large networks are laid out box by box, or drawn
as the class's neighbourhood."""

from __future__ import annotations

import itertools

import pytest

import bnx
from tests._support.bundled import bundled_bif

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ADMIT = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def admissions():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


def _extents(ax) -> list:
    """``(what, window extent)`` of every visible text the figure shows, on every axes
    (a twin's too): a node's box for text drawn in one, the text itself otherwise (tick
    labels in the view, titles, axis labels, legend entries)."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = []
    for axes in fig.axes:
        texts += [*axes.texts, axes.title, axes.xaxis.label, axes.yaxis.label]
        if axes.axison:
            for axis, (lo, hi) in ((axes.xaxis, axes.get_xlim()),
                                   (axes.yaxis, axes.get_ylim())):
                for tick in axis.get_major_ticks():
                    if min(lo, hi) <= tick.get_loc() <= max(lo, hi):
                        texts += [tick.label1, tick.label2]
        legend = axes.get_legend()
        if legend is not None:
            texts += legend.get_texts()
    out = []
    for t in texts:
        if not t.get_visible() or not t.get_text().strip():
            continue
        patch = t.get_bbox_patch()
        box = (patch if patch is not None else t).get_window_extent(renderer)
        out.append((t.get_text(), box))
    return out


def layout_problems(ax) -> list[str]:
    """Texts that overlap one another or leave the canvas, and a legend outside it."""
    fig = ax.figure
    canvas = fig.bbox
    found = _extents(ax)
    problems = [f"{what!r} leaves the canvas" for what, box in found
                if box.x0 < canvas.x0 - 0.5 or box.y0 < canvas.y0 - 0.5
                or box.x1 > canvas.x1 + 0.5 or box.y1 > canvas.y1 + 0.5]
    for (a, p), (b, q) in itertools.combinations(found, 2):
        overlap_w = min(p.x1, q.x1) - max(p.x0, q.x0)
        overlap_h = min(p.y1, q.y1) - max(p.y0, q.y0)
        if overlap_w > 1 and overlap_h > 1:  # more than a pixel each way
            problems.append(f"{a!r} overlaps {b!r}")
    legend = ax.get_legend()
    if legend is not None:
        box = legend.get_window_extent(fig.canvas.get_renderer())
        if not (box.x0 >= canvas.x0 - 0.5 and box.x1 <= canvas.x1 + 0.5
                and box.y0 >= canvas.y0 - 0.5 and box.y1 <= canvas.y1 + 0.5):
            problems.append("the legend leaves the canvas")
    return problems


def test_the_check_sees_overlaps_and_clipping():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_title("a title")
    ax.text(0.5, 1.02, "a heading on the title", transform=ax.transAxes, ha="center")
    ax.text(1.3, 0.5, "far off the canvas to the right", transform=ax.transAxes)
    problems = layout_problems(ax)
    assert "'a heading on the title' overlaps 'a title'" in problems or \
        "'a title' overlaps 'a heading on the title'" in problems
    assert "'far off the canvas to the right' leaves the canvas" in problems


@pytest.mark.parametrize("kind", ["reasons", "attributions", "partial"])
def test_report_plot_is_laid_out(admissions, kind):
    report = {"reasons": lambda: bnx.explain(admissions, ADMIT),
              "attributions": lambda: bnx.explain(admissions, ADMIT, background={}),
              "partial": lambda: bnx.explain(admissions, {"GPA": "+"})}[kind]()
    assert layout_problems(report.plot()) == []


def test_the_closest_change_heading_is_clear_of_the_title(admissions):
    ax = bnx.explain(admissions, ADMIT).plot()
    heading = [t for axes in ax.figure.axes for t in axes.texts
               if t.get_text().strip() == "closest change"]
    assert heading and not any("overlaps" in p for p in layout_problems(ax))


def test_a_partial_instance_draws_what_to_observe_next(admissions):
    """It drew empty axes: now a bar per unknown feature, how sure the decision would be
    on average once it is known, and the line of how sure it is now."""
    x = {"GPA": "+"}
    report = bnx.explain(admissions, x)
    ax = report.plot()
    bars = {round(p.get_width(), 12) for p in ax.patches}
    ranked = bnx.next_observations(admissions.classifier, x, odd=admissions)
    assert bars == {round(float(v), 12) for v in ranked["expected_sdp"]}
    assert len(ax.patches) == len(admissions.features) - len(x)
    assert [round(line.get_xdata()[0], 12) for line in ax.lines] == [round(report.sdp, 12)]


def test_long_names_stay_on_the_canvas():
    """Long feature and state names: the legend below the axes, inside the figure."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    cls, feature = "AdmissionDecisionOfTheBoard", "WorkExperienceInTheIndustry"
    states = {cls: ["rejected after review", "admitted to the programme"],
              feature: ["none at all", "more than five years"]}
    net = DiscreteBayesianNetwork([(cls, feature)])
    net.add_cpds(TabularCPD(cls, 2, [[0.4], [0.6]], state_names={cls: states[cls]}),
                 TabularCPD(feature, 2, [[0.7, 0.2], [0.3, 0.8]], evidence=[cls],
                            evidence_card=[2], state_names=states))
    odd = bnx.compile(bnx.Classifier(net, cls, states[cls][1]), backend="autoref")
    x = {feature: "more than five years"}
    for report in (bnx.explain(odd, x), bnx.explain(odd, x, background={})):
        assert layout_problems(report.plot()) == []


@pytest.fixture(scope="module")
def hepar2(tmp_path_factory):
    path = bundled_bif("hepar2", tmp_path_factory.mktemp("hepar2"))
    return bnx.Classifier(bnx.read_network(path), "Cirrhosis", "decompensate")


def test_plot_network_on_small_networks_is_laid_out(admissions):
    report = bnx.explain(admissions, ADMIT, background={})
    assert layout_problems(bnx.plot_network(admissions, ADMIT, report)) == []
    assert layout_problems(bnx.plot_network(bnx.examples.asia(), {"xray": "yes"})) == []


@pytest.mark.slow
def test_plot_network_on_hepar2_draws_the_class_s_neighbourhood_apart(hepar2):
    """70 nodes: the class box overlapped others; now the class's Markov blanket is
    drawn by default, the whole network on request, no two boxes overlapping."""
    ax = bnx.plot_network(hepar2, {"alcohol": "present"})
    blanket = set(hepar2.network.get_markov_blanket("Cirrhosis")) | {"Cirrhosis"}
    drawn = {t.get_text().split("\n")[0] for t in ax.texts if t.get_text()}
    assert drawn == blanket
    assert f"{len(blanket)} of 70 nodes" in ax.get_title()
    assert layout_problems(ax) == []
    whole = bnx.plot_network(hepar2, {"alcohol": "present"}, neighbourhood=False)
    assert len([t for t in whole.texts if t.get_text()]) == 70
    assert layout_problems(whole) == []


def test_neighbourhood_must_be_a_bool():
    with pytest.raises(bnx.ArgumentError, match="neighbourhood must be True, False or None"):
        bnx.plot_network(bnx.examples.asia(), {}, neighbourhood="yes")
