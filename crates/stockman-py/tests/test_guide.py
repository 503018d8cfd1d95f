"""Runs every ``python`` block of the guide's Python page, in order, so that
the page cannot drift from what the package does."""

import pathlib
import re

import pytest

PAGE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "guide" / "python.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)


def test_the_page_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_block_runs(index, capsys):
    exec(compile(BLOCKS[index], f"{PAGE}:block {index + 1}", "exec"), {"__name__": "guide"})
