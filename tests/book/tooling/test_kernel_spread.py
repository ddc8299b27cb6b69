"""Tests of :mod:`fairbook_book.tooling.kernel_spread`: merging ``verify --json`` runs."""

from fairbook_book.tooling.kernel_spread import VARIANTS, merge


def test_merge_keeps_the_largest_deviation_and_every_flip():
    a = [{"check": "c", "max_abs": 1e-4, "max_rel": 1e-3, "flips": [], "here": {"aten": "AVX2"}}]
    b = [
        {
            "check": "c",
            "max_abs": 3e-4,
            "max_rel": 1e-5,
            "flips": ["x: + recorded, - here"],
            "here": {"aten": "AVX512"},
        }
    ]
    merged = merge({"capped": a, "native": b})
    entry = merged["checks"]["c"]
    assert (entry["max_abs"], entry["max_rel"]) == (3e-4, 1e-3)
    assert entry["flips"] == ["native: x: + recorded, - here"]
    assert merged["signatures"] == {"capped": {"aten": "AVX2"}, "native": {"aten": "AVX512"}}


def test_a_check_that_could_not_run_keeps_its_status():
    merged = merge({"capped": [{"check": "c", "max_abs": None, "status": "fails: stale"}]})
    assert merged["checks"]["c"]["per_variant"]["capped"] == {"status": "fails: stale"}
    assert merged["checks"]["c"]["max_abs"] == 0.0


def test_the_native_variant_opts_out_of_the_cap():
    assert {"FAIRBOOK_NATIVE_ISA": "1"} in VARIANTS.values() and {} in VARIANTS.values()
