"""The explorer's JSON API and page, through Starlette's test client: every route, every bad
input (and the server answering again after it), the answers checked against bnx and the
brute-force oracle, and ``bnx serve`` as a command."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
from fractions import Fraction

import pytest

import bnx
from bnx.report import explain
from tests._support import oracle

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from bnx.serve.explorer import MAX_BODY

CLASS, POSITIVE = "Admit", "+"


@pytest.fixture(scope="module")
def odd():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


@pytest.fixture(scope="module")
def client(odd):
    return TestClient(bnx.serve.create_app(odd))


def _instances(odd, *, partial=False):
    feats = odd.display_order
    choices = [(None, *odd.states(f)) if partial else odd.states(f) for f in feats]
    for states in itertools.product(*choices):
        yield {f: s for f, s in zip(feats, states) if s is not None}


def _oracle_sdp(clf, evidence) -> Fraction:
    """sum_z Pr(z | e) [decision(e, z) = decision(e)], by enumerating the completions."""
    net, feats = clf.network, list(clf.features)
    threshold = clf.threshold

    def decide(x):  # on the features of x, the others summed out
        return oracle.decide(net, CLASS, POSITIVE, threshold, x, list(x))

    def weight(x):
        return sum(oracle.class_joint(net, CLASS, x, list(x)).values())

    decision = decide(evidence)
    hidden = [f for f in feats if f not in evidence]
    total = same = Fraction(0)
    for states in itertools.product(*(clf.states(f) for f in hidden)):
        x = {**evidence, **dict(zip(hidden, states))}
        w = weight(x)
        total += w
        same += w if decide(x) == decision else 0
    return same / total


def _healthy(client):
    """The server still answers a good request after a bad one."""
    assert client.get("/api/model").status_code == 200
    r = client.post("/api/explain", json={"instance": {"GPA": "+"}})
    assert r.status_code == 200 and "sdp" in r.json()


# ---------------------------------------------------------------------- routes
def test_model(client, odd):
    model = client.get("/api/model").json()
    assert model == {"class": CLASS, "positive": POSITIVE, "classes": ["-", "+"],
                     "multiclass": False,
                     "features": {f: list(odd.states(f)) for f in odd.display_order}}
    assert list(model["features"]) == list(odd.display_order)


def test_explain_every_complete_instance(client, odd):
    clf = odd.classifier
    for x in _instances(odd):
        r = client.post("/api/explain", json={"instance": x})
        assert r.status_code == 200
        data = r.json()
        report = explain(odd, x)
        assert data == json.loads(json.dumps(report.to_dict()))
        assert data["complete"] is True and data["sdp"] is None and data["next"] is None
        decided = oracle.decide(clf.network, CLASS, POSITIVE, clf.threshold, x,
                                list(clf.features))
        assert data["positive"] == decided == odd.decide(x)
        assert data["decision"] == (POSITIVE if decided else "-")


def test_explain_every_partial_instance(client, odd):
    clf = odd.classifier
    for e in _instances(odd, partial=True):
        if len(e) == len(odd.features):
            continue
        data = client.post("/api/explain", json={"instance": e}).json()
        assert data["complete"] is False and data["instance"] == e
        unknown = [f for f in odd.display_order if f not in e]
        assert data["sdp"] == pytest.approx(float(_oracle_sdp(clf, e)), abs=1e-12)
        ranking = bnx.next_observations(clf, e, odd=odd)
        assert [row["feature"] for row in data["next"]] == list(ranking.index)
        assert sorted(row["feature"] for row in data["next"]) == sorted(unknown)
        for row in data["next"]:
            assert row["expected_sdp"] == pytest.approx(
                float(ranking.loc[row["feature"], "expected_sdp"]))
            assert row["flip_probability"] == pytest.approx(
                float(ranking.loc[row["feature"], "flip_probability"]))
        assert data["positive"] == clf.decide(e, partial=True, within="all")


def test_null_and_missing_instance_mean_unknown(client):
    a = client.post("/api/explain", json={}).json()
    b = client.post("/api/explain", json={"instance": {"GPA": None}}).json()
    assert a == b and a["complete"] is False and a["instance"] == {}


def test_attributions_against_each_background(client, odd):
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    explorer = client.app.state.explorer
    assert "network" in explorer.backgrounds()  # a naive Bayes: the network is supported
    for name in explorer.backgrounds():
        data = client.post("/api/explain", json={"instance": x, "background": name}).json()
        assert data == json.loads(json.dumps(explain(
            odd, x, background=explorer.background(name)).to_dict()))
        assert (data["attributions"] is None) == (name == "none")
    marginals = explorer.marginals()
    clf = odd.classifier
    for f, dist in marginals.items():
        exact = {s: sum(oracle.class_joint(clf.network, CLASS, {f: s}, [f]).values())
                 for s in clf.states(f)}
        assert dist == {s: float(p / sum(exact.values())) for s, p in exact.items()}


def test_the_network_is_offered_only_where_supported():
    from bnx.serve.explorer import Explorer
    odd = bnx.compile(bnx.examples.asia(), backend="autoref")  # hidden nodes: not supported
    explorer = Explorer(odd)
    assert "network" not in explorer.backgrounds() and "uniform" in explorer.backgrounds()


def test_page(client, odd):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    for f in odd.display_order:
        assert f'data-feature="{f}"' in page
    assert page.count('<option value="">unknown</option>') == len(odd.features)
    assert "Explorer: Admit" in page and "<b>+</b>" in page
    # every feature unknown: answered with the report's HTML, how sure and what next
    assert '<div class="bnx-report">' in page and "What to find out next" in page
    assert "http://" not in page and "https://" not in page  # no CDN, nothing external
    for name, kind in [("explorer.js", "text/javascript"), ("explorer.css", "text/css")]:
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind)
        assert b"http" not in asset.content
    assert "default-src 'self'" in r.headers["content-security-policy"]


def test_page_from_the_query_string(client, odd):
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    page = client.get("/", params=x).text
    assert page.count(" selected>") == 4 + 1  # the four states and the background
    assert f'id="decision">{explain(odd, x).decision}<' in page
    assert bnx.report.render_report(explain(odd, x)) in page
    bad = client.get("/", params={"GPA": "A"})
    assert bad.status_code == 400
    assert "&#x27;A&#x27; is not a state of feature &#x27;GPA&#x27;" in bad.text
    _healthy(client)


def test_fragment(client, odd):
    r = client.post("/explain.html", json={"instance": {"GPA": "+"}})
    assert r.status_code == 200
    assert bnx.report.render_report(explain(odd, {"GPA": "+"})) in r.text
    bad = client.post("/explain.html", json={"instance": {"Age": "3"}})
    assert bad.status_code == 400 and 'class="error"' in bad.text


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/app.py", "/static/",
                                  "/etc/passwd", "/api/model/x", "/favicon.ico"])
def test_no_path_from_a_request_is_served(client, path):
    assert client.get(path).status_code == 404


def test_methods(client):
    assert client.get("/api/explain").status_code == 405
    assert client.post("/api/model").status_code == 405


# ---------------------------------------------------------------------- bad input
def _error(odd, instance):
    """The message bnx itself raises on ``instance``."""
    with pytest.raises(bnx.BnxError) as info:
        odd.encode(instance, partial=True)
    return str(info.value)


@pytest.mark.parametrize("instance", [
    {"Age": "3"}, {"gpa": "+"}, {"GPA": "A"}, {"GPA": 1}, {"GPA": ["+"]}, {"GPA": {"s": 1}},
    ["GPA", "+"], "GPA=+", 3])
def test_bad_instances_get_bnx_s_own_message(client, odd, instance):
    r = client.post("/api/explain", json={"instance": instance})
    assert r.status_code == 400
    assert r.json() == {"error": _error(odd, instance)}
    _healthy(client)


@pytest.mark.parametrize("instance", [{"Admit": "+"}, {"GPA": "+", "Admit": "-"}])
def test_an_instance_with_the_class_is_a_bad_request(client, odd, instance):
    r = client.post("/api/explain", json={"instance": instance})
    assert r.status_code == 400
    assert r.json() == {"error": _error(odd, instance)}
    assert r.json()["error"].startswith("the instance gives the class variable 'Admit' a state")
    _healthy(client)


@pytest.mark.parametrize("body, message", [
    (b"{", ("the request body is not JSON: Expecting property name enclosed in double "
           "quotes: line 1 column 2 (char 1)")),
    (b"", "the request body is not JSON: Expecting value: line 1 column 1 (char 0)"),
    (b"\xff\xfe", ("the request body is not JSON: 'utf-8' codec can't decode byte 0xff in "
                  "position 0: invalid start byte")),
    (b'{"instance": {"GPA": NaN}}', "the request body is not JSON: NaN is not a JSON value"),
    (b"[1]", ('the request body must be a JSON object such as {"instance": {"feature": '
             '"state"}}, got list')),
    (b'"x"', ('the request body must be a JSON object such as {"instance": {"feature": '
             '"state"}}, got str')),
    (b'{"instance": {}, "code": "import os"}',
     "unknown key 'code' in the request (keys: instance, background, rival)"),
    (b'{"instance": {}, "rival": "-"}',
     "rival names one of the classes a multi-class model picks from; this one decides yes "
     "or no about Admit = +"),
    (b'{"instance": {}, "background": "data.csv"}',
     "background must be one of none, network, uniform, marginals, got 'data.csv'"),
    (b"[" * 100_000 + b"]" * 100_000, ("the request body is not JSON: maximum recursion "
                                      "depth exceeded")),
])
def test_bad_bodies(client, body, message):
    for route in ("/api/explain", "/explain.html"):
        r = client.post(route, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400
        if route == "/api/explain":  # the whole message (the start for recursion's)
            assert list(r.json()) == ["error"] and r.json()["error"].startswith(message)
            assert len(r.json()["error"]) < 120 or message.endswith("exceeded")
    _healthy(client)


def test_a_body_over_the_limit(client):
    big = json.dumps({"instance": {"GPA": "+"}, "background": "x" * MAX_BODY}).encode()
    expected = {"error": f"the request body has more than {MAX_BODY:,} bytes"}
    r = client.post("/api/explain", content=big)
    assert r.status_code == 400 and r.json() == expected

    def chunks():  # no Content-Length: the limit holds while streaming
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    r = client.post("/api/explain", content=chunks())
    assert r.status_code == 400 and r.json() == expected
    small = TestClient(bnx.serve.create_app(client.app.state.explorer.odd, max_body=10))
    assert small.post("/api/explain", json={"instance": {"GPA": "+"}}).json() == {
        "error": "the request body has more than 10 bytes"}
    _healthy(client)


def test_hosts(odd):
    app = bnx.serve.create_app(odd, allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1:8765").get("/api/model").status_code == 200
    assert TestClient(app, base_url="http://evil.example").get("/api/model").status_code == 400


def test_create_app_refuses_what_is_not_an_odd(odd):
    with pytest.raises(bnx.ArgumentError, match="compiled bnx.ODD or a bnx.Classifier, got "
                       "DiscreteBayesianNetwork"):
        bnx.serve.create_app(odd.classifier.network)


# ---------------------------------------------------------------------- serving
def test_run_refuses_a_port_in_use(odd):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(bnx.ArgumentError, match=f"cannot listen on 127.0.0.1 port {port}"):
            bnx.serve.run(odd, port=port)
    with pytest.raises(bnx.ArgumentError, match="port must be an integer"):
        bnx.serve.run(odd, port=70000)


def _serve(path, *options):
    """``bnx serve`` in a subprocess: (process, its first line)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(path), "--port", "0",
                             *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    return proc, proc.stdout.readline()


def _wait_until_serving(address: str, seconds: float = 60) -> None:
    """Wait until the server answers (so that Ctrl-C reaches uvicorn, not its start)."""
    import time

    import httpx
    end = time.monotonic() + seconds
    while True:
        try:
            httpx.get(address + "api/model", timeout=5)
            return
        except httpx.TransportError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def _stop(proc):
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


@pytest.mark.slow
def test_the_command(odd, tmp_path):
    import httpx
    path = tmp_path / "admissions.bnx"
    odd.save(path)
    proc, line = _serve(path)  # two worker processes (tests/serve/test_serve_workers.py)
    try:
        assert line.startswith("bnx explorer of Admit (positive: +) at http://127.0.0.1:")
        address = line.split(" at ")[1].split()[0]
        assert httpx.get(address + "api/model").json()["class"] == "Admit"
        assert httpx.post(address + "api/explain",
                          json={"instance": {"GPA": "A"}}).status_code == 400
        assert httpx.get(address).status_code == 200
        for x in _instances(odd):  # each worker answers as the library does
            data = httpx.post(address + "api/explain", json={"instance": x}).json()
            assert data["positive"] == odd.decide(x)
    finally:
        code, out, err = _stop(proc)
    assert code == 0 and out.strip() == "bnx explorer stopped", err
    assert "Traceback" not in err


@pytest.mark.slow
def test_the_command_warns_off_loopback(odd, tmp_path):
    path = tmp_path / "admissions.bnx"
    odd.save(path)
    proc, line = _serve(path, "--host", "0.0.0.0")
    try:
        warning = proc.stdout.readline()
        port = line.split(" at ")[1].split()[0].rstrip("/").rsplit(":", 1)[1]
        _wait_until_serving(f"http://127.0.0.1:{port}/")
    finally:
        code, _, err = _stop(proc)
    assert line.startswith("bnx explorer of Admit") and code == 0, err
    assert warning.startswith("warning: listening on 0.0.0.0, not on loopback")


def test_the_command_on_a_network_file(tmp_path, capsys):
    from bnx.cli import main
    assert main(["serve", str(tmp_path / "none.bif"), "--class", "Admit", "--positive",
                 "yes"]) == 1
    assert "bnx: error:" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "x.bnx", "--port", "99999"])
    assert "a port is from 0 to 65535, got 99999" in capsys.readouterr().err


def test_saved_odd_options_are_refused(odd, tmp_path, capsys):
    from bnx.cli import main
    path = tmp_path / "admissions.bnx"
    odd.save(path)
    assert main(["serve", str(path), "--class", "Admit"]) == 1
    assert "--class cannot change a saved ODD" in capsys.readouterr().err


def test_an_answer_is_encoded_once_and_without_nan(odd):
    import dataclasses

    from bnx.serve.answers import Answer
    x = {f: odd.states(f)[0] for f in odd.display_order}
    report = explain(odd, x)
    sent = Answer(report)
    assert json.loads(sent.body) == sent.data == json.loads(json.dumps(report.to_dict()))
    odd_one = Answer(dataclasses.replace(report, posterior=float("nan")))
    assert json.loads(odd_one.body)["posterior"] is None and odd_one.data["posterior"] is None


def test_a_general_reason_beside_the_shortest_sufficient_reason():
    from tests._support.builders import multivalued_classifier
    odd = bnx.compile(multivalued_classifier())
    x = {"A": "hi", "B": 2, "D": 1}
    page = TestClient(bnx.serve.create_app(odd)).post("/explain.html", json={"instance": x})
    assert page.status_code == 200
    why, more = page.text.index("Why"), page.text.index("More generally")
    assert why < more and "A ≠ lo, D = 1" in page.text[more:]
    data = TestClient(bnx.serve.create_app(odd)).post("/api/explain", json={"instance": x})
    assert data.json()["general_words"][0] == ["A ≠ lo", "D = 1"]
