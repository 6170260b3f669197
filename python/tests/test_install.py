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
    # Not the source package (python/geoloc): the environment's own copy (scripts/test_wheel
    # makes that environment under the build folder).
    assert not PACKAGE_DIR.startswith(os.path.join(ROOT, "python") + os.sep), PACKAGE_DIR
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
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "cities1000.places"))
    g = geoloc.Gazetteer.open()
    try:
        assert len(g.places) > 100000
        # The saved place file beside the library, mapped (the wheel carries no TSV).
        assert os.path.join(PACKAGE_DIR, "cities1000.places") in _mapped_files()
    finally:
        g.close()


def test_licences_are_inside_the_package():
    licences = os.path.join(PACKAGE_DIR, "licenses")
    names = sorted(os.listdir(licences))
    assert names == ["LICENSE", "address-formatting-LICENSE.txt", "address-formatting-README.md",
                     "gazetteer-README.md"], names
    with open(os.path.join(licences, "gazetteer-README.md"), encoding="utf-8") as f:
        assert "CC BY 4.0" in f.read()


def test_the_sdist_carries_the_library_sources():
    """scripts/wheel built the wheel from the sdist; the sdist holds what that build needs."""
    sdist = os.environ.get("GEOLOC_TEST_SDIST")
    if not sdist:
        pytest.skip("GEOLOC_TEST_SDIST not set (scripts/test_wheel sets it when it built the sdist)")
    import tarfile
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("pyproject.toml", "PKG-INFO", "geoloc/__init__.py", "libgeoloc/CMakeLists.txt",
                   "libgeoloc/include/geoloc.h", "libgeoloc/Sources/GeoLocC/Core.swift",
                   "libgeoloc/data/gazetteer/cities1000.tsv", "libgeoloc/tools/save_places.c",
                   "libgeoloc/python/geoloc/_version.py", "libgeoloc/LICENSE"):
        assert needed in names, needed
    assert not any(n.startswith(("build/", "libgeoloc/build/")) for n in names)
