"""Conditional HydraGAN on a toy mixture where the conditional and the target are exact."""

import numpy as np
import pandas as pd
import pytest
import torch

from fairbook.generative.hydragan import ConditionalHydraGAN, allocate

torch.set_num_threads(1)


def toy(n=1200, seed=0):
    """who a (80 %) / b (20 %); act depends on who; v ≈ −2 for a, +2 for b."""
    rng = np.random.default_rng(seed)
    who = rng.choice(["a", "b"], n, p=[0.8, 0.2])
    act = np.where(
        who == "a",
        rng.choice(["x", "y", "z"], n, p=[0.7, 0.2, 0.1]),
        rng.choice(["x", "y", "z"], n, p=[0.1, 0.2, 0.7]),
    )
    v = np.where(who == "a", -2.0, 2.0) + 0.5 * rng.normal(size=n)
    return pd.DataFrame({"who": who, "act": act, "v": v})


def model(**kwargs):
    opts = {
        "continuous": ["v"],
        "categorical": ["act"],
        "epochs": 100,
        "batch_size": 100,
        "hidden": (32, 32),
        "lr": 2e-3,
        "noise_dim": 8,
        "progress": False,
        "seed": 0,
    }
    opts.update(kwargs)
    return ConditionalHydraGAN(**opts)


@pytest.fixture(scope="module")
def fitted():
    return model(diversity_weight=200.0).fit(
        toy(), conditions=["who"], diversity_column="act", target={"x": 0.2, "y": 0.3, "z": 0.5}
    )


def test_allocate_is_exact():
    assert allocate(7, [0.5, 0.5]).tolist() == [4, 3]
    for n in range(0, 40):
        counts = allocate(n, [0.2, 0.3, 0.5])
        assert counts.sum() == n
        assert (np.abs(counts - n * np.array([0.2, 0.3, 0.5])) < 1).all()
    with pytest.raises(ValueError):
        allocate(3, [0.5, 0.6])


def test_conditions_hold_exactly(fitted):
    assert fitted.sample(1000)["who"].value_counts().to_dict() == {"a": 500, "b": 500}
    got = fitted.sample(1000, conditions={"a": 0.3, "b": 0.7})["who"].value_counts()
    assert got.to_dict() == {"a": 300, "b": 700}
    emp = fitted.sample(1000, conditions="empirical")["who"].value_counts(normalize=True)
    assert emp["a"] == pytest.approx(fitted.condition_empirical_[0], abs=1e-3)
    rows = pd.DataFrame({"who": ["b", "a", "b"]})
    assert fitted.sample(3, conditions=rows)["who"].tolist() == ["b", "a", "b"]


def test_diversity_target_is_met(fitted):
    x, _ = fitted.sample_encoded(4000, seed=3)
    generated = fitted.generated_proportions(x)
    assert np.abs(generated.to_numpy() - [0.2, 0.3, 0.5]).max() < 0.04
    assert "diversity_mse" in fitted.history_


def test_without_diversity_the_proportions_follow_the_data():
    gan = model(diversity_weight=0.0).fit(
        toy(), conditions=["who"], diversity_column="act", target={"x": 0.2, "y": 0.3, "z": 0.5}
    )
    x, _ = gan.sample_encoded(4000, seed=3)
    # under uniform conditions the data's mixture is ½(0.7, 0.2, 0.1) + ½(0.1, 0.2, 0.7)
    assert np.abs(gan.generated_proportions(x).to_numpy() - [0.4, 0.2, 0.4]).max() < 0.12
    assert "diversity_mse" not in gan.history_


def test_the_conditional_is_learned(fitted):
    s = fitted.sample(2000, output="argmax")
    means = s.groupby("who")["v"].mean()
    assert means["a"] < -0.5 < 0.5 < means["b"]


def test_same_seed_same_numbers():
    df = toy(400)
    a = model(epochs=3).fit(df, conditions="who", diversity_column="act").sample(50)
    b = model(epochs=3).fit(df, conditions="who", diversity_column="act").sample(50)
    pd.testing.assert_frame_equal(a, b)
    c = model(epochs=3, seed=1).fit(df, conditions="who", diversity_column="act").sample(50)
    assert not np.allclose(a["v"], c["v"])


def test_outputs_and_two_condition_columns():
    df = toy(400).assign(g=lambda d: np.where(d.v > 0, "hi", "lo"))
    gan = model(epochs=2).fit(df, conditions=["who", "g"])
    s = gan.sample(40, output="probabilities")
    assert {"who", "g", "v", "act=x", "act=y", "act=z"} <= set(s.columns)
    assert np.allclose(s[["act=x", "act=y", "act=z"]].sum(axis=1), 1, atol=1e-5)
    combos = s.groupby(["who", "g"]).size()
    assert combos.max() - combos.min() <= 1
    with pytest.raises(ValueError, match="without a diversity_column"):
        gan.generated_proportions(np.zeros((2, 4)))


@pytest.mark.parametrize(
    "fit_kwargs, message",
    [
        ({"conditions": ["act"]}, "both data and condition"),
        ({"conditions": []}, "at least one condition"),
        ({"conditions": ["nope"]}, "not in the data"),
        ({"conditions": ["who"], "diversity_column": "v"}, "must be categorical"),
        ({"conditions": ["who"], "diversity_column": "zz"}, "unknown column"),
        ({"conditions": ["who"], "diversity_column": "act", "target": [0.5, 0.5]}, "3 entries"),
        ({"conditions": ["who"], "diversity_column": "act", "target": [0.5, 0.5, 0.5]}, "sum to 1"),
        ({"conditions": ["who"], "diversity_column": "act", "target": {"w": 1.0}}, "unknown categ"),
        ({"conditions": ["who"], "diversity_column": "act", "target": "flat"}, "'uniform'"),
        ({"conditions": ["who"], "condition_target": {"c": 1.0}}, "unknown categ"),
    ],
)
def test_bad_specs_raise(fit_kwargs, message):
    with pytest.raises(ValueError, match=message):
        model(epochs=1).fit(toy(100), **fit_kwargs)


def test_bad_options_and_sampling():
    with pytest.raises(ValueError, match="epochs"):
        ConditionalHydraGAN(continuous=["v"], epochs=0)
    with pytest.raises(ValueError, match="diversity_weight"):
        ConditionalHydraGAN(continuous=["v"], diversity_weight=-1)
    with pytest.raises(ValueError, match="not fitted"):
        model().sample(3)
    gan = model(epochs=1).fit(toy(100), conditions="who")
    with pytest.raises(ValueError, match="positive integer"):
        gan.sample(0)
    with pytest.raises(ValueError, match="output"):
        gan.sample(3, output="onehot")
    with pytest.raises(ValueError, match="rows"):
        gan.sample(3, conditions=pd.DataFrame({"who": ["a"]}))


def test_unconditioned_critic_still_gives_exact_conditions():
    gan = model(epochs=2, critic_conditioned=False).fit(toy(300), conditions="who")
    assert gan.critic_.cond_dim == 0
    assert gan.sample(10)["who"].value_counts().to_dict() == {"a": 5, "b": 5}
