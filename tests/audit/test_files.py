"""Tests of fairbook.audit.files: reading tables of predictions and writing the report page."""

import bz2
import gzip
import lzma
import os
import subprocess
import sys
import threading

import pandas as pd
import pytest

from fairbook.audit.columns import DUPLICATES_ATTR
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


# ------------------------------------------------------------------ issue 37
CSV = b"y_true,y_pred,group\n" + b"".join(
    b"%d,%d,%s\n" % (i % 2, i // 2 % 2, b"ab"[i % 3 % 2 : i % 3 % 2 + 1]) for i in range(400)
)


@pytest.mark.parametrize("module", [gzip, bz2, lzma], ids=["gz", "bz2", "xz"])
def test_truncated_compressed_files_are_one_line(tmp_path, module):
    suffix = {gzip: "gz", bz2: "bz2", lzma: "xz"}[module]
    data = module.compress(CSV)
    path = tmp_path / f"t.csv.{suffix}"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated or damaged"):
        read_predictions(path)


def test_a_fifo_is_read(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    writer = threading.Thread(target=path.write_bytes, args=(gzip.compress(CSV),))
    writer.start()
    frame = read_predictions(path)
    writer.join()
    assert len(frame) == 400 and list(frame.columns) == ["y_true", "y_pred", "group"]


def test_standard_input_is_read():
    code = "from fairbook.audit import read_predictions; print(len(read_predictions('/dev/stdin')))"
    done = subprocess.run(
        [sys.executable, "-c", code], input=CSV, capture_output=True, check=True, timeout=60
    )
    assert done.stdout.strip() == b"400"


def test_a_binary_device_is_refused():
    with pytest.raises(ValueError, match="NUL bytes"):
        read_predictions("/dev/zero")


def test_repeated_header_names_are_recorded(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("y_true,y_pred,group,y_pred\n1,1,a,0\n")
    frame = read_predictions(path)
    assert frame.attrs[DUPLICATES_ATTR] == {"y_pred": 2}
    assert "y_pred.1" in frame.columns


def test_write_stdout_to_a_reader_that_stops_early():
    code = (
        "from fairbook.audit.files import write_stdout\n"
        "write_stdout('\\n'.join(str(i) for i in range(200_000)))\n"
    )
    done = subprocess.run(
        f'{sys.executable} -c "{code}" | head -1',
        shell=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.stdout == b"0\n"
    assert b"Error" not in done.stderr and b"Traceback" not in done.stderr
