"""Executes every notebook in this directory headless (nbclient), failing
on the first error: CI runs it so that the tutorials never rot.

    python docs/notebooks/run.py
"""

import pathlib
import sys

import nbformat
from nbclient import NotebookClient

here = pathlib.Path(__file__).resolve().parent
notebooks = sorted(here.glob("*.ipynb"))
if not notebooks:
    sys.exit("no notebook found")
for path in notebooks:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3").execute(cwd=str(here))
    print(f"{path.name}: {len(nb.cells)} cells executed")
