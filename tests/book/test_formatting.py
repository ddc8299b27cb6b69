"""Tests of :mod:`fairbook_book.formatting`: noise prints as 0, p-values are left alone, numpy
scalars print as numbers, and the IPython formatters use the same rules."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairbook_book import formatting


def test_noise_below_the_column_scale_becomes_zero_and_nothing_else_moves():
    t = pd.DataFrame({"gap": [0.5, 1.1102e-16, -5.5511e-17, 0.002], "n": [1, 2, 3, 4]})
    out = formatting.clean(t)
    assert out["gap"].tolist() == [0.5, 0.0, 0.0, 0.002]
    assert out["n"].tolist() == [1, 2, 3, 4] and t["gap"][1] == 1.1102e-16  # input unchanged
    assert "e-" not in repr(out) and "e-" not in out._repr_html_()


def test_a_column_of_large_values_scales_its_noise_threshold():
    t = pd.DataFrame({"x": [1e6, 1e-7, 3.0]})
    assert formatting.clean(t)["x"].tolist() == [1e6, 0.0, 3.0]
    small = pd.DataFrame({"x": [1e-6, 2e-6]})
    pd.testing.assert_frame_equal(formatting.clean(small), small)


def test_p_value_columns_keep_their_tiny_values():
    t = pd.DataFrame({"p": [1e-20, 0.3], "Holm p": [1e-15, 1.0], "PPV": [1e-15, 0.5]})
    out = formatting.clean(t)
    assert out["p"][0] == 1e-20 and out["Holm p"][0] == 1e-15 and out["PPV"][0] == 0.0


def test_nan_and_infinities_are_kept():
    t = pd.Series([np.nan, np.inf, 1e-17, 0.5], name="x")
    out = formatting.clean(t)
    assert np.isnan(out[0]) and out[1] == np.inf and out[2] == 0.0


@given(st.lists(st.floats(-1e9, 1e9, allow_nan=False), min_size=1, max_size=30))
def test_clean_zeroes_only_values_below_the_threshold(values):
    out = formatting.clean(pd.Series(values, dtype=float)).to_numpy()
    scale = max(1.0, max(abs(v) for v in values))
    for before, after in zip(values, out, strict=True):
        if abs(before) < formatting.NOISE * scale:
            assert after == 0.0
        else:
            assert after == before


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (-0.15000000000000002, "-0.15"),
        (np.float64(0.5), "0.5"),
        (np.float32(0.25), "0.25"),
        (np.int64(7), "7"),
        (np.bool_(True), "True"),
        (3.553e-15, "0.0"),
        (1 / 3, "0.333333333333"),
        (1.5e20, "1.5e+20"),
    ],
)
def test_plain_numbers(value, text):
    assert formatting.plain(value) == text


def test_the_ipython_formatters_apply_the_rules():
    IPython = pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert formatting.register_number_format(shell)
    fmt = shell.display_formatter
    data, _ = fmt.format((np.float64(0.5), -0.15000000000000002, {"a": np.int64(3)}))
    assert data["text/plain"] == "(0.5, -0.15, {'a': 3})"
    data, _ = fmt.format(pd.DataFrame({"gap": [0.5, 2.7756e-17]}))
    assert "e-17" not in data["text/plain"] and "e-17" not in data["text/html"]
    assert IPython is not None


def test_install_outside_ipython_does_nothing():
    import subprocess
    import sys

    code = "from fairbook_book import formatting; print(formatting.register_number_format())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---- fixed-point tables (issue 33: no scientific notation outside p-value columns) ----------


def _read_back(text: str) -> float:
    """A number as :func:`formatting.fixed` prints it, read back (``1.2 × 10⁻⁵`` too)."""
    if "×" in text:
        mantissa, power = text.split(" × 10")
        digits = power.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789"))
        return float(mantissa) * 10.0 ** int(digits)
    return float(text)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12))
def test_fixed_is_never_scientific_has_at_most_four_decimals_and_reads_back_close(value):
    text = formatting.fixed(value, precision=6)
    assert "e" not in text.lower()
    back = _read_back(text)
    if "×" in text:  # two significant digits
        assert abs(value) < 1e-3 and back == pytest.approx(value, rel=0.06)
        return
    decimals = len(text.split(".")[1]) if "." in text else 0
    assert decimals <= formatting.MAX_DECIMALS
    # within half a unit of the last printed digit
    assert abs(back - value) <= 0.5 * 10.0**-decimals * (1 + 1e-9) + abs(value) * 1e-15


@given(st.floats(min_value=1e-14, max_value=4e-4))
def test_fixed_never_shows_a_small_value_as_zero(value):
    text = formatting.fixed(value, precision=3)
    back = _read_back(text)
    assert back > 0 and back == pytest.approx(value, rel=0.06)


def test_fixed_point_prints_counts_as_integers_p_values_by_their_rule_and_the_rest_fixed():
    table = pd.DataFrame(
        {
            "gap": [5e-5, 99.99],
            "Holm p": [1e-20, 0.5],
            "n": [3, 4],
            "count": [5.0, np.nan],
            ("mw", "p"): [1e-9, 0.2],
        }
    )
    shown = formatting.fixed_point(table)
    assert shown["gap"].tolist() == ["5.0 × 10⁻⁵", "99.9900"]
    assert shown["Holm p"].tolist() == ["< 1e-10", "0.500"]
    assert shown["n"].tolist() == [3, 4]
    assert shown["count"].tolist() == ["5", "NaN"]
    assert shown[("mw", "p")].tolist() == ["1.0e-09", "0.200"]
    assert table["gap"].dtype.kind == "f"  # the caller's table is not changed
    html = shown.to_html()
    assert "e-05" not in html and "5.000000e-05" not in html


@given(st.floats(min_value=0, max_value=1))
def test_p_value_text_has_at_most_four_decimals_and_reads_back_close(p):
    text = formatting.p_value_text(p)
    if p < formatting.P_FLOOR:
        assert text == "< 1e-10"
        return
    assert float(text) == pytest.approx(p, rel=0.06, abs=5e-4)
    if "e" not in text:
        assert len(text.split(".")[1]) <= formatting.MAX_DECIMALS


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15))
def test_significant_is_never_scientific_and_keeps_four_digits(value):
    text = formatting.significant(value, digits=4)
    assert "e" not in text.lower()
    if abs(value) >= formatting.NOISE:
        assert float(text) == pytest.approx(value, rel=5e-4)
    else:
        assert text == "0"


def test_a_replication_tables_counts_print_as_counts():
    from fairbook_book.formatting import clean, fixed_point
    from fairbook_book.replication import Row, replication_table

    rows = [Row("holes", 19, 300), Row("rate", 0.23, 0.0604), Row("tiny", 2e-6, 1e-6)]
    html = fixed_point(clean(replication_table(rows)))._repr_html_()
    assert "<td>300</td>" in html and "<td>19</td>" in html and "<td>281</td>" in html
    assert "300.0000" not in html and "<td>0.0604</td>" in html and "<td>0.2300</td>" in html
    assert "<td>2.0 × 10⁻⁶</td>" in html  # never five or more decimals
    plain = pd.DataFrame({"paper": [19.0, 0.23]})  # not a replication table: one format
    assert fixed_point(plain)["paper"].tolist() == ["19.0000", "0.2300"]
