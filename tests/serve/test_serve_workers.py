"""The explorer answers while it thinks (issue 45): every question off the event loop, in
worker processes with a deadline; a bounded queue (503 past it); Ctrl-C within a second;
header and idle timeouts. A real ``bnx.serve.run`` in a subprocess on 127.0.0.1, its
questions made slow on purpose (a busy loop that holds the worker's GIL), and the bound
itself in this process."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import bnx
from bnx.serve.explorer import Explorer
from bnx.serve.workers import Refused, Thread
from tests._support.cli import run

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

#: The served process: admissions compiled, each complete instance with GPA = + made slow
#: (EntranceExam = +: 30 s, else 2.5 s) by a loop that holds the GIL, 1 worker, 1 more
#: question waiting at most, a deadline of 1 s (the worker is killed 2 s past it), and
#: the connections' header timeout cut to 0.5 s.
SERVER = textwrap.dedent("""
    import sys, time
    import bnx
    from bnx import report
    from bnx.serve import runner
    real = report.explain

    def slow(model, x, **kw):
        if len(x) == 4 and x["GPA"] == "+":
            end = time.monotonic() + (30 if x["EntranceExam"] == "+" else 2.5)
            while time.monotonic() < end:
                pass
        return real(model, x, **kw)

    report.explain = slow
    runner.HEADER_TIMEOUT = 0.5
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    bnx.serve.run(odd, port=0, workers=1, queue=1, deadline=1, exit=True)
""")


def _x(work: str, first: str, exam: str, gpa: str = "+") -> dict:
    return {"WorkExperience": work, "FirstTimeApplicant": first, "EntranceExam": exam,
            "GPA": gpa}


def _post(address: str, x: dict, into: dict, name: str, client) -> None:
    t0 = time.monotonic()
    try:
        r = client.post(address + "api/explain", json={"instance": x})
    except httpx.HTTPError as exc:  # the server stopped
        r = exc
    into[name] = (r, time.monotonic() - t0)


def _asking(address: str, x: dict, into: dict, name: str) -> threading.Thread:
    """Ask for ``x`` in a thread, its client made first (a new httpx client takes 0.4 s)."""
    client = httpx.Client(timeout=60)
    thread = threading.Thread(target=_post, args=(address, x, into, name, client),
                              daemon=True)
    thread.start()
    return thread


@pytest.fixture
def served():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    try:
        assert " at http://127.0.0.1:" in line, proc.stderr.read()
        yield proc, line.split(" at ")[1].split()[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.slow
def test_the_server_answers_while_it_thinks_and_stops_at_once(served):
    proc, address = served
    got: dict = {}
    threads = [_asking(address, _x("-", "-", "-"), got, "slow")]  # 2.5 s in the worker
    time.sleep(0.2)
    threads.append(_asking(address, _x("+", "-", "-"), got, "waits"))  # waits for it
    time.sleep(0.2)
    full = httpx.post(address + "api/explain", json={"instance": _x("-", "+", "-")})
    assert full.status_code == 503 and int(full.headers["Retry-After"]) >= 1
    assert full.json()["error"].startswith("the explorer is busy: 2 questions")
    with httpx.Client(base_url=address, timeout=10) as client:  # meanwhile, at once
        for _ in range(3):
            for path in ("api/model", "", "static/explorer.js"):
                t0 = time.monotonic()
                assert client.get(path).status_code == 200
                assert time.monotonic() - t0 < 0.5, path
        bad = client.post("api/explain", json={"instance": {"GPA": "A"}})
        assert bad.status_code == 400 and bad.json()["error"].startswith(
            "'A' is not a state of feature 'GPA'")
    for thread in threads:
        thread.join()
    # one of the two was answered (2.5 s), the other waited the deadline (1 s) for the
    # worker and was refused (which one came first is the clients' race)
    (slow, seconds), (waited, _) = sorted([got["slow"], got["waits"]],
                                          key=lambda g: g[0].status_code)
    asked = _x("-", "-", "-") if slow is got["slow"][0] else _x("+", "-", "-")
    assert slow.status_code == 200 and slow.json()["positive"] == bnx.compile(
        bnx.examples.admissions(), backend="autoref").decide(asked)
    assert 2.4 < seconds < 5
    assert waited.status_code == 503 and "busy for 1 s" in waited.json()["error"]

    t0 = time.monotonic()  # past the deadline: the worker is killed, and replaced
    late = httpx.post(address + "api/explain", json={"instance": _x("-", "-", "+")},
                      timeout=30)
    assert late.status_code == 504 and "deadline of 1 s" in late.json()["error"], late.text
    assert 2.5 < time.monotonic() - t0 < 6
    again = httpx.post(address + "api/explain", json={"instance": _x("-", "-", "-", "-")})
    assert again.status_code == 200

    url = httpx.URL(address)
    with socket.create_connection((url.host, url.port)) as idle:  # says nothing: closed
        idle.settimeout(5)
        t0 = time.monotonic()
        assert idle.recv(1) == b"" and time.monotonic() - t0 < 3

    threads = [_asking(address, _x("+", "+", "+"), got, "stopped")]  # 30 s of work
    time.sleep(0.3)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert time.monotonic() - t0 < 1, err
    assert proc.returncode == 0 and out.strip() == "bnx explorer stopped", err
    assert "Traceback" not in err
    threads[0].join(5)
    stopped = got.get("stopped")
    assert stopped is None or isinstance(stopped[0], httpx.HTTPError) or (
        stopped[0].status_code == 503)  # refused, or cut


class _Held(Thread):
    """Workers whose questions wait for ``gate``; ``asked`` records what they compute."""

    def __init__(self, explorer, **kw) -> None:
        super().__init__(explorer, **kw)
        self.gate, self.computed = None, []

    async def _run(self, job):
        self.computed.append(job)
        await self.gate.wait()
        return 200, b"{}"


def test_past_the_queue_a_question_is_refused_and_the_same_one_waits_for_it():
    explorer = Explorer(bnx.compile(bnx.examples.admissions(), backend="autoref"))
    workers = _Held(explorer, queue=1, deadline=7)

    async def scene():
        workers.gate = asyncio.Event()
        first = asyncio.create_task(workers.ask("json", {"GPA": "+"}))
        same = asyncio.create_task(workers.ask("json", {"GPA": "+"}))
        second = asyncio.create_task(workers.ask("json", {"GPA": "-"}))
        await asyncio.sleep(0.01)
        with pytest.raises(Refused) as refused:
            await workers.ask("html", {"GPA": "-"})
        workers.gate.set()
        return refused.value, await asyncio.gather(first, same, second)

    refused, replies = asyncio.run(scene())
    assert refused.status == 503 and refused.retry == 7
    assert "2 questions are being answered or waiting (1 at a time, 1 more" in refused.message
    assert replies == [(200, b"{}")] * 3 and len(workers.computed) == 2  # asked once
    assert asyncio.run(workers.ask("json", {"GPA": "+"})) == (200, b"{}")  # kept
    assert len(workers.computed) == 2 and workers.asked == 0


def test_create_app_checks_its_workers():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    with pytest.raises(bnx.ArgumentError, match="deadline must be a positive number"):
        bnx.serve.create_app(odd, deadline=0)
    with pytest.raises(bnx.ArgumentError, match="queue must be an integer of at least 0"):
        bnx.serve.create_app(odd, queue=-1)
    with pytest.raises(bnx.ArgumentError, match="workers must be an integer of at least 0"):
        bnx.serve.create_app(odd, workers=True)
    clf = bnx.examples.admissions()  # a report keeps the deadline, or a shorter timeout
    assert bnx.serve.create_app(clf, deadline=4).state.explorer.timeout == 4
    assert bnx.serve.create_app(clf, deadline=4, timeout=2).state.explorer.timeout == 2


def test_bnx_serve_passes_its_workers_on(capsys, tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(bnx.serve, "run", lambda model, **kw: seen.append(kw))
    path = tmp_path / "admissions.bnx"
    bnx.compile(bnx.examples.admissions(), backend="autoref").save(path)
    assert run(capsys, "serve", str(path))[0] == 0
    assert seen[-1] | {"port": None} == {
        "host": "127.0.0.1", "port": None, "workers": None, "deadline": bnx.serve.DEADLINE,
        "queue": bnx.serve.QUEUE, "exit": True}
    code, _, err = run(capsys, "serve", str(path), "--workers", "0", "--deadline", "2.5",
                       "--queue", "3")
    assert code == 0, err
    assert (seen[-1]["workers"], seen[-1]["deadline"], seen[-1]["queue"]) == (0, 2.5, 3)
    with pytest.raises(SystemExit):
        run(capsys, "serve", str(path), "--queue", "-1")
