"""Reading a file that may not be what it says, within stated bounds.

Every file bnx reads (a network file, a saved ODD) goes through :func:`read_regular`: it is
``os.stat``-ed first and refused unless it is a regular file (a FIFO would block ``open``
forever, ``/dev/zero`` or a symlink to it never ends), then opened without blocking and
checked again on the open descriptor (the path may have changed in between), and read
only when its size is within the caller's bound. A gzipped file is inflated by
:func:`gunzip` within a bound on its decompressed size, in chunks, so that a small file
that inflates to gigabytes (a "gzip bomb") is refused after reading at most the bound,
holding one chunk at a time.

The errors are the caller's (``error(message)`` makes the exception to raise), so a
network file and an ODD file each say what they are.

Examples
--------
>>> import gzip, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "a.txt.gz")
>>> with gzip.open(path, "wb") as fh:
...     _ = fh.write(b"x" * 1000)
>>> len(gunzip(read_regular(path, 10 ** 6, ValueError), 10 ** 6, ValueError, path))
1000
>>> try:
...     gunzip(read_regular(path, 10 ** 6, ValueError), 100, ValueError, path)
... except ValueError as exc:
...     print(str(exc).split(": ", 1)[1])
it inflates to more than 100 bytes (the bound on a decompressed file)
>>> try:
...     read_regular(os.path.dirname(path), 10, ValueError)
... except ValueError as exc:
...     print(str(exc).split(": ", 1)[1])
is a directory, not a file
"""

from __future__ import annotations

import os
import stat
import zlib
from collections.abc import Callable

__all__ = ["read_regular", "gunzip", "CHUNK"]

#: The bytes inflated at a time.
CHUNK = 1 << 20

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(path: str, mode: int, error: Callable[[str], Exception]) -> Exception:
    kind = _kind(mode)
    if kind == "a directory":
        return error(f"{path}: is a directory, not a file")
    return error(f"{path}: is {kind}, not a regular file; bnx reads only regular files")


def read_regular(path: str, limit: int | None, error: Callable[[str], Exception]) -> bytes:
    """Return the bytes of the regular file ``path``, at most ``limit`` of them.

    Refused (``error(message)`` raised) when it does not exist, cannot be read, is not a
    regular file (checked by ``os.stat`` before opening, and on the opened descriptor),
    or holds more than ``limit`` bytes (``None``: no bound).
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, st.st_mode, error)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):  # replaced between the stat and the open
            raise _not_regular(path, st.st_mode, error)
        if limit is not None and st.st_size > limit:
            raise error(f"{path}: it holds {st.st_size:,} bytes, more than the bound of "
                        f"{limit:,}")
        try:
            data = fh.read() if limit is None else fh.read(st.st_size + 1)
        except OSError as exc:
            raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if limit is not None and len(data) > limit:  # it grew past the bound while read
        raise error(f"{path}: it holds more than the bound of {limit:,} bytes")
    return data


def gunzip(data: bytes, limit: int, error: Callable[[str], Exception], path: str) -> bytes:
    """Inflate the gzip file ``data`` (every member of it), refusing more than ``limit`` bytes.

    First the last member's trailer (its size modulo ``2**32``) is read: a file that says
    it inflates past the bound is refused at once. Then one pass inflates a chunk at a time
    and only counts, so that a file that inflates past the bound is refused holding one
    chunk; a second pass keeps the bytes. ``error(message)`` is raised for a file that is
    not gzip, is truncated or corrupt, or inflates past ``limit``.
    """
    too_big = error(f"{path}: it inflates to more than {limit:,} bytes (the bound on a "
                    "decompressed file)")
    if len(data) >= 18 and limit < 1 << 32 and int.from_bytes(data[-4:], "little") > limit:
        raise too_big
    total = 0
    for part in _inflate(data, error, path):
        total += len(part)
        if total > limit:
            raise too_big
    return b"".join(_inflate(data, error, path))


def _inflate(data: bytes, error: Callable[[str], Exception], path: str):
    """Yield the inflated bytes of each gzip member of ``data``, a chunk at a time.

    The input goes in by slices of :data:`CHUNK` bytes at most, so that what is held is
    one slice and one chunk of output.
    """
    view = memoryview(data)
    first = True
    while first or len(view):
        first = False
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        at = 0
        try:
            while not d.eof and at < len(view):
                pending = view[at:at + CHUNK]
                at += len(pending)
                while True:
                    out = d.decompress(pending, CHUNK)
                    if out:
                        yield out
                    pending = d.unconsumed_tail
                    if d.eof or (not pending and len(out) < CHUNK):
                        break
        except zlib.error as exc:
            raise error(f"{path}: cannot decompress as gzip: {exc}") from None
        if not d.eof:
            raise error(f"{path}: cannot decompress as gzip: the file is truncated")
        view = memoryview(d.unused_data + bytes(view[at:]))
        if len(view) and bytes(view[:2]) != b"\x1f\x8b":
            if not bytes(view).strip(b"\x00"):  # zero padding after the last member
                return
            raise error(f"{path}: cannot decompress as gzip: bytes after its last member "
                        "are not gzip")
