"""The knobs: validation, set-and-restore, the one-at-a-time variants."""

import pytest
import torch

from fairbook.variance.determinism import KNOB_DOCS, Knobs, apply, environment, knob_variants


def test_apply_sets_and_restores_process_state():
    before = (
        torch.get_num_threads(),
        torch.backends.mkldnn.enabled,
        torch.are_deterministic_algorithms_enabled(),
    )
    with apply(Knobs(threads=1, mkldnn=False, deterministic=True)):
        assert torch.get_num_threads() == 1
        assert torch.backends.mkldnn.enabled is False
        assert torch.are_deterministic_algorithms_enabled()
    after = (
        torch.get_num_threads(),
        torch.backends.mkldnn.enabled,
        torch.are_deterministic_algorithms_enabled(),
    )
    assert after == before


def test_apply_restores_after_an_error():
    before = torch.backends.mkldnn.enabled
    with pytest.raises(RuntimeError), apply(Knobs(mkldnn=not before)):
        raise RuntimeError("boom")
    assert torch.backends.mkldnn.enabled == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"threads": 0},
        {"threads": True},
        {"workers": -1},
        {"device": "tpu"},
        {"sum_order": "random"},
        {"cudnn_benchmark": True},
        {"cudnn_deterministic": True},
    ],
)
def test_bad_knobs_are_errors(kwargs):
    with pytest.raises(ValueError):
        Knobs(**kwargs)


def test_cuda_without_a_gpu_is_an_error():
    if torch.cuda.is_available():  # pragma: no cover
        pytest.skip("a GPU is present")
    with pytest.raises(ValueError, match="cuda"), apply(Knobs(device="cuda")):
        pass


def test_variants_change_one_knob_each():
    variants = knob_variants()
    ref = variants.pop("reference")
    assert ref == Knobs()
    for name, knobs in variants.items():
        changed = [k for k in KNOB_DOCS if getattr(knobs, k) != getattr(ref, k)]
        assert len(changed) == 1, name
        assert name.startswith(changed[0])
    cuda = knob_variants(Knobs(device="cuda"))
    assert "cudnn_benchmark=True" in cuda and "cudnn_deterministic=True" in cuda


def test_describe_and_environment():
    assert Knobs().describe() == "reference"
    assert Knobs(threads=3, sum_order="permuted").describe() == "threads=3, sum_order=permuted"
    info = environment()
    assert info["torch"] == torch.__version__
    assert set(KNOB_DOCS) == set(Knobs.__dataclass_fields__)
