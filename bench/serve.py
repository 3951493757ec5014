"""The explorer under load (issue 28's targets): ``bnx serve`` on votes, a real uvicorn
server on 127.0.0.1, and

- 1,000 ``POST /api/explain`` requests for complete instances from 20 clients at once: the
  latency each client sees (50th and 95th percentiles, the slowest), the failures (none
  expected), the server's CPU time per request (from ``/proc``: steadier than latency on a
  shared machine) and every decision compared with ``odd.decide``; the instances are distinct
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
import asyncio
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
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


def _start(path: Path, workers: int):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path])}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(path), "--port", "0",
                             "--workers", str(workers)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    if " at http://127.0.0.1:" not in line:
        proc.kill()
        raise SystemExit(f"bnx serve did not start: {line}{proc.stderr.read()}")
    return proc, line.split(" at ")[1].split()[0]


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process and its forked workers have used,
    from ``/proc`` (Linux; ``nan`` elsewhere): less noisy than latency on a shared machine."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    try:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(entry) == pid or int(fields[1]) == pid:  # fields[1] is the parent's pid
                total += (int(fields[11]) + int(fields[12])) / tick
    except OSError:
        return float("nan")
    return total


def _stop(proc) -> int:
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    return proc.returncode


def first_load(address: str) -> float:
    """Seconds to fetch the page and its assets, one after the other, on one new connection
    (the client is made first: httpx takes 0.4 s to make one, its TLS set-up)."""
    with httpx.Client(timeout=10) as client:
        t0 = time.perf_counter()
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


async def _client(host: str, port: int, share: list, odd, results: dict, start) -> None:
    """One client on one keep-alive connection: its requests one after the other, in plain
    HTTP/1.1 over asyncio streams (a light client, so that the clients do not take the
    cores the server needs)."""
    reader, writer = await asyncio.open_connection(host, port)
    await start.wait()
    try:
        for x in share:
            body = json.dumps({"instance": x}).encode()
            head = (f"POST /api/explain HTTP/1.1\r\nHost: {host}:{port}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
            t0 = time.perf_counter()
            writer.write(head.encode() + body)
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            data = await reader.readexactly(length)
            results["latency"].append(time.perf_counter() - t0)
            if status != 200:
                results["failed"].append(data[:200])
            elif json.loads(data)["positive"] != odd.decide(x):
                results["wrong"].append(x)
    finally:
        writer.close()


def load(address: str, odd, requests: int, clients: int, seed: int = 20180713) -> dict:
    """``requests`` distinct complete instances from ``clients`` clients at once."""
    feats = odd.display_order
    codes = random.Random(seed).sample(range(2 ** len(feats)), requests)
    instances = [{f: odd.states(f)[(code >> i) & 1] for i, f in enumerate(feats)}
                 for code in codes]
    url = httpx.URL(address)
    results: dict = {"latency": [], "failed": [], "wrong": []}

    async def everyone():
        start = asyncio.Event()
        tasks = [asyncio.create_task(_client(url.host, url.port, instances[k::clients], odd,
                                             results, start)) for k in range(clients)]
        await asyncio.sleep(0.2)  # every connection open
        t0 = time.perf_counter()
        start.set()
        outcomes = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 300)
        results["failed"] += [repr(o) for o in outcomes if isinstance(o, BaseException)]
        return time.perf_counter() - t0

    wall = asyncio.run(everyone())
    ms = sorted(1000 * v for v in results["latency"])
    return {"requests": len(ms), "failed": len(results["failed"]) + requests - len(ms),
            "wrong": len(results["wrong"]), "p50": statistics.median(ms),
            "p95": ms[int(0.95 * (len(ms) - 1))], "max": ms[-1],
            "per_second": len(ms) / wall, "wall": wall}


def alone(address: str, odd, requests: int = 100, seed: int = 1) -> float:
    """The median latency of one client alone (ms): the time one answer takes."""
    feats = odd.display_order
    rng = random.Random(seed)
    times = []
    with httpx.Client(base_url=address, timeout=10) as http:
        for _ in range(requests):
            x = {f: rng.choice(odd.states(f)) for f in feats}
            t0 = time.perf_counter()
            http.post("api/explain", json={"instance": x}).raise_for_status()
            times.append(1000 * (time.perf_counter() - t0))
    return statistics.median(times)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=1000)
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--workers", type=int, default=1, help="bnx serve --workers")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        odd, path = _model(Path(tmp))
        t0 = time.perf_counter()
        proc, address = _start(path, args.workers)
        print(f"bnx serve --workers {args.workers}: ready in {time.perf_counter() - t0:.2f} s "
              f"(load the file, answer the first questions)")
        try:
            page = first_load(address)
            print(f"first load (page + 2 assets, a fresh server): {page * 1000:.0f} ms")
            shown = browser_load(address)
            print("browser load (navigation to the load event): "
                  + ("Chromium not available" if shown is None else f"{shown * 1000:.0f} ms"))
            print(f"one client alone: median {alone(address, odd):.1f} ms per POST /api/explain")
            cpu = server_cpu(proc.pid)
            r = load(address, odd, args.requests, args.clients)
            cpu = (server_cpu(proc.pid) - cpu) / r["requests"]
            print(f"POST /api/explain, {r['requests']} distinct complete instances from "
                  f"{args.clients} clients at once: p50 {r['p50']:.1f} ms, p95 "
                  f"{r['p95']:.1f} ms, slowest {r['max']:.1f} ms; {r['per_second']:.0f} "
                  f"requests/s; {r['failed']} failed; {r['wrong']} decisions differ from "
                  f"odd.decide; server CPU {cpu * 1000:.2f} ms per request")
        finally:
            code = _stop(proc)
        print(f"server stopped by Ctrl-C, exit code {code}")
        if r["failed"] or r["wrong"] or code:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
