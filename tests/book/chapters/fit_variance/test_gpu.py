"""Tests of chapter 06's GPU recording (:mod:`fairbook_book.chapters.fit_variance._gpu`):
its units and settings, the one-line refusal without CUDA, and what the chapter says."""

import pandas as pd
import pytest

from fairbook_book import cli
from fairbook_book.chapters import fit_variance as fv
from fairbook_book.recordings import Recording


def test_the_recording_is_registered_and_runs_seed_004s_setting_on_cuda():
    assert fv.RECORDINGS["gpu"] is fv.GPU_RECORDING and "study" in fv.RECORDINGS
    config = fv.GPU_RECORDING.settings_for(fv.settings("full"))
    assert config["device"] == "cuda" and config["emulate"] is False
    assert config["n_runs"] == 8 and config["epochs"]["digits_s"] == 15
    units = fv.GPU_RECORDING.units(config)
    assert len(units) == 24 and units[0] == "digits_s.base.fit.r00"
    assert units[-1] == "digits_s.base.strict.r07"


def test_without_cuda_a_unit_refuses_in_one_line(monkeypatch, capsys, tmp_path):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="this machine has none"):
        fv.GPU_RECORDING.run("digits_s.base.fit.r00", fv.settings("full"))
    with pytest.raises(SystemExit) as exit_:
        cli.main(
            ["record", "06", "gpu", "--units", "digits_s.base.fit.r00", "--into", str(tmp_path)]
        )
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    # refused before any unit starts (fairbook.devices), in one line
    assert "device cuda is not available" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_the_chapter_says_nothing_is_recorded_yet_and_summarises_a_recording():
    empty = Recording("06_fit_variance", "gpu", pd.DataFrame(), expected=24)
    assert "nothing recorded yet (0 of 24 FIT runs)" in fv.gpu_recording_text(empty)
    assert fv.gpu_identity(empty) is None
    frame = pd.DataFrame(
        {
            "technique": ["base"] * 4,
            "setting": ["FIT runs"] * 4,
            "run": [0, 0, 1, 1],
            "metric": ["accuracy", "DP", "accuracy", "DP"],
            "value": [0.90, 0.1, 0.95, 0.1],
            "weights_hash": ["a", "a", "b", "b"],
            "pred_hash": ["p", "p", "q", "q"],
        }
    )
    provenance = [{"unit": "u0", "seconds": 1.0}]
    recorded = Recording("06_fit_variance", "gpu", frame, provenance, expected=24)
    table = fv.gpu_identity(recorded)
    row = table.loc[("base", "FIT runs")]
    assert (row["runs"], row["distinct_weights"], row["distinct_predictions"]) == (2, 2, 2)
    assert row["MaxDiff accuracy (pp)"] == pytest.approx(5.0)
