"""Tests of fairbook.safe_csv: CSV cells a spreadsheet would run are neutralised."""

import pandas as pd
import pytest

from fairbook.safe_csv import FORMULA_STARTS, formula_safe, write_csv


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_every_formula_start_is_escaped_in_cells_index_and_header(tmp_path, start):
    frame = pd.DataFrame({f"{start}col": [f"{start}1+1"], "rate": [-0.5]}, index=[f"{start}g"])
    path = write_csv(frame, tmp_path / "out.csv")
    back = pd.read_csv(path, index_col=0, keep_default_na=False)
    assert back.index.tolist() == [f"'{start}g"]
    assert back.columns.tolist() == [f"'{start}col", "rate"]
    assert back.iloc[0, 0] == f"'{start}1+1"
    assert back["rate"].tolist() == [-0.5]  # numbers are not text: untouched


def test_plain_text_and_numbers_are_unchanged():
    frame = pd.DataFrame({"g": ["a", "b-c", "1"], "x": [1, -2, 3]})
    pd.testing.assert_frame_equal(formula_safe(frame), frame)


def test_clear_errors_for_bad_paths(tmp_path):
    with pytest.raises(ValueError, match="is a folder"):
        write_csv(pd.DataFrame({"a": [1]}), tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        write_csv(pd.DataFrame({"a": [1]}), tmp_path / "missing" / "out.csv")
