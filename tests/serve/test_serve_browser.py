"""The explorer page in a real browser, as a person uses it: ``bnx serve`` on a free loopback
port, headless Chromium (Debian's ``chromium`` and ``chromium-driver``, which ``.ci/run``
installs) driven by selenium: set states, see the decision and the next observation change.

Skips, saying why, where selenium, Chromium or its driver cannot be had. Set
``BNX_SCREENSHOT=path.png`` to keep a screenshot of the page.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from urllib.parse import urlencode

import pytest

import bnx
from bnx.report import explain
from tests._support.bundled import bundled_bif, bundled_network

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-dev-shm-usage", "--window-size=1280,1000")


def _executable(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    chromium = _executable("chromium", "chromium-browser")
    driver = _executable("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("Chromium and its driver are not installed (apt-get install chromium "
                    "chromium-driver)")
    profile = tempfile.mkdtemp(prefix="bnx-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    try:
        session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    except WebDriverException as exc:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"Chromium does not start here: {exc.msg or exc}".splitlines()[0])
    session.set_page_load_timeout(30)
    yield session
    session.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def votes(tmp_path_factory):
    clf = bnx.Classifier(bnx.learn_naive_bayes(bnx.datasets.load_votes(), "party"),
                         "party", "republican")
    odd = bnx.compile(clf)
    path = tmp_path_factory.mktemp("serve") / "votes.bnx"
    odd.save(path)
    return odd, path


@pytest.fixture(scope="module")
def server(votes):
    """``bnx serve votes.bnx --port 0``: its address; stopped with Ctrl-C afterwards."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(votes[1]), "--port",
                             "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    line = proc.stdout.readline()
    assert " at http://127.0.0.1:" in line, proc.stderr.read()
    yield line.split(" at ")[1].split()[0]
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    assert proc.returncode == 0


def _shown(session):
    """(decision text, the first feature of the ranking or None) once the page is idle."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(session, 20).until(
        lambda s: "busy" not in s.find_element(By.ID, "result").get_attribute("class"))
    decision = session.find_element(By.ID, "decision").text
    # the report's ranking of what to observe next: a table inside its table
    rows = session.find_elements(By.CSS_SELECTOR, ".bnx-report table table td:first-child")
    return decision, rows[0].text if rows else None


def _set(session, feature, state):
    """Choose ``state`` for ``feature`` and wait for the page to show its answer."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    before = session.find_element(By.ID, "result").get_attribute("innerHTML")
    css = "#background" if feature == "background" else f'select[data-feature="{feature}"]'
    Select(session.find_element(By.CSS_SELECTOR, css)).select_by_value(state)
    WebDriverWait(session, 20).until(
        lambda s: s.find_element(By.ID, "result").get_attribute("innerHTML") != before)


@pytest.mark.slow
def test_set_states_and_see_the_decision_and_the_next_observation_change(browser, server,
                                                                         votes):
    odd, _ = votes
    clf = odd.classifier
    browser.get(server)
    assert "Explorer: party" in browser.title or "party" in browser.title

    def expected(evidence):
        report = explain(odd, evidence)
        if len(evidence) == len(odd.features):
            return report.decision, None
        return report.decision, bnx.next_observations(clf, evidence, odd=odd).index[0]

    evidence: dict = {}
    shown = _shown(browser)
    assert shown == expected(evidence)
    decisions, firsts = {shown[0]}, {shown[1]}
    # observe, each time, the feature the page ranks first, in the state that disagrees
    # with the current decision where there is one
    while shown[1] is not None:
        feature = shown[1]
        states = odd.states(feature)
        flips = [s for s in states if explain(odd, {**evidence, feature: s}).decision
                 != shown[0]]
        evidence[feature] = (flips or states)[0]
        _set(browser, feature, evidence[feature])
        shown = _shown(browser)
        assert shown == expected(evidence), evidence
        decisions.add(shown[0])
        firsts.add(shown[1])
    assert len(evidence) == len(odd.features)
    assert decisions == {"republican", "democrat"}  # the decision changed on the page
    assert len(firsts) == len(odd.features) + 1  # so did the next observation, each time
    from selenium.webdriver.common.by import By
    assert browser.find_element(By.ID, "posterior").text
    assert not browser.find_elements(By.CSS_SELECTOR, ".bnx-report svg")
    _set(browser, "background", "marginals")  # the attributions chart, against a background
    assert browser.find_elements(By.CSS_SELECTOR, ".bnx-report svg")
    assert "background=marginals" in browser.current_url  # the address keeps the choice
    shot = os.environ.get("BNX_SCREENSHOT")
    if shot:
        browser.save_screenshot(shot)


# ------------------------------------------------------------------ the answer's layout
# On pgmpy's child network with its six-state class Disease: every text of the SHAP chart
# inside the chart (its legend "toward Disease = not TGA" was clipped), the class
# probabilities shown, and nothing wider than the page at 1280 px. Set
# BNX_SCREENSHOT_LAYOUT=path.png to keep a screenshot of the chart.

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


@pytest.mark.slow
def test_the_shap_chart_keeps_its_texts_and_the_page_shows_the_class_probabilities(
        browser, child_server):
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


@pytest.fixture(scope="module")
def child_multiclass_server(tmp_path_factory):
    """``bnx serve child.bnx --port 0`` on pgmpy's child, a multi-class ODD."""
    net = bundled_network("child")
    odd = bnx.compile(bnx.Classifier(net, "Disease"))
    path = tmp_path_factory.mktemp("serve") / "child.bnx"
    odd.save(path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert " at http://127.0.0.1:" in line, proc.stderr.read()
    assert "(classes: PFC, TGA, Fallot, PAIVS, TAPVD, Lung)" in line
    yield odd, line.split(" at ")[1].split()[0]
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    assert proc.returncode == 0


@pytest.mark.slow
def test_multiclass_page_shows_every_class_and_answers_a_rival(browser, child_multiclass_server):
    """Set child's features one by one: the banner shows the decided disease and a bar per
    disease; picking a rival turns the report into 'why not' that disease."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    odd, address = child_multiclass_server
    x = {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5", "CO2Report": "<7.5",
         "XrayReport": "Normal", "GruntingReport": "yes", "Age": "0-3_days"}
    browser.get(address)
    for feature, state in x.items():
        _set(browser, feature, state)
    decision, _ = _shown(browser)
    assert decision == "PAIVS" == explain(odd, x).decision
    bars = browser.find_elements(By.CSS_SELECTOR, "#class-probabilities tr")
    assert [b.find_element(By.TAG_NAME, "th").text for b in bars] == list(odd.classes)
    before = browser.find_element(By.ID, "result").get_attribute("innerHTML")
    Select(browser.find_element(By.ID, "rival")).select_by_value("TGA")
    WebDriverWait(browser, 20).until(
        lambda s: s.find_element(By.ID, "result").get_attribute("innerHTML") != before)
    _shown(browser)
    text = browser.find_element(By.ID, "result").text
    assert "Why not TGA" in text and "What would make it TGA" in text
    assert "rival=TGA" in browser.current_url
