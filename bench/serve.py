"""The explorer under load (issue 28's targets): ``bnx serve`` on votes, a real uvicorn
server on 127.0.0.1, and

- 1,000 ``POST /api/explain`` requests for complete instances from 20 clients at once: the
  latency each client sees (50th and 95th percentiles, the slowest), the failures (none
  expected) and every decision compared with ``odd.decide``; the instances are distinct
  (drawn without repetition from the 65,536 votes instances), so no answer comes from the
  server's cache;
- the page's first load: ``GET /`` and its two assets, on a server that has answered nothing
  yet (so the page's answer on the empty instance is computed in it), and, where headless
  Chromium and selenium are here, the browser's own load time (navigation start to the
  load event).

The model: ``bnx.learn_naive_bayes(bnx.datasets.load_votes(), "party")``, class party,
positive republican, compiled and saved to a temporary ``votes.bnx`` that ``bnx serve``
loads. Run: ``python bench/serve.py [--requests 1000] [--clients 20]``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

import bnx

REPO = Path(__file__).resolve().parent.parent


def _model(directory: Path):
    clf = bnx.Classifier(bnx.learn_naive_bayes(bnx.datasets.load_votes(), "party"),
                         "party", "republican")
    odd = bnx.compile(clf)
    path = directory / "votes.bnx"
    odd.save(path)
    return odd, path


def _start(path: Path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path])}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    if " at http://127.0.0.1:" not in line:
        proc.kill()
        raise SystemExit(f"bnx serve did not start: {line}{proc.stderr.read()}")
    return proc, line.split(" at ")[1].split()[0]


def _stop(proc) -> int:
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    return proc.returncode


def first_load(address: str) -> float:
    """Seconds to fetch the page and its assets, one after the other, on one connection."""
    t0 = time.perf_counter()
    with httpx.Client(timeout=10) as client:
        page = client.get(address)
        page.raise_for_status()
        for asset in ("static/explorer.css", "static/explorer.js"):
            client.get(address + asset).raise_for_status()
    return time.perf_counter() - t0


def browser_load(address: str) -> float | None:
    """The browser's load time in seconds (navigation start to the load event), or None
    where selenium or Chromium is not here."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        return None
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    profile = tempfile.mkdtemp(prefix="bnx-bench-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        session.get(address + "?background=uniform")
        timing = session.execute_script(
            "const t = performance.getEntriesByType('navigation')[0];"
            "return [t.startTime, t.loadEventEnd];")
        return (timing[1] - timing[0]) / 1000
    finally:
        session.quit()
        shutil.rmtree(profile, ignore_errors=True)


def load(address: str, odd, requests: int, clients: int, seed: int = 20180713) -> dict:
    """``requests`` distinct complete instances from ``clients`` threads at once."""
    feats = odd.display_order
    codes = random.Random(seed).sample(range(2 ** len(feats)), requests)
    instances = [{f: odd.states(f)[(code >> i) & 1] for i, f in enumerate(feats)}
                 for code in codes]
    latencies: list[float] = []
    failures: list[str] = []
    wrong: list[dict] = []
    lock = threading.Lock()
    start = threading.Barrier(clients)

    def client(share):
        with httpx.Client(base_url=address, timeout=10) as http:
            start.wait()
            for x in share:
                t0 = time.perf_counter()
                try:
                    r = http.post("api/explain", json={"instance": x})
                    ok = r.status_code == 200
                    data = r.json() if ok else None
                except httpx.HTTPError as exc:
                    ok, data = False, str(exc)
                dt = time.perf_counter() - t0
                with lock:
                    latencies.append(dt)
                    if not ok:
                        failures.append(str(data or r.status_code))
                    elif data["positive"] != odd.decide(x):
                        wrong.append(x)

    threads = [threading.Thread(target=client, args=(instances[k::clients],))
               for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    ms = sorted(1000 * v for v in latencies)
    return {"requests": len(ms), "failed": len(failures), "wrong": len(wrong),
            "p50": statistics.median(ms), "p95": ms[int(0.95 * (len(ms) - 1))],
            "max": ms[-1], "per_second": len(ms) / wall, "wall": wall}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=1000)
    p.add_argument("--clients", type=int, default=20)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        odd, path = _model(Path(tmp))
        proc, address = _start(path)
        try:
            page = first_load(address)
            print(f"first load (page + 2 assets, a fresh server): {page * 1000:.0f} ms")
            shown = browser_load(address)
            print("browser load (navigation to the load event): "
                  + ("Chromium not available" if shown is None else f"{shown * 1000:.0f} ms"))
            r = load(address, odd, args.requests, args.clients)
            print(f"POST /api/explain, {r['requests']} distinct complete instances from "
                  f"{args.clients} clients at once: p50 {r['p50']:.1f} ms, p95 "
                  f"{r['p95']:.1f} ms, slowest {r['max']:.1f} ms; {r['per_second']:.0f} "
                  f"requests/s; {r['failed']} failed; {r['wrong']} decisions differ from "
                  f"odd.decide")
        finally:
            code = _stop(proc)
        print(f"server stopped by Ctrl-C, exit code {code}")
        if r["failed"] or r["wrong"] or code:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
