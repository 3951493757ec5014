"""The explorer's answer in a real browser (headless Chromium, as in test_serve_browser.py),
on pgmpy's child network with its six-state class Disease: every text of the SHAP chart
inside the chart (its legend "toward Disease = not TGA" was clipped), the class
probabilities shown, and nothing wider than the page at 1280 px.

Set ``BNX_SCREENSHOT_LAYOUT=path.png`` to keep a screenshot of the page.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from urllib.parse import urlencode

import pytest

import bnx
from tests._support.bundled import bundled_bif
from tests.serve.test_serve_browser import _set, _shown, browser  # noqa: F401 (a fixture)

pytest.importorskip("starlette")

CHILD_X = {"LowerBodyO2": "5-12", "RUQO2": "12+", "CO2Report": "<7.5", "XrayReport": "Normal",
           "GruntingReport": "no", "LVHreport": "no", "Age": "0-3_days"}


@pytest.fixture(scope="module")
def child_server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("child")
    clf = bnx.Classifier(bnx.read_network(bundled_bif("child", directory)), "Disease", "TGA")
    path = directory / "child.bnx"
    bnx.compile(clf).save(path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert " at http://127.0.0.1:" in line, proc.stderr.read()
    yield clf, line.split(" at ")[1].split()[0]
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)


def test_the_shap_chart_keeps_its_texts_and_the_page_shows_the_class_probabilities(
        browser, child_server):  # noqa: F811
    from selenium.webdriver.common.by import By
    clf, address = child_server
    states = {f: CHILD_X[f] for f in clf.features}
    browser.get(f"{address}?{urlencode({**states, 'background': 'marginals'})}")
    _shown(browser)
    svg = browser.find_element(By.CSS_SELECTOR, ".bnx-report svg")
    clipped = browser.execute_script("""
        const svg = arguments[0], width = svg.viewBox.baseVal.width || svg.width.baseVal.value;
        const out = [];
        for (const t of svg.querySelectorAll("text")) {
            const b = t.getBBox();
            if (b.x < 0 || b.x + b.width > width) out.push(t.textContent);
        }
        return out;""", svg)
    assert clipped == []
    legend = [t.text for t in svg.find_elements(By.TAG_NAME, "text")][:2]
    assert legend == ["toward Disease = TGA", "toward Disease = not TGA"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#class-probabilities th")
    assert [r.text for r in rows] == list(clf.class_states)
    # nothing scrolls sideways at 1280 px
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")
    shot = os.environ.get("BNX_SCREENSHOT_LAYOUT")
    if shot:
        browser.execute_script("arguments[0].scrollIntoView()", svg)
        browser.save_screenshot(shot)
