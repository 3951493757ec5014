"""Files that are not what they say (issue 45): each refused quickly, with a named error.

Every crafted file is made in ``tmp_path``: a FIFO (``open`` would block forever), a
symlink to ``/dev/zero`` (never ends), a directory, gzip bombs (a 1 MB file of 64 members
that inflates to 1 GiB; a trailer that says 1 GiB), a BIF declaring a million states, an
XMLBIF nested 200,000 deep and malformed ones. Each must end in a :class:`bnx.BnxError`
subclass that says what is wrong, within 1 s and 300 MB (traced by :mod:`tracemalloc`);
a save removes the temporary files a killed save of the same target left.
"""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc

import pytest

import bnx
from bnx.classifier._relevance import exact_cpds


def _refused(call, error, match):
    """Run ``call``; it must raise ``error`` matching ``match`` within 1 s and 300 MB."""
    old = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("still reading after 5 s"))
    signal.alarm(5)  # a FIFO opened would block forever: fail instead of hanging
    tracemalloc.start()
    t = time.perf_counter()
    try:
        with pytest.raises(error, match=match) as got:
            call()
    finally:
        took = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert isinstance(got.value, bnx.BnxError)
    assert took < 1.0, took
    assert peak < 300 * 2 ** 20, peak
    return got.value


@pytest.mark.parametrize("name", ["net.bif", "net.bif.gz", "model.bnx"])
def test_a_fifo_is_refused_without_opening_it(tmp_path, name):
    path = tmp_path / name
    os.mkfifo(path)
    error = bnx.ODDFileError if name.endswith(".bnx") else bnx.NetworkFileError
    read = bnx.ODD.load if name.endswith(".bnx") else bnx.read_network
    _refused(lambda: read(path), error, "FIFO")


@pytest.mark.parametrize("name", ["net.bif", "net.xml.gz", "model.bnx"])
def test_a_symlink_to_dev_zero_is_refused(tmp_path, name):
    path = tmp_path / name
    os.symlink("/dev/zero", path)
    error = bnx.ODDFileError if name.endswith(".bnx") else bnx.NetworkFileError
    read = bnx.ODD.load if name.endswith(".bnx") else bnx.read_network
    _refused(lambda: read(path), error, "character device, not a regular file")


def test_a_directory_is_refused(tmp_path):
    (tmp_path / "d.bif").mkdir()
    (tmp_path / "d.bnx").mkdir()
    _refused(lambda: bnx.read_network(tmp_path / "d.bif"), bnx.NetworkFileError,
             "is a directory")
    _refused(lambda: bnx.ODD.load(tmp_path / "d.bnx"), bnx.ODDFileError, "is a directory")


def test_a_gzip_bomb_is_refused_a_chunk_at_a_time(tmp_path):
    member = gzip.compress(b"\0" * (16 << 20), 9)  # 16 KB inflating to 16 MiB
    bomb = tmp_path / "bomb.bif.gz"
    bomb.write_bytes(member * 64)  # 1 MB to 1 GiB; each trailer says 16 MiB
    assert os.path.getsize(bomb) < 2 ** 20
    _refused(lambda: bnx.read_network(bomb), bnx.NetworkFileError,
             "inflates to more than 67,108,864 bytes")


def test_a_gzip_trailer_past_the_bound_is_refused_at_once(tmp_path):
    data = bytearray(gzip.compress(b"network x {}\n"))
    data[-4:] = (2 ** 30).to_bytes(4, "little")  # "inflates to 1 GiB"
    path = tmp_path / "liar.bif.gz"
    path.write_bytes(bytes(data))
    _refused(lambda: bnx.read_network(path), bnx.NetworkFileError, "inflates to more than")


@pytest.mark.slow  # pgmpy's first import
def test_the_bound_on_a_network_file_is_settable(tmp_path):
    src = bnx.examples.network_path("admission.net")
    path = tmp_path / "admission.net.gz"
    with open(src, "rb") as fh:
        path.write_bytes(gzip.compress(fh.read()))
    assert sorted(bnx.read_network(path).nodes())[0] == "Admit"
    with pytest.raises(bnx.NetworkFileError, match="inflates to more than 300 bytes"):
        bnx.read_network(path, max_bytes=300)  # 224 bytes gzipped
    with pytest.raises(bnx.NetworkFileError, match="more than the bound of 100"):
        bnx.read_network(src, max_bytes=100)  # a file, not gzipped
    with pytest.raises(bnx.ArgumentError, match="max_bytes"):
        bnx.read_network(src, max_bytes=0)
    # the same bound on a classifier read from a file, and on the command line
    with pytest.raises(bnx.NetworkFileError, match="inflates to more than 300 bytes"):
        bnx.Classifier.from_file(path, "Admit", "state1", max_bytes=300)
    assert bnx.Classifier.from_file(path, "Admit", "state1", max_bytes=10_000).positive == "state1"
    command = [sys.executable, "-m", "bnx", "explain", str(path), "--class", "Admit",
               "--positive", "state1", "--instance", "GPA=state1", "--max-bytes"]
    small = subprocess.run(command + ["300"], capture_output=True, text=True)
    assert small.returncode != 0 and "inflates to more than 300 bytes" in small.stderr
    assert "Traceback" not in small.stderr
    assert subprocess.run(command + ["10000"], capture_output=True, text=True).returncode == 0


@pytest.mark.parametrize("declared", [1_000_000, 2])
def test_a_variable_of_a_million_states_is_refused(tmp_path, declared):
    n = 1_000_000
    path = tmp_path / "wide.bif"
    path.write_text(
        "network x {\n}\nvariable A {\n  type discrete [ " + str(declared) + " ] { "
        + ", ".join(f"s{i}" for i in range(n)) + " };\n}\n"
        "probability ( A ) {\n  table " + ", ".join(["0.000001"] * n) + ";\n}\n")
    _refused(lambda: bnx.read_network(path), bnx.NetworkFileError,
             "a variable \\(line 4\\) has 1,000,000 states, more than bnx reads")


@pytest.mark.slow
def test_states_are_resolved_in_linear_time():
    """20,000 states listed in a child's table: read in seconds (quadratic: 20 s)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    n = 20_000
    names = [f"s{i}" for i in range(n)]
    net = DiscreteBayesianNetwork([("A", "C")])
    net.add_cpds(TabularCPD("A", n, [[1 / n]] * n, state_names={"A": names}),
                 TabularCPD("C", 2, [[0.5] * n, [0.5] * n], evidence=["A"], evidence_card=[n],
                            state_names={"C": ["y", "n"], "A": names}))
    t = time.perf_counter()
    states, _, factors = exact_cpds(net)
    assert time.perf_counter() - t < 8
    assert states["A"] == tuple(names) and factors["C"][1].shape == (2, n)


def test_an_xmlbif_nested_200000_deep_is_refused(tmp_path):
    path = tmp_path / "deep.xml"
    depth = 200_000
    path.write_text("<BIF><NETWORK>" + "<A>" * depth + "</A>" * depth + "</NETWORK></BIF>")
    _refused(lambda: bnx.read_network(path), bnx.NetworkFileError,
             "cannot read as XMLBIF: its elements nest deeper than 32 levels")


_XML = """<?xml version="1.0"?>
<BIF VERSION="0.3"><NETWORK><NAME>x</NAME>
<VARIABLE TYPE="nature"><NAME>A</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>
<DEFINITION><FOR>A</FOR><TABLE>0.5 0.5</TABLE></DEFINITION>
</NETWORK></BIF>
"""


@pytest.mark.parametrize("edit, match", [
    (lambda s: s.replace("<NETWORK>", "<NET>").replace("</NETWORK>", "</NET>"),
     "no <NETWORK> element"),
    (lambda s: s.replace("<NAME>A</NAME>", ""), "its VARIABLE number 1 has no <NAME>"),
    (lambda s: s.replace("<TABLE>0.5 0.5</TABLE>", ""), "the DEFINITION of 'A' has no <TABLE>"),
    (lambda s: s.replace("<FOR>A</FOR>", "<FOR></FOR>"), "DEFINITION number 1 has no <FOR>"),
    (lambda s: s.replace("<OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME>", ""),
     "'A' has no outcomes"),
    (lambda s: s[:-30], "not well-formed XML"),
    (lambda s: s.replace("<NETWORK><NAME>x</NAME>", "<NETWORK>"), "<NETWORK> has no <NAME>"),
])
def test_a_malformed_xmlbif_names_what_is_missing(tmp_path, edit, match):
    good = tmp_path / "good.xml"
    good.write_text(_XML)
    assert list(bnx.read_network(good).nodes()) == ["A"]
    path = tmp_path / "bad.xml"
    path.write_text(edit(_XML))
    err = _refused(lambda: bnx.read_network(path), bnx.NetworkFileError, match)
    assert "NoneType" not in str(err)


def _temps(directory, target):
    return sorted(n for n in os.listdir(directory) if n.startswith(f".{target}."))


def test_a_save_removes_the_stale_temporary_files_of_its_own_target(tmp_path):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()  # a process that has ended: its pid names no running save
    stale = tmp_path / f".a.bnx.{done.pid}.abcd1234.tmp"
    running = tmp_path / f".a.bnx.{os.getppid()}.abcd1234.tmp"  # a running process's
    old = tmp_path / ".a.bnx.zyxw9876.tmp"  # before temps named their process: aged
    young = tmp_path / ".a.bnx.young123.tmp"
    other = tmp_path / f".a.bnx.old.{done.pid}.abcd1234.tmp"  # the target a.bnx.old's
    for p in (stale, running, old, young, other):
        p.write_bytes(b"half a file")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    odd.save(tmp_path / "a.bnx")
    assert _temps(tmp_path, "a.bnx") == sorted(p.name for p in (running, young, other))
    assert bnx.ODD.load(tmp_path / "a.bnx").count() == odd.count()


@pytest.mark.slow
def test_a_save_killed_mid_write_leaves_a_temporary_file_the_next_save_removes(tmp_path):
    target = tmp_path / "a.bnx"
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import os, time, bnx
        odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        os.fsync = lambda fd: time.sleep(60)  # stop inside the write
        odd.save({str(target)!r})
        """)], env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    t = time.monotonic()
    while not _temps(tmp_path, "a.bnx") and time.monotonic() - t < 60:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    left = _temps(tmp_path, "a.bnx")
    assert len(left) == 1 and not target.exists()
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    odd.save(target)
    assert _temps(tmp_path, "a.bnx") == [] and bnx.ODD.load(target).count() == odd.count()
