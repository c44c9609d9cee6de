"""Shared fixtures of the Python package's tests (run by scripts/test, which installs the
package into a temporary venv and sets BLOCKDYN_BIN to the CLI built beside it)."""

import csv
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]
MODELS = REPO / "models"


@pytest.fixture(scope="session")
def blockdyn_bin() -> Path:
    """The CLI binary: $BLOCKDYN_BIN, else target/release/blockdyn."""
    path = Path(os.environ.get("BLOCKDYN_BIN", REPO / "target" / "release" / "blockdyn"))
    if not path.is_file():
        pytest.skip(
            f"no blockdyn CLI at {path}: run `cargo build --release` or set BLOCKDYN_BIN "
            "(scripts/test does)"
        )
    return path


def run_cli(blockdyn_bin: Path, *args, cwd: Path) -> subprocess.CompletedProcess:
    """Runs the CLI in `cwd` (a temporary directory: a model's [output] files land there)."""
    return subprocess.run(
        [str(blockdyn_bin), *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def read_csv(path: Path):
    """(header, rows × columns array) of a CSV the CLI wrote."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in row] for row in rows[1:]])
