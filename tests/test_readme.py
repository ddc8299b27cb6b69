"""The README is the front door (issue 33): short, the two commands, files that exist."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_120_lines():
    assert len(README.splitlines()) <= 120


def test_the_two_commands_open_the_readme_s_first_code_block():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert commands == ["make book", "make test"]


def test_every_path_the_readme_names_exists():
    named = set(re.findall(r"`((?:book|data|benchmarks|tests|src|notebooks)/[\w./-]+)`", README))
    named |= {n for n in re.findall(r"`([\w.-]+\.md)`", README)}
    assert named, "the README names no file"
    missing = sorted(n for n in named if not (ROOT / n).exists())
    assert not missing, missing


def test_the_readme_promises_no_launch_buttons():
    assert not re.search(r"launch button|binder|colab", README, re.I)


def test_the_jupyterlab_quick_start_is_a_make_target():
    section = README.split("## Quick start: rerun in JupyterLab", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    assert block.split("#")[0].strip() == "make lab"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^lab: ", makefile, re.M) and "fairbook_book.tooling.lab" in makefile
    assert "/lab/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
