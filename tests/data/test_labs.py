"""Tests of fairbook.data.labs, and of the course plan's week-1 lab, run as printed."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from fairbook.data.labs import LAB_TABLES, compas_lab_table, write_lab_table

ROOT = Path(__file__).resolve().parents[2]


def _raw():
    return pd.DataFrame(
        {
            "two_year_recid": [1, 0, 1, 0],
            "decile_score": [5, 4, 10, 1],
            "race": ["A", "B", "A", "B"],
            "sex": ["Male", "Female", "Male", "Male"],
            "days_b_screening_arrest": [0, 0, 31, -30],
            "is_recid": [1, 0, 1, 0],
            "c_charge_degree": ["F", "M", "F", "M"],
            "score_text": ["Medium", "Low", "High", "Low"],
        }
    )


def test_the_table_keeps_the_chapters_rows_and_orientation():
    table = compas_lab_table(_raw())
    # row 3 (31 days from arrest) is dropped by the filter; threshold 5 is medium risk
    assert table.to_dict("list") == {
        "y_true": [1, 0, 0],
        "y_pred": [1, 0, 0],
        "race": ["A", "B", "B"],
        "sex": ["Male", "Female", "Male"],
        "decile_score": [5, 4, 1],
    }


def test_an_unknown_table_is_refused():
    with pytest.raises(ValueError, match="unknown lab table 'x'; choose one of compas-lab"):
        write_lab_table("x", "out.csv")
    assert sorted(LAB_TABLES) == ["compas-lab"]


def _lab_commands() -> list[str]:
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    section = plan.split("## Week-1 lab", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_the_week_1_lab_is_two_commands():
    commands = _lab_commands()
    assert [c.split()[:3] for c in commands] == [
        ["fairbook", "data", "export"],
        ["fairbook", "audit", "compas_lab.csv"],
    ]
    assert "--decision punitive" in commands[1] and "--reference race=Caucasian" in commands[1]


@pytest.mark.real_data("compas")
def test_the_week_1_lab_runs_as_printed(tmp_path):
    fairbook = str(Path(sys.executable).parent / "fairbook")
    outputs = []
    for command in _lab_commands():
        argv = shlex.split(command)
        assert argv[0] == "fairbook"
        done = subprocess.run(
            [fairbook, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, (command, done.stderr[-500:])
        outputs.append(done.stdout)
    table = pd.read_csv(tmp_path / "compas_lab.csv")
    assert len(table) == 6172  # the chapters' rows, not the file's 7,214
    assert table["race"].value_counts()["Caucasian"] == 2103
    report = outputs[1]
    assert "6,172 rows" in report and "Caucasian" in report
    assert "beneficial" not in report and "harms" in report
