"""Tests of fairbook.devices and ``fairbook-book record --device`` (no GPU needed: CUDA's
availability is monkeypatched)."""

import importlib
import inspect

import pytest
import torch

from fairbook import devices
from fairbook_book.cli import main
from fairbook_book.recordings import Recordable
from fairbook_book.tooling import chapters


def _no_cuda(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


def _fake_cuda(monkeypatch, count=1):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)


def test_device_kind_accepts_cpu_cuda_and_an_index_only():
    assert [devices.device_kind(d) for d in ("cpu", "cuda", "cuda:3")] == ["cpu", "cuda", "cuda"]
    for bad in ("gpu", "cuda:", "cuda:x", "CPU", "mps"):
        with pytest.raises(ValueError, match="device must be cpu, cuda or cuda:N"):
            devices.device_kind(bad)


def test_check_device_refuses_a_missing_gpu_in_one_line(monkeypatch):
    _no_cuda(monkeypatch)
    assert devices.check_device("cpu") == "cpu"
    with pytest.raises(devices.DeviceUnavailable) as caught:
        devices.check_device("cuda", where="host n1")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("device cuda is not available on host n1")
    assert f"torch {torch.__version__}" in message
    _fake_cuda(monkeypatch, count=2)
    assert devices.check_device("cuda:1") == "cuda:1"
    with pytest.raises(devices.DeviceUnavailable, match=r"it has 2 CUDA device\(s\)"):
        devices.check_device("cuda:2")


def test_on_device_gives_a_recording_of_its_own_only_where_device_is_a_parameter():
    cost = Recordable("cost", lambda s: ["d1"], lambda u, s: None, depends=("fairbook.stats.cps",),
                      parameters=("device", "n"))  # fmt: skip
    ptn = Recordable("ptn", lambda s: ["r0"], lambda u, s: None, depends=("fairbook.stats.cps",),
                     parameters=("n",))  # fmt: skip
    gpu = devices.on_device(cost, "cuda:1")
    assert gpu.name == "cost-cuda" and gpu.fingerprint() == cost.fingerprint()
    assert gpu.units is cost.units and gpu.parameters == cost.parameters
    assert devices.on_device(cost, "cpu") is cost and devices.on_device(ptn, "cuda") is ptn


def _recordings():
    found = {}
    for chapter in chapters.discover():
        package = importlib.import_module(f"fairbook_book.chapters.{chapter.topic}")
        for name, recordable in getattr(package, "RECORDINGS", {}).items():
            found[f"{chapter.slug}/{name}"] = (package, recordable)
    return found


def test_the_registry_names_real_recordings_and_says_the_truth_about_each():
    found = _recordings()
    assert set(devices.TORCH_RECORDINGS) <= set(found)
    # the chapters: every recording of 06, 07, 08, 10 is classified
    for key in found:
        if key[:2] in {"06", "07", "08", "10"}:
            assert key in devices.TORCH_RECORDINGS, key
    for key, use in devices.TORCH_RECORDINGS.items():
        package, recordable = found[key]
        assert use.how in {"setting", "gpu", "cpu"} and len(use.note) > 20
        if use.how in {"setting", "gpu"}:
            # the unit reads its device from the settings: --device sets that key alone
            config = recordable.settings_for(package.settings("fast", device="cuda"))
            assert config["device"] == "cuda", key
    # the CPU-only reasons are still in the code (if they go, the registry must change)
    from fairbook.generative.hydragan import ConditionalHydraGAN
    from fairbook.uncertainty import bayes_by_backprop, ensemble

    assert ".numpy()" in inspect.getsource(ConditionalHydraGAN.sample_encoded)
    assert "torch.from_numpy(" in inspect.getsource(bayes_by_backprop)
    assert "torch.from_numpy(" in inspect.getsource(ensemble)


def test_record_device_cuda_without_cuda_is_one_line_exit_2(monkeypatch, tmp_path, capsys):
    _no_cuda(monkeypatch)
    into = str(tmp_path)
    cases = {
        ("08", "cost"): "device cuda is not available on this machine",
        ("08", "ptn"): "device cuda is not available on this machine",
        ("06", "study"): "device cuda is not available on this machine",
        ("06", "gpu"): "device cuda is not available on this machine",
        ("07", "seeds"): "trains on the CPU only",
        ("10", "verdicts"): "trains on the CPU only",
        ("03", "cps"): "trains none",
    }
    for (chapter, name), expected in cases.items():
        argv = ["record", chapter, name, "--device", "cuda", "--into", into]
        with pytest.raises(SystemExit) as stop:
            main(argv)
        err = capsys.readouterr().err
        assert stop.value.code == 2, argv
        assert err.count("\n") == 1 and expected in err and "Traceback" not in err, err
    with pytest.raises(SystemExit) as stop:
        main(["record", "08", "cost", "--device", "tpu", "--into", into])
    assert stop.value.code == 2 and "--device: device must be" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["record", "06", "gpu", "--device", "cpu", "--into", into])
    assert stop.value.code == 2 and "trains on CUDA only" in capsys.readouterr().err
    assert not any(tmp_path.rglob("*.json"))  # nothing computed, nothing written


def test_record_device_cuda_on_a_gpu_machine_records_into_its_own_recording(
    monkeypatch, tmp_path, capsys
):
    """With CUDA (faked), ``--device cuda`` reaches the units' settings and the provenance;
    the unit itself is replaced by one that reports its settings (no GPU runs here)."""
    from fairbook_book.chapters import parallel_time_networks as pc

    _fake_cuda(monkeypatch)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Fake GPU")
    monkeypatch.setattr(torch.backends.cudnn, "version", lambda: 90100)
    seen = []

    def fake_unit(unit, config):
        import pandas as pd

        seen.append(config["device"])
        return pd.DataFrame({"hidden_size": [int(unit[1:])], "epoch_cpu_seconds": [0.25]})

    cost = pc.RECORDINGS["cost"]
    monkeypatch.setitem(pc.RECORDINGS, "cost", Recordable(**{**cost.__dict__, "run": fake_unit}))
    into = tmp_path / "recorded"
    argv = ["record", "08", "cost", "--device", "cuda", "--units", "d072", "--into", str(into)]
    assert main(argv) == 0
    assert seen == ["cuda"]
    out = capsys.readouterr().out
    assert "Recording 08_parallel_time_networks/cost-cuda: 1 of" in out and "cuda (Fake GPU" in out
    unit = into / "08_parallel_time_networks" / "cost-cuda" / "d072.json"
    import json

    provenance = json.loads(unit.read_text())
    assert provenance["device"] == "cuda" and provenance["parameters"]["device"] == "cuda"
    assert provenance["kernels"]["device"].startswith("cuda (Fake GPU")
    assert not (into / "08_parallel_time_networks" / "cost").exists()  # the CPU one untouched
