"""Tests of fairbook.audit.files: reading tables of predictions and writing the report page."""

import gzip

import pandas as pd
import pytest

from fairbook.audit.files import PARQUET_SUFFIXES, read_predictions, write_text


def test_csv_tsv_gzip_and_parquet_read_alike(tmp_path):
    frame = pd.DataFrame({"y_true": [1, 0], "y_pred": [1, 1], "group": ["NA", "None"]})
    frame.to_csv(tmp_path / "a.csv", index=False)
    frame.to_csv(tmp_path / "a.tsv", index=False, sep="\t")
    with gzip.open(tmp_path / "a.csv.gz", "wt") as handle:
        frame.to_csv(handle, index=False)
    frame.to_parquet(tmp_path / "a.PQ")
    for name in ("a.csv", "a.tsv", "a.csv.gz", "a.PQ"):
        got = read_predictions(tmp_path / name)
        assert got["group"].tolist() == ["NA", "None"], name  # groups, not missing values
    assert ".parquet" in PARQUET_SUFFIXES


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "is empty"), (b"a,b\n", "has no rows"), (b"a\n\xff\xfe\n", "not UTF-8")],
)
def test_unreadable_files(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        read_predictions(path)


def test_write_text_refuses_folders_and_missing_folders(tmp_path):
    assert write_text("x", tmp_path / "r.html").read_text() == "x"
    with pytest.raises(ValueError, match="is a folder"):
        write_text("x", tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        write_text("x", tmp_path / "no" / "r.html")
