"""Tests of fairbook.audit.text: 100 columns, every NaN explained, labels made harmless."""

import pytest

from fairbook.audit import audit, printable


def test_every_line_fits_100_columns(full_report):
    text = full_report.to_text()
    too_long = [line for line in text.splitlines() if len(line) > 100]
    assert not too_long, too_long[:3]
    for heading in (
        "SUMMARY",
        "GROUPS",
        "AGAINST THE REFERENCE",
        "SEED 004'S SEVEN METRICS",
        "UNCERTAINTY",
        "STABILITY OVER 3 RUNS",
        "SCORE 'score'",
        "NOTES",
    ):
        assert heading in text, heading
    assert text.index("SUMMARY") < text.index("GROUPS")  # the summary comes first


def test_narrower_width_is_respected(full_report):
    assert max(len(line) for line in full_report.to_text(width=80).splitlines()) <= 80


def test_nan_is_explained():
    report = audit([1, 1, 0, 0, 1], [1, 1, 0, 0, 0], ["a", "a", "b", "b", "b"])
    text = report.to_text()
    assert "NaN" in text
    assert "NaN = undefined, never 0" in text
    assert "FPR: FPR undefined for the group (FP + TN = 0 (no actual negatives))" in text


def test_small_groups_show_reasons_and_cps(full_report):
    text = full_report.to_text()
    assert "race = 'Asian' (n = 11)" in text
    assert "sampling spread: with 11 people a gap of 0.05" in text
    assert "CPS" in text


def test_control_characters_and_long_labels():
    label = "evil\x1b[2J" + "x" * 60
    report = audit([1, 0, 1, 0], [1, 1, 0, 0], [label, label, "b", "b"])
    text = report.to_text()
    assert "\x1b" not in text and "\\x1b" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "…" in text


@pytest.mark.parametrize(
    ("value", "shown"), [("a\tb", "a\\tb"), ("Zoë", "Zoë"), (3, "3"), ("\u202e", "\\u202e")]
)
def test_printable(value, shown):
    assert printable(value) == shown


# ------------------------------------------------------------------ the direction of a decision
DIRECTIONS = {
    "punitive": "Positive label: 1. A positive prediction (label 1) harms the person: false "
    "positives are the errors that matter most.",
    "assistive": "Positive label: 1. A positive prediction (label 1) helps the person: false "
    "negatives are the errors that matter most.",
    None: "Positive label: 1. Direction not given: the audit was not told whether a positive "
    "prediction (label 1) helps or harms the person, and that decides which errors matter most "
    "(false negatives if it helps, false positives if it harms).",
}
ORDERS = {  # the default metrics, as each direction ranks them
    "punitive": ["FPR", "PPV", "PPR", "B", "TPR", "NPV", "ACC"],
    "assistive": ["TPR", "NPV", "PPR", "B", "FPR", "PPV", "ACC"],
    None: ["ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV"],
}


def _header(text: str) -> str:
    return " ".join(line.strip() for line in text.split("\n\n")[0].splitlines())


def _block(text: str, title: str) -> str:
    return next(b for b in text.split("\n\n") if b.startswith(title))


@pytest.mark.parametrize("decision", ["punitive", "assistive", None])
def test_header_says_the_direction_in_plain_words(table, decision):
    report = audit(table, groups="race", decision=decision)
    text = report.to_text()
    assert DIRECTIONS[decision] in _header(text)
    assert "beneficial" not in text
    assert report.settings["decision"] == decision


@pytest.mark.parametrize("decision", ["punitive", "assistive", None])
def test_metrics_are_ordered_and_explained_by_the_direction(table, decision):
    from fairbook.audit.decision_direction import MEANINGS

    report = audit(table, groups="race", decision=decision)
    text = report.to_text()
    block = _block(text, "WHAT THE METRICS MEASURE")
    listed = [
        line.split()[0]
        for line in block.splitlines()
        if line.startswith("  ") and line.split()[0] in MEANINGS
    ]
    assert listed == ORDERS[decision]
    flat = " ".join(line.strip() for line in block.splitlines())
    for metric in ORDERS[decision]:
        assert f"When to care: {MEANINGS[metric].care(decision)}." in flat
    against = _block(text, "AGAINST THE REFERENCE - 'race'")
    metrics = [line.split()[1] for line in against.splitlines()[3:]]
    assert list(dict.fromkeys(metrics)) == ORDERS[decision]  # rows follow the same order
    assert text.index("SUMMARY") < text.index("WHAT THE METRICS") < text.index("GROUPS")


def test_favourable_label_says_so_and_orders_as_decision(table):
    text = audit(table, groups="race", favourable=0).to_text()
    assert (
        "A positive prediction (label 1) harms the person (favourable label 0, as given): false "
        "positives are the errors that matter most." in _header(text)
    )
    assert text == audit(table, groups="race", favourable=0, decision="punitive").to_text()
    same = audit(table, groups="race", favourable=1).to_text()
    assert "helps the person (favourable label 1, as given)" in _header(same)


def test_survivors_follow_the_direction(table):
    from fairbook.audit.text import metric_order

    for decision in ORDERS:
        report = audit(table, groups=["race", "sex"], decision=decision)
        survivors = _block(report.to_text(), "SUMMARY")
        rank = {m: i for i, m in enumerate(metric_order(report))}
        seen = [
            (line.split(" = ")[0].split()[-1], line.split(": ")[1].split()[0])
            for line in survivors.splitlines()
            if line.startswith("    - ") and " vs " in line
        ]
        assert seen, survivors
        keys = [({"race": 0, "sex": 1}[a], rank[m]) for a, m in seen]
        assert keys == sorted(keys)
