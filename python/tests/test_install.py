"""The installed wheel is self-contained (run by scripts/test_wheel with GEOLOC_TEST_INSTALLED=1,
in a fresh virtual environment where the wheel is the only geoloc): the package, libgeoloc.so,
GEOS and the gazetteer all come from the installed package, none from the build tree or the
system."""
import os
import subprocess
import sys

import pytest

import geoloc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTALLED = os.environ.get("GEOLOC_TEST_INSTALLED") == "1"
pytestmark = pytest.mark.skipif(not INSTALLED, reason="tests the installed wheel (scripts/test_wheel)")

PACKAGE_DIR = os.path.dirname(os.path.abspath(geoloc.__file__))


def _mapped_files():
    with open("/proc/self/maps", encoding="utf-8") as maps:
        return {line.split(None, 5)[5].strip() for line in maps if len(line.split(None, 5)) == 6}


def test_package_and_library_come_from_the_environment():
    assert not PACKAGE_DIR.startswith(ROOT), PACKAGE_DIR
    assert PACKAGE_DIR.startswith(sys.prefix), (PACKAGE_DIR, sys.prefix)
    assert "GEOLOC_LIBRARY" not in os.environ
    assert os.path.realpath(geoloc.library_path) == os.path.join(PACKAGE_DIR, "libgeoloc.so")


def test_geos_in_use_is_the_wheels_copy():
    geoloc.Places.from_records([(38.3, -88.9, "a")]).close()  # GEOS is in use
    geos = sorted(f for f in _mapped_files() if "libgeos" in os.path.basename(f))
    libs = os.path.join(os.path.dirname(PACKAGE_DIR), "geoloc.libs")
    assert geos, "no GEOS mapped"
    assert all(f.startswith(libs + os.sep) for f in geos), geos


def test_ldd_resolves_geos_inside_the_wheel():
    out = subprocess.run(["ldd", os.path.join(PACKAGE_DIR, "libgeoloc.so")],
                         check=True, capture_output=True, text=True).stdout
    geos = [line for line in out.splitlines() if "libgeos" in line]
    assert geos and all("geoloc.libs/" in line for line in geos), out
    assert "not found" not in out, out


def test_version_is_the_librarys():
    assert geoloc.__version__ == geoloc.library_version()


def test_shipped_gazetteer_is_inside_the_package():
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "cities1000.tsv"))
    g = geoloc.Gazetteer.open()
    try:
        assert len(g.places) > 100000
    finally:
        g.close()
