"""Tests of fairbook.cluster and of recording through a Dask cluster (a ``LocalCluster`` of
two single-threaded worker processes, shared by the tests of this module)."""

import json
import os
import platform
import signal
import sys
from pathlib import Path

import pandas as pd
import pytest
import torch

from fairbook import cluster
from fairbook.devices import DeviceUnavailable
from fairbook_book.cli import main
from fairbook_book.recordings import Recordable, UnitLost, load, record
from fairbook_book.reproduction.signature import kernel_signature


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as local,
        Client(local) as connected,
    ):
        yield connected


def _tables(root, chapter, recordable):
    folder = Path(root) / chapter / recordable.name
    return {p.stem: pd.read_parquet(p) for p in sorted(folder.glob("*.parquet"))}


def _cps():
    from fairbook_book.chapters import small_groups as sg

    # chapter 03's CPS units at a tiny budget: the same code as the full recording's
    config = {"seed": 0, **sg.settings("fast"), "n_estimators": 5, "cps_draws": 200}
    return sg.RECORDINGS["cps"], config


def test_a_cheap_recording_through_a_local_cluster_equals_the_local_run(tmp_path):
    from distributed import Client, LocalCluster

    recordable, config = _cps()
    units = ["n005", "n007", "n009"]
    local, remote = tmp_path / "local", tmp_path / "dask"
    record("03_small_groups", recordable, config, units=units, root=local, progress=False)
    # worker threads of this process (the units' fitted groups are not fitted again per
    # worker process); the tests below kill worker processes
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as threads,
        Client(threads) as client,
    ):
        written = record(
            "03_small_groups", recordable, config, units=units, root=remote, progress=False,
            scheduler=client,
        )  # fmt: skip
        workers = {w["host"] for w in client.scheduler_info()["workers"].values()}
    assert sorted(p.stem for p in written) == units
    here, there = (_tables(r, "03_small_groups", recordable) for r in (local, remote))
    assert list(here) == units == list(there)
    for unit in units:
        pd.testing.assert_frame_equal(here[unit], there[unit], check_exact=True)
    recording = load("03_small_groups", recordable, settings=config, root=remote)
    for p in recording.provenance:
        assert p["host"] == platform.node() and p["scheduler"].endswith("(2 workers)")
        assert p["scheduler"].startswith("dask inproc://") and p["kernels"] == kernel_signature()
        assert p["device"] == "cpu" and p["cores"] == os.cpu_count() and p["cpu_seconds"] >= 0
    assert workers and recording.hosts == {platform.node(): units}
    # resumable exactly as a local recording: nothing left to do
    assert record("03_small_groups", recordable, config, units=units, root=remote,
                  progress=False, scheduler="local") == []  # fmt: skip


def _victim_recordable(marker: Path, victim: str) -> Recordable:
    def run(unit, settings):
        if unit == victim and not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)  # the worker dies mid-unit
        return pd.DataFrame({"name": [unit], "value": [len(unit) * settings["scale"]]})

    return Recordable(
        "victim", lambda s: ["a", "bb", "ccc"], run, depends=("fairbook.stats.cps",),
        parameters=("scale",),
    )  # fmt: skip


def test_killing_a_worker_mid_unit_loses_nothing(client, tmp_path):
    marker = tmp_path / "killed"
    recordable = _victim_recordable(marker, "bb")
    written = record("00_toy", recordable, {"scale": 2.0}, root=tmp_path, progress=False,
                     scheduler=client)  # fmt: skip
    assert marker.exists()  # a worker was killed computing unit bb ...
    assert sorted(p.stem for p in written) == ["a", "bb", "ccc"]  # ... which ran again elsewhere
    frame = load("00_toy", recordable, root=tmp_path).frame.sort_values("unit")
    assert frame["value"].tolist() == [2.0, 4.0, 6.0]
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker


def test_a_recording_stopped_by_a_lost_unit_resumes(client, tmp_path):
    scheduler = client.cluster.scheduler
    allowed, scheduler.allowed_failures = scheduler.allowed_failures, 0
    marker = tmp_path / "killed"
    recordable = _victim_recordable(marker, "a")
    try:
        # unit a kills its worker; the units queued on that worker are lost with it
        with pytest.raises(UnitLost, match=r"unit \w+ of 00_toy/victim was lost") as caught:
            record("00_toy", recordable, {"scale": 1.0}, root=tmp_path, progress=False,
                   scheduler=client)  # fmt: skip
        assert "\n" not in str(caught.value) and "record again to resume" in str(caught.value)
    finally:
        scheduler.allowed_failures = allowed
    client.wait_for_workers(2, timeout=60)
    before = {p.stem for p in (tmp_path / "00_toy" / "victim").glob("*.json")}
    assert "a" not in before
    assert not list((tmp_path / "00_toy" / "victim").glob(".*.lock"))  # locks released
    written = record("00_toy", recordable, {"scale": 1.0}, root=tmp_path, progress=False,
                     scheduler=client)  # fmt: skip
    assert {p.stem for p in written} == {"a", "bb", "ccc"} - before
    frame = load("00_toy", recordable, root=tmp_path).frame.sort_values("unit")
    assert frame["value"].tolist() == [1.0, 2.0, 3.0]


def test_a_cuda_recording_is_refused_when_a_worker_has_none(client, tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # here, not on the workers
    recordable = _victim_recordable(tmp_path / "never", "none")
    with pytest.raises(DeviceUnavailable, match="on worker host") as caught:
        record("00_toy", recordable, {"scale": 1.0, "device": "cuda"}, root=tmp_path,
               progress=False, scheduler=client)  # fmt: skip
    assert "\n" not in str(caught.value)
    assert not list((tmp_path / "00_toy" / "victim").glob("*.json"))


def test_check_scheduler_takes_local_or_an_address():
    for good in ("local", "tcp://10.1.2.3:8786", "node7:8786", "tls://h.example.org:8786"):
        assert cluster.check_scheduler(good) == good
    for bad in ("slurm", "", "tcp://", "host"):
        with pytest.raises(ValueError, match="--scheduler must be local or"):
            cluster.check_scheduler(bad)


def test_an_unreachable_scheduler_is_one_line():
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        with cluster.connect("tcp://127.0.0.1:9", timeout=1):
            pass


def test_record_cli_refuses_a_bad_scheduler_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["record", "03", "cps", "--scheduler", "slurm", "--into", str(tmp_path)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "--scheduler must be" in err


def test_jobqueue_kwargs_checks_and_builds_without_a_cluster():
    kw = cluster.jobqueue_kwargs("pbs", cores=4, memory="16GiB", walltime="1-00:00:00",
                                 account="lab", processes=1, job_extra=["-l ngpus=1"])  # fmt: skip
    assert kw == {
        "cores": 4, "processes": 1, "memory": "16GiB", "walltime": "1-00:00:00",
        "job_extra_directives": ["-l ngpus=1"], "job_script_prologue": [], "account": "lab",
    }  # fmt: skip
    bad = {
        "cores": (0, "cores must be a positive integer"),
        "processes": (5, "processes must be an integer from 1 to cores"),
        "memory": ("lots", "memory must look like"),
        "walltime": ("1h", "walltime must look like"),
    }
    base = {"cores": 4, "memory": "1GB", "walltime": "01:00:00"}
    for key, (value, message) in bad.items():
        with pytest.raises(ValueError, match=message):
            cluster.jobqueue_kwargs("slurm", **{**base, key: value})


def test_jobqueue_cluster_without_dask_jobqueue_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask_jobqueue", None)  # as if not installed
    with pytest.raises(ValueError, match=r"pip install 'fairbook\[cluster\]'"):
        cluster.jobqueue_cluster("slurm", cores=1, memory="1GB", walltime="01:00:00")


def test_jobqueue_job_scripts_carry_the_options():
    pytest.importorskip("dask_jobqueue")  # the optional extra `cluster`
    scripts = {}
    for system, extra in (("slurm", "--gres=gpu:1"), ("pbs", "-l ngpus=1")):
        made = cluster.jobqueue_cluster(
            system, cores=4, memory="16GB", walltime="02:00:00", queue="gpu",
            job_extra=[extra], prologue=["source .venv/bin/activate"],
        )  # fmt: skip
        try:
            scripts[system] = made.job_script()
        finally:
            made.close()
    assert "#SBATCH -p gpu" in scripts["slurm"] and "#SBATCH --gres=gpu:1" in scripts["slurm"]
    assert "#PBS -q gpu" in scripts["pbs"] and "#PBS -l ngpus=1" in scripts["pbs"]
    for script in scripts.values():
        assert "source .venv/bin/activate" in script and "--nthreads 1" in script
        assert "--nworkers 4" in script


def test_the_provenance_of_a_remote_unit_is_read_on_its_worker(client):
    facts = client.submit(lambda: __import__("fairbook_book.recordings").recordings._machine(),
                          pure=False).result()  # fmt: skip
    assert facts["host"] == platform.node() and facts["kernels"] == kernel_signature()
    json.dumps(facts)  # all of it goes into the JSON provenance


# ---- issue 48, cause 7: a bad scheduler or seed is refused before anything is created ------


def test_a_peer_that_is_not_a_dask_scheduler_is_named_in_one_line():
    import socket
    import threading

    from fairbook.cluster import probe_scheduler

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer_like_a_web_server():
        try:
            while True:
                conn, _ = server.accept()
                conn.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n" * 4)
                conn.close()
        except OSError:
            pass

    threading.Thread(target=answer_like_a_web_server, daemon=True).start()
    try:
        with pytest.raises(ValueError, match=f"the peer at tcp://127.0.0.1:{port}") as info:
            probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=2)
    finally:
        server.close()
    assert "\n" not in str(info.value)


def test_record_refuses_a_dead_scheduler_or_a_bad_seed_and_creates_nothing(tmp_path, capsys):
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    for extra, says in (
        (["--scheduler", f"tcp://127.0.0.1:{port}"], "nothing answers at"),
        (["--seed", "-1"], "--seed: -1 is not an integer from 0 to"),
    ):
        with pytest.raises(SystemExit) as info:
            main(["record", "03", "cps", "--into", str(tmp_path), *extra])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())  # no recording folder left behind
