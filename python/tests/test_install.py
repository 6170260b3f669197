"""`pip install ./python` works: the package installs into a fresh virtual environment and loads
the built library from there."""
import os
import shutil
import subprocess
import venv

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_pip_install_into_venv(tmp_path):
    env_dir = tmp_path / "venv"
    try:
        venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    except Exception as err:  # a Python built without ensurepip cannot make one
        pytest.fail("cannot create a virtual environment: %s" % err)
    py = str(env_dir / "bin" / "python")
    # Install from a copy, so the build leaves nothing in the source tree.
    src = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "python"), src,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "libgeoloc.so*"))
    # numpy comes from the system site; pip fetches the build backend (setuptools) from PyPI.
    done = subprocess.run(
        [py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", str(src)],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    out = subprocess.run(
        [py, "-c", "import geoloc, os; print(geoloc.__file__); print(geoloc.weather_condition(63, 45.4))"],
        check=True, capture_output=True, text=True, cwd=str(tmp_path), env=os.environ.copy(),
    ).stdout.splitlines()
    assert out[0].startswith(str(env_dir)), out
    assert out[1] == "Rain, 45°F"
