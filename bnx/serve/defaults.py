"""The explorer's defaults, apart so that ``bnx serve --help`` reads them cheaply."""

__all__ = ["DEADLINE", "GRACE", "QUEUE"]

#: The seconds an answer may take by default (``bnx serve --deadline``,
#: :func:`create_app`'s and :func:`run`'s ``deadline=``).
DEADLINE = 10.0
#: How many questions may wait for a worker by default (``--queue``, ``queue=``).
QUEUE = 32
#: How long past its deadline a worker may go on before it is killed: a report explained
#: without compiling stops its own search at the deadline, then writes what it proved.
GRACE = 2.0
