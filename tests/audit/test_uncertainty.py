"""Tests of fairbook.audit.uncertainty against the package's decomposition and seed 000's
ratio measures, by hand and across block boundaries."""

import numpy as np
import pytest

from fairbook.audit import uncertainty as unc
from fairbook.audit.groups import encode_attribute
from fairbook.uncertainty import decompose, uncertainty_ratios


def test_person_uncertainty_by_hand_and_across_blocks(monkeypatch):
    assert unc.person_uncertainty(np.array([[0.25], [0.75]])).ravel().tolist() == [
        0.125,
        0.375,
        0.5,
    ]
    rng = np.random.default_rng(0)
    samples = rng.random((5, 1000))
    monkeypatch.setattr(unc, "_BLOCK", 97)  # blocks that do not divide the rows
    got = unc.person_uncertainty(samples)
    expected = decompose(np.stack([1 - samples, samples], axis=2))
    np.testing.assert_allclose(got, np.stack(expected))


def test_group_means_and_ratios_equal_uncertainty_ratios():
    rng = np.random.default_rng(1)
    n = 300
    groups = rng.choice(["a", "b", "c"], n)
    samples = np.clip(rng.normal(np.where(groups == "a", 0.7, 0.4), 0.15, (8, n)), 0, 1)
    attribute = encode_attribute(groups, name="g")
    reference = int(np.flatnonzero(attribute.labels == "b")[0])
    table = unc.uncertainty_table(unc.person_uncertainty(samples), attribute, reference=reference)
    probs = np.stack([1 - samples, samples], axis=2)
    for protected in ("a", "c"):
        expected = uncertainty_ratios(probs, groups, protected=protected, reference="b")
        row = table.set_index("group").loc[protected]
        for mean, ratio in unc.MEASURES:
            assert row[mean] == pytest.approx(expected[mean][0])
            assert row[ratio] == pytest.approx(expected[ratio])
            flag = "unfair" if abs(expected[ratio] - 1) > 0.2 else "fair"
            assert row[f"{ratio}_flag"] == flag
    e, _, _ = decompose(probs)
    members = e[groups == "a"]
    assert table.set_index("group").loc["a", "U_e_se"] == pytest.approx(
        members.std(ddof=1) / np.sqrt(members.size)
    )


def test_reference_without_uncertainty_gives_undefined_ratios():
    samples = np.array([[1.0, 0.5, 0.0], [1.0, 0.6, 0.0]])
    attribute = encode_attribute(["ref", "x", "ref"], name="g")
    table = unc.uncertainty_table(unc.person_uncertainty(samples), attribute, reference=0)
    assert np.isnan(table.loc[1, "F_Alea"]) and table.loc[1, "F_Alea_flag"] == "undefined"
    assert np.isnan(table.loc[1, "U_e_se"])  # one member: no standard error
