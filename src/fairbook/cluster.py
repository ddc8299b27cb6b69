"""Recording on a Dask cluster: a local one, a scheduler's address, or Slurm/PBS jobs.

``fairbook-book record NN NAME --scheduler local`` starts a ``LocalCluster`` on this machine (one
worker process per core, one thread each, so a unit's CPU seconds are its own);
``--scheduler tcp://host:8786`` connects to a running scheduler, whose workers must have
this project installed at the same commit (the fingerprint is computed here, the code runs
there). :func:`fairbook_book.recordings.record` submits the units and writes what comes back.

On Slurm or PBS, ``dask-jobqueue`` (``pip install 'fairbook[cluster]'``) starts the workers
as batch jobs. :func:`jobqueue_kwargs` builds its keyword arguments (tested without a
cluster or the package); :func:`jobqueue_cluster` makes the cluster object. A recipe, run on
the login node inside the checkout::

    python - <<'EOF'
    from fairbook.cluster import jobqueue_cluster
    cluster = jobqueue_cluster("slurm", cores=16, memory="64GB", walltime="12:00:00",
                               queue="gpu", job_extra=["--gres=gpu:1"])
    cluster.scale(jobs=4)
    print(cluster.scheduler_address)   # then, in another shell:
    input("fairbook-book record 08 ptn --profile full --device cuda --scheduler ADDRESS; "
          "Enter ends")
    EOF
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
from collections.abc import Iterator, Sequence

__all__ = [
    "CONNECT_TIMEOUT",
    "probe_scheduler",
    "JOBQUEUE_SYSTEMS",
    "check_scheduler",
    "check_workers_device",
    "connect",
    "describe_client",
    "jobqueue_cluster",
    "jobqueue_kwargs",
]

#: The batch systems :func:`jobqueue_kwargs` knows → dask-jobqueue's cluster class.
JOBQUEUE_SYSTEMS = {"slurm": "SLURMCluster", "pbs": "PBSCluster"}

_ADDRESS = re.compile(r"(tcp|tls|inproc|ucx|ws|wss)://\S+|[\w.-]+:\d+")


def check_scheduler(scheduler: str) -> str:
    """``"local"`` or a scheduler address (``tcp://host:8786``, ``host:8786``); else a
    ``ValueError`` of one line.

    Examples
    --------
    >>> check_scheduler("local"), check_scheduler("tcp://10.0.0.5:8786")
    ('local', 'tcp://10.0.0.5:8786')
    >>> check_scheduler("slurm")
    Traceback (most recent call last):
    ...
    ValueError: --scheduler must be local or a Dask scheduler's address (tcp://host:8786), got 'slurm'
    """  # noqa: E501
    text = str(scheduler).strip()
    if text == "local" or _ADDRESS.fullmatch(text):
        return text
    raise ValueError(
        "--scheduler must be local or a Dask scheduler's address (tcp://host:8786), "
        f"got {scheduler!r}"
    )


#: Seconds to wait for a remote scheduler, at connecting and at its first answer.
CONNECT_TIMEOUT = 10.0


def probe_scheduler(address: str, *, timeout: float = CONNECT_TIMEOUT) -> None:
    """Check that a Dask scheduler answers at ``address`` before anything is created: one
    ``ValueError`` line when nothing listens there, when the peer does not answer within
    ``timeout`` seconds, or when it is not a Dask scheduler (a web server, an SSH daemon:
    Dask's client would read their bytes as message lengths and ask for exabytes).

    Examples
    --------
    >>> import socket
    >>> with socket.socket() as free:
    ...     free.bind(("127.0.0.1", 0))
    ...     port = free.getsockname()[1]
    >>> try:
    ...     probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=2)
    ... except ValueError as error:
    ...     print(str(error).split(":")[0])
    nothing answers at tcp
    """
    import socket
    import threading

    host, _, port = address.removeprefix("tcp://").rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ValueError(
            f"nothing answers at {address}: {exc.strerror or type(exc).__name__} (is the "
            "scheduler running, and is the address right?)"
        ) from None
    outcome: list[BaseException | None] = []

    def talk() -> None:
        from distributed import Client

        try:
            with Client(address, timeout=timeout):
                outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=talk, daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if not outcome:
        raise ValueError(
            f"the peer at {address} did not answer as a Dask scheduler within {timeout:g} s"
        )
    if outcome[0] is not None:
        raise ValueError(
            f"the peer at {address} is not a Dask scheduler, or refused this client "
            f"({type(outcome[0]).__name__})"
        )


@contextlib.contextmanager
def connect(
    scheduler: str,
    *,
    n_workers: int | None = None,
    processes: bool = True,
    timeout: float = CONNECT_TIMEOUT,
) -> Iterator:
    """A ``distributed.Client`` of ``scheduler`` for the block (the cluster it started, if
    ``"local"``, is closed after it).

    Parameters
    ----------
    scheduler : str or distributed.Client
        ``"local"`` or an address (:func:`check_scheduler`); a client is used as it is (and
        left open).
    n_workers : int, optional
        Workers of a local cluster (default: the cores); one thread each.
    processes : bool, default True
        Local workers as processes (False: threads of this process; for tests).
    timeout : float, default :data:`CONNECT_TIMEOUT`
        Seconds to wait for a remote scheduler.

    Raises
    ------
    ValueError
        A bad address, or a scheduler that cannot be reached (one line).

    Examples
    --------
    >>> with connect("local", n_workers=1, processes=False) as client:
    ...     client.submit(pow, 2, 5).result()
    32
    """
    from distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        yield scheduler
        return
    address = check_scheduler(scheduler)
    if address == "local":
        cluster = LocalCluster(
            n_workers=n_workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
        )
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ValueError(
            f"cannot reach the Dask scheduler at {address}: {exc or type(exc).__name__}"
        ) from None
    with client:
        yield client


def describe_client(client) -> str:
    """One line for the provenance: the scheduler's address and its workers' count.

    Examples
    --------
    >>> with connect("local", n_workers=2, processes=False) as client:
    ...     describe_client(client).endswith("(2 workers)")
    True
    """
    info = client.scheduler_info()
    workers = len(info.get("workers", {}))
    return f"dask {info.get('address', 'unknown')} ({workers} worker{'s' if workers != 1 else ''})"


def _device_here(device: str) -> str | None:
    """None if ``device`` is on this worker, else the one-line reason (run on workers)."""
    from fairbook.devices import DeviceUnavailable, check_device

    try:
        check_device(device, where=f"worker host {platform.node() or 'unknown'}")
    except DeviceUnavailable as exc:
        return str(exc)
    return None


def check_workers_device(client, device: str) -> None:
    """Refuse (``DeviceUnavailable``, one line) when a worker of ``client`` lacks ``device``.

    Examples
    --------
    >>> with connect("local", n_workers=1, processes=False) as client:
    ...     check_workers_device(client, "cpu")
    """
    from fairbook.devices import DeviceUnavailable

    missing = {w: why for w, why in client.run(_device_here, device).items() if why}
    if missing:
        worker, why = sorted(missing.items())[0]
        more = f" (and {len(missing) - 1} other worker(s))" if len(missing) > 1 else ""
        raise DeviceUnavailable(f"{why}{more}; worker {worker}")


def jobqueue_kwargs(
    system: str,
    *,
    cores: int,
    memory: str,
    walltime: str,
    queue: str | None = None,
    account: str | None = None,
    processes: int | None = None,
    job_extra: Sequence[str] = (),
    prologue: Sequence[str] = (),
    local_directory: str | None = None,
) -> dict:
    """Keyword arguments of dask-jobqueue's ``SLURMCluster`` / ``PBSCluster`` for workers
    that record units. Each job runs ``processes`` worker processes of ``cores // processes``
    threads, and each thread runs one unit at a time; the default (one process per core)
    gives single-threaded workers, so a unit's CPU seconds are its own.

    Parameters
    ----------
    system : {"slurm", "pbs"}
    cores, memory, walltime
        Per job: cores, memory (``"64GB"``), wall time (``"12:00:00"``).
    queue, account : str, optional
        The partition/queue and the account to charge.
    processes : int, optional
        Worker processes per job (default ``cores``: one single-threaded worker per core;
        give 1 for a GPU job, so one process owns the GPU).
    job_extra : sequence of str
        More scheduler directives (``"--gres=gpu:1"``, ``"-l ngpus=1"``).
    prologue : sequence of str
        Shell lines run before the worker starts (``"source .venv/bin/activate"``).
    local_directory : str, optional
        Scratch space on the node for the workers.

    Examples
    --------
    >>> kw = jobqueue_kwargs("slurm", cores=8, memory="32GB", walltime="02:00:00",
    ...                      queue="cpu", job_extra=["--exclusive"])
    >>> kw["cores"], kw["processes"], kw["queue"], kw["job_extra_directives"]
    (8, 8, 'cpu', ['--exclusive'])
    >>> jobqueue_kwargs("lsf", cores=1, memory="1GB", walltime="1:00:00")
    Traceback (most recent call last):
    ...
    ValueError: system must be one of ['pbs', 'slurm'], got 'lsf'
    """
    if system not in JOBQUEUE_SYSTEMS:
        raise ValueError(f"system must be one of {sorted(JOBQUEUE_SYSTEMS)}, got {system!r}")
    if isinstance(cores, bool) or not isinstance(cores, int) or cores < 1:
        raise ValueError(f"cores must be a positive integer, got {cores!r}")
    processes = cores if processes is None else processes
    if isinstance(processes, bool) or not isinstance(processes, int) or not 1 <= processes <= cores:
        raise ValueError(
            f"processes must be an integer from 1 to cores ({cores}), got {processes!r}"
        )
    if not re.fullmatch(r"\d+(\.\d+)?\s*[KMGT]i?B", str(memory)):
        raise ValueError(f"memory must look like '64GB' or '16GiB', got {memory!r}")
    if not re.fullmatch(r"(\d+-)?\d{1,3}:\d{2}:\d{2}", str(walltime)):
        raise ValueError(f"walltime must look like '12:00:00', got {walltime!r}")
    kwargs = {
        "cores": cores,
        "processes": processes,
        "memory": str(memory),
        "walltime": str(walltime),
        "job_extra_directives": list(job_extra),
        "job_script_prologue": list(prologue),
    }
    if queue:
        kwargs["queue"] = queue
    if account:
        kwargs["account"] = account
    if local_directory:
        kwargs["local_directory"] = local_directory
    return kwargs


def jobqueue_cluster(system: str, **options):
    """dask-jobqueue's cluster for ``system`` with :func:`jobqueue_kwargs`'s arguments (its
    scheduler runs in this process; ``cluster.scale(jobs=N)`` submits the jobs).

    Raises
    ------
    ValueError
        Bad options, or dask-jobqueue not installed (``pip install 'fairbook[cluster]'``).
    """
    kwargs = jobqueue_kwargs(system, **options)
    try:
        import dask_jobqueue
    except ImportError:
        raise ValueError(
            "the Slurm/PBS clusters need dask-jobqueue: pip install 'fairbook[cluster]'"
        ) from None
    return getattr(dask_jobqueue, JOBQUEUE_SYSTEMS[system])(**kwargs)
