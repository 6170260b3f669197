"""Shared test setup: where the repository and its golden cases are.

The tests need a built libgeoloc; point GEOLOC_LIBRARY at it, e.g.
    GEOLOC_LIBRARY=build/libgeoloc.so python3 -m pytest python/tests -q
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
import pytest


def _find_repo_root() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "include" / "geoloc.h").is_file():
            return parent
    raise RuntimeError("no libgeoloc source tree (include/geoloc.h) above %s" % here)


REPO_ROOT = _find_repo_root()
GOLDEN_DIR = REPO_ROOT / "tests" / "golden"
HEADER = REPO_ROOT / "include" / "geoloc.h"
PYPROJECT = REPO_ROOT / "python" / "pyproject.toml"

# Test this tree's package, not whatever copy may be installed; unless GEOLOC_TEST_INSTALLED=1
# (scripts/test_wheel), which tests the wheel installed in a fresh virtual environment.
INSTALLED = os.environ.get("GEOLOC_TEST_INSTALLED") == "1"
if not INSTALLED:
    sys.path.insert(0, str(REPO_ROOT / "python"))


def pytest_configure(config: pytest.Config) -> None:
    # For test modules that need the paths at collection time (pytest_generate_tests), without
    # importing this file as a module.
    config.geoloc_repo_root = REPO_ROOT  # type: ignore[attr-defined]
    config.geoloc_golden_dir = GOLDEN_DIR  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def golden_dir() -> Path:
    return GOLDEN_DIR


@pytest.fixture(scope="session")
def header_text() -> str:
    return HEADER.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def pyproject_text() -> str:
    return PYPROJECT.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def gazetteer():
    """The shipped gazetteer, opened once for the place and geocoding tests."""
    import geoloc  # after sys.path names this tree's package

    g = geoloc.Gazetteer.open()
    yield g
    g.close()
