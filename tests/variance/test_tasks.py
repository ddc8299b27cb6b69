"""Digits-S construction, the tabular task, and the training loop's determinism."""

import numpy as np
import pytest

from fairbook.data import verify
from fairbook.metrics import bias_report
from fairbook.variance.determinism import Knobs
from fairbook.variance.tasks import RunSpec, digits_s, load_task, tabular_task, train_and_predict


@pytest.fixture(scope="module")
def task():
    return digits_s()


def test_digits_s_skew_and_balanced_test_set(task):
    counts = task.counts()
    train = counts["train"]
    for cls in range(10):
        major, minor = ("original", "inverted") if cls < 5 else ("inverted", "original")
        n = train.loc[cls].sum()
        assert train.loc[cls, major] == round(0.95 * n)
        assert train.loc[cls, minor] == n - round(0.95 * n)
    test = counts["test"]
    assert (test["original"] == test["inverted"]).all()
    half = len(task.y_test) // 2
    assert np.allclose(task.x_test[half:], 1.0 - task.x_test[:half])
    assert np.array_equal(task.y_test[half:], task.y_test[:half])
    assert task.x_train.dtype == np.float32 and task.x_train.min() >= 0 and task.x_train.max() <= 1


def test_digits_s_inverted_training_images_are_inversions():
    from sklearn.datasets import load_digits

    t = digits_s(skew=0.5, split_seed=3)
    originals = {img.tobytes() for img in (load_digits().images / 16.0).astype(np.float32)}
    for x, g in zip(t.x_train[:50], t.g_train[:50], strict=True):
        img = x[0] if g == 0 else 1.0 - x[0]
        assert img.astype(np.float32).tobytes() in originals


@pytest.mark.parametrize("kwargs", [{"skew": 0.4}, {"test_size": 1.0}])
def test_digits_s_bad_parameters(kwargs):
    with pytest.raises(ValueError):
        digits_s(**kwargs)


@pytest.mark.parametrize(
    "technique", ["base", "rebalance", "adversarial", "domain_independent", "penalty"]
)
def test_every_technique_trains_and_predicts(task, technique):
    out = train_and_predict(task, technique, epochs=1)
    assert out["y_pred"].shape == task.y_test.shape
    assert set(np.unique(out["groups"])) == {"original", "inverted"}
    assert len(out["weights_hash"]) == 16
    report = bias_report(out["y_true"], out["y_pred"], out["groups"])
    assert "overall" in report.index


def test_fit_runs_are_bit_identical_and_knobs_change_the_model(task):
    ref = train_and_predict(task, epochs=1, run=0)
    again = train_and_predict(task, epochs=1, run=5)  # run is ignored with fixed knobs
    assert ref["weights_hash"] == again["weights_hash"]
    assert np.array_equal(ref["y_pred"], again["y_pred"])
    permuted = [
        train_and_predict(task, epochs=1, run=r, knobs=Knobs(sum_order="permuted")) for r in (0, 1)
    ]
    assert permuted[0]["weights_hash"] != permuted[1]["weights_hash"]
    assert permuted[0]["weights_hash"] != ref["weights_hash"]
    other_seed = train_and_predict(task, epochs=1, seed=1)
    assert other_seed["weights_hash"] != ref["weights_hash"]
    native = train_and_predict(task, epochs=1, knobs=Knobs(mkldnn=False))
    assert native["weights_hash"] != ref["weights_hash"]
    deterministic = train_and_predict(task, epochs=1, knobs=Knobs(deterministic=True))
    assert deterministic["weights_hash"] == ref["weights_hash"]


def test_bad_training_arguments(task):
    with pytest.raises(ValueError, match="technique"):
        train_and_predict(task, "magic")
    with pytest.raises(ValueError):
        train_and_predict(task, epochs=0)
    with pytest.raises(ValueError):
        load_task("cifar")
    with pytest.raises(ValueError):
        tabular_task("german")


def test_run_spec_is_picklable_and_calls_the_loop():
    import pickle

    spec = RunSpec("digits_s", "base", epochs=1)
    clone = pickle.loads(pickle.dumps(spec))
    assert clone == spec
    assert clone(seed=0, run=0, knobs=None)["y_pred"].shape == (900,)


@pytest.mark.skipif(
    verify(["adult_train"]).get("adult_train") is not True,
    reason="Adult not in the data cache (tests never download)",
)
def test_adult_task():
    t = tabular_task("adult")
    assert t.group_names == ("Male", "Female")
    assert len(t.y_train) + len(t.y_test) == 30162
    assert abs(t.x_train.mean(axis=0)).max() < 1e-4
    assert t.g_test.mean() == pytest.approx(t.g_train.mean(), abs=0.01)


@pytest.mark.skipif(
    verify(["compas"]).get("compas") is not True,
    reason="COMPAS not in the data cache (tests never download)",
)
def test_compas_task():
    t = tabular_task("compas")
    assert len(t.y_train) + len(t.y_test) == 3175 + 2103
    assert t.x_train.shape[1] == 7
