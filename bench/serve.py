"""The explorer under load (issue 28's and issue 45's targets): ``bnx serve``, a real
uvicorn server on 127.0.0.1.

**votes** (``--part votes``):

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
loads.

**hepar2** (``--part hepar2``): ``bnx serve hepar2.bif.gz --class Cirrhosis`` (pgmpy's
bundled network, too large to compile: each answer a report explained without compiling,
seconds of work each, bounded by ``--deadline``), and

- 20 clients at once: 5 ask for the reports on drawn patients (forward samples of the
  network, distinct, 2 each, one after the other), 15 ask for ``/api/model`` and the page
  (``GET /``) with 0.1 s between requests until the reports are in: the latency of each
  kind (p50, p95, the slowest), each report's time and status;
- 400 idle connections (open, nothing sent): whether ``/api/model`` is still answered
  meanwhile and how many of them the server has closed 12 s later;
- Ctrl-C while 5 reports are being computed: the seconds until the server has exited.

Run: ``python bench/serve.py [--part all|votes|hepar2] [--requests 1000] [--clients 20]
[--workers 2]``.
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


def _start(path: Path, workers: int, *options: str):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path])}
    proc = subprocess.Popen([sys.executable, "-m", "bnx", "serve", str(path), "--port", "0",
                             "--workers", str(workers), *options],
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


async def _ask(reader, writer, host: str, port: int, method: str, path: str,
               payload=None) -> tuple[int, bytes]:
    """One request on an open keep-alive connection, in plain HTTP/1.1: (status, body)."""
    body = b"" if payload is None else json.dumps(payload).encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            + ("" if payload is None else "Content-Type: application/json\r\n")
            + f"Content-Length: {len(body)}\r\n\r\n")
    writer.write(head.encode() + body)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, await reader.readexactly(length)


async def _client(host: str, port: int, share: list, odd, results: dict, start) -> None:
    """One client on one keep-alive connection: its requests one after the other, over
    asyncio streams (a light client, so that the clients do not take the cores the server
    needs)."""
    reader, writer = await asyncio.open_connection(host, port)
    await start.wait()
    try:
        for x in share:
            t0 = time.perf_counter()
            status, data = await _ask(reader, writer, host, port, "POST", "/api/explain",
                                      {"instance": x})
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


HEPAR2 = "hepar2"


def _hepar2_source() -> Path:
    import pgmpy
    return Path(pgmpy.__file__).parent / "utils" / "example_models" / "hepar2.bif.gz"


def patients(features: list, count: int, seed: int = 45) -> list[dict]:
    """``count`` distinct patients drawn from hepar2 (forward samples), on ``features``."""
    import warnings

    from pgmpy.sampling import BayesianModelSampling
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        network = get_example_model(HEPAR2)
        rows = BayesianModelSampling(network).forward_sample(size=20 * count, seed=seed,
                                                             show_progress=False)
    seen, out = set(), []
    for row in rows[features].astype(str).itertuples(index=False):
        if tuple(row) not in seen:
            seen.add(tuple(row))
            out.append(dict(zip(features, row)))
        if len(out) == count:
            break
    return out


def _ms(values: list) -> str:
    ms = sorted(1000 * v for v in values)
    return (f"p50 {statistics.median(ms):.1f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, "
            f"slowest {ms[-1]:.1f} ms ({len(ms)} requests)")


def mixed(address: str, cases: list, long_clients: int = 5, short_clients: int = 15) -> dict:
    """``long_clients`` asking for the reports on ``cases`` (each its share, one after the
    other) while ``short_clients`` ask for ``/api/model`` and the page until they are done."""
    url = httpx.URL(address)
    host, port = url.host, url.port
    seen: dict = {"model": [], "page": [], "report": [], "status": [], "short_failed": 0}

    async def long(share, start):
        reader, writer = await asyncio.open_connection(host, port)
        await start.wait()
        for x in share:
            t0 = time.perf_counter()
            status, _ = await _ask(reader, writer, host, port, "POST", "/api/explain",
                                   {"instance": x})
            seen["report"].append(time.perf_counter() - t0)
            seen["status"].append(status)
        writer.close()

    async def short(done, start):
        reader, writer = await asyncio.open_connection(host, port)
        await start.wait()
        while not done.is_set():
            for kind, path in (("model", "/api/model"), ("page", "/")):
                t0 = time.perf_counter()
                status, _ = await _ask(reader, writer, host, port, "GET", path)
                seen[kind].append(time.perf_counter() - t0)
                seen["short_failed"] += status != 200
                await asyncio.sleep(0.1)
        writer.close()

    async def everyone():
        start, done = asyncio.Event(), asyncio.Event()
        longs = [asyncio.create_task(long(cases[k::long_clients], start))
                 for k in range(long_clients)]
        shorts = [asyncio.create_task(short(done, start)) for _ in range(short_clients)]
        await asyncio.sleep(0.2)
        t0 = time.perf_counter()
        start.set()
        await asyncio.wait_for(asyncio.gather(*longs), 600)
        wall = time.perf_counter() - t0
        done.set()
        await asyncio.gather(*shorts)
        return wall

    seen["wall"] = asyncio.run(everyone())
    return seen


def idle(address: str, connections: int = 400, wait: float = 12.0) -> tuple[float, int]:
    """Open ``connections`` idle connections; the median ``/api/model`` latency meanwhile
    (ms) and how many the server has closed after ``wait`` seconds."""
    url = httpx.URL(address)

    async def run():
        opened = [await asyncio.open_connection(url.host, url.port)
                  for _ in range(connections)]
        times = []
        reader, writer = await asyncio.open_connection(url.host, url.port)
        for _ in range(20):
            t0 = time.perf_counter()
            await _ask(reader, writer, url.host, url.port, "GET", "/api/model")
            times.append(1000 * (time.perf_counter() - t0))
        writer.close()
        await asyncio.sleep(wait)
        closed = 0
        for r, w in opened:
            try:
                closed += await asyncio.wait_for(r.read(1), 1) == b""
            except TimeoutError:
                pass
            w.close()
        return statistics.median(times), closed

    return asyncio.run(run())


def stop_while_thinking(proc, address: str, cases: list) -> float:
    """Ctrl-C while ``cases`` are being explained: the seconds until the server exited."""
    import threading

    def ask(x):
        try:
            httpx.post(address + "api/explain", json={"instance": x}, timeout=60)
        except httpx.HTTPError:
            pass

    threads = [threading.Thread(target=ask, args=(x,), daemon=True) for x in cases]
    for t in threads:
        t.start()
    time.sleep(1.5)
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    return time.perf_counter() - t0


def hepar2(workers: int, deadline: float) -> bool:
    """The hepar2 part; whether its targets are met."""
    t0 = time.perf_counter()
    proc, address = _start(_hepar2_source(), workers, "--class", "Cirrhosis",
                           "--deadline", str(deadline))
    print(f"bnx serve hepar2.bif.gz --class Cirrhosis --workers {workers} --deadline "
          f"{deadline:g}: ready in {time.perf_counter() - t0:.1f} s")
    try:
        features = list(httpx.get(address + "api/model", timeout=30).json()["features"])
        cases = patients(features, 15)
        httpx.get(address, timeout=60).raise_for_status()  # the page's first answer, kept
        seen = mixed(address, cases[:10])
        print(f"20 clients, 5 asking for 10 reports on drawn patients, 15 for the model and "
              f"the page, {seen['wall']:.1f} s in all:")
        print(f"  GET /api/model: {_ms(seen['model'])}")
        print(f"  GET /: {_ms(seen['page'])}")
        times = ", ".join(f"{t:.1f}" for t in sorted(seen["report"]))
        print(f"  POST /api/explain (the reports): {times} s; statuses "
              f"{sorted(seen['status'])}; {seen['short_failed']} short requests failed")
        median, closed = idle(address)
        print(f"400 idle connections: /api/model median {median:.1f} ms meanwhile; "
              f"{closed} of 400 closed by the server 12 s later")
        stopped = stop_while_thinking(proc, address, cases[10:])
        print(f"Ctrl-C while 5 reports are being computed: exited in {stopped:.2f} s, "
              f"exit code {proc.returncode}")
    finally:
        if proc.poll() is None:
            proc.kill()
    model = sorted(seen["model"] + seen["page"])
    return (model[int(0.95 * (len(model) - 1))] < 0.1 and stopped < 1 and closed == 400
            and proc.returncode == 0 and not seen["short_failed"])


def votes(requests: int, clients: int, workers: int) -> bool:
    """The votes part; whether it ran without a failure."""
    with tempfile.TemporaryDirectory() as tmp:
        odd, path = _model(Path(tmp))
        t0 = time.perf_counter()
        proc, address = _start(path, workers)
        print(f"bnx serve votes.bnx --workers {workers}: ready in "
              f"{time.perf_counter() - t0:.2f} s (load the file, answer the first questions)")
        try:
            page = first_load(address)
            print(f"first load (page + 2 assets, a fresh server): {page * 1000:.0f} ms")
            shown = browser_load(address)
            print("browser load (navigation to the load event): "
                  + ("Chromium not available" if shown is None else f"{shown * 1000:.0f} ms"))
            print(f"one client alone: median {alone(address, odd):.1f} ms per POST /api/explain")
            cpu = server_cpu(proc.pid)
            r = load(address, odd, requests, clients)
            cpu = (server_cpu(proc.pid) - cpu) / r["requests"]
            print(f"POST /api/explain, {r['requests']} distinct complete instances from "
                  f"{clients} clients at once: p50 {r['p50']:.1f} ms, p95 "
                  f"{r['p95']:.1f} ms, slowest {r['max']:.1f} ms; {r['per_second']:.0f} "
                  f"requests/s; {r['failed']} failed; {r['wrong']} decisions differ from "
                  f"odd.decide; server CPU {cpu * 1000:.2f} ms per request")
        finally:
            code = _stop(proc)
        print(f"server stopped by Ctrl-C, exit code {code}")
        return not (r["failed"] or r["wrong"] or code)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=["all", "votes", HEPAR2], default="all")
    p.add_argument("--requests", type=int, default=1000)
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--workers", type=int, default=2, help="bnx serve --workers")
    p.add_argument("--deadline", type=float, default=10.0, help="bnx serve --deadline")
    args = p.parse_args(argv)
    ok = True
    if args.part in ("all", "votes"):
        ok &= votes(args.requests, args.clients, args.workers)
    if args.part in ("all", HEPAR2):
        ok &= hepar2(args.workers, args.deadline)
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
