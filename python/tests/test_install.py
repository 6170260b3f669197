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
    libs = os.path.join(os.path.dirname(PACKAGE_DIR), "libgeoloc.libs")  # auditwheel: <distribution>.libs
    assert geos, "no GEOS mapped"
    assert all(f.startswith(libs + os.sep) for f in geos), geos


def test_ldd_resolves_geos_inside_the_wheel():
    out = subprocess.run(["ldd", os.path.join(PACKAGE_DIR, "libgeoloc.so")],
                         check=True, capture_output=True, text=True).stdout
    geos = [line for line in out.splitlines() if "libgeos" in line]
    assert geos and all("/libgeoloc.libs/" in line for line in geos), out
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


def test_every_data_file_of_the_build_is_inside_the_package():
    """The build's one list of data files (GEOLOC_DATA_FILES in CMakeLists.txt), each beside the
    library."""
    listed = os.environ.get("GEOLOC_TEST_DATA_FILES")
    if not listed or not os.path.isfile(listed):
        pytest.skip("GEOLOC_TEST_DATA_FILES not set (scripts/test_wheel sets it when it built the wheel)")
    with open(listed, encoding="utf-8") as f:
        names = [line.strip() for line in f if line.strip()]
    assert "cities1000.places" in names
    for name in names:
        assert os.path.isfile(os.path.join(PACKAGE_DIR, name)), name
    # The gazetteer in its saved form only.
    assert not os.path.exists(os.path.join(PACKAGE_DIR, "cities1000.tsv"))


def _wheel_metadata():
    import email.parser
    import zipfile

    wheel = os.environ.get("GEOLOC_TEST_WHEEL")
    if not wheel:
        pytest.skip("GEOLOC_TEST_WHEEL not set (scripts/test_wheel sets it)")
    assert os.path.basename(wheel).startswith("libgeoloc-%s-py3-none-manylinux" % geoloc.__version__), wheel
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        assert name == "libgeoloc-%s.dist-info/METADATA" % geoloc.__version__, name
        return email.parser.Parser().parsestr(z.read(name).decode("utf-8"))


def test_the_wheels_metadata():
    """The distribution is libgeoloc (the PyPI name geoloc is another project's); its metadata
    names the licences, the project's addresses, its classifiers and its one dependency."""
    meta = _wheel_metadata()
    assert meta["Name"] == "libgeoloc"
    assert meta["Version"] == geoloc.__version__
    assert meta["License-Expression"] == "MIT AND CC-BY-4.0"
    assert meta["Requires-Python"].startswith(">=3.")
    assert meta.get_all("Requires-Dist")[0] == "numpy"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(urls), urls
    assert all(u.startswith("https://") for u in urls.values()), urls
    classifiers = meta.get_all("Classifier")
    for c in ("Topic :: Scientific/Engineering :: GIS", "Operating System :: POSIX :: Linux",
              "Programming Language :: Python :: 3", "Typing :: Typed"):
        assert c in classifiers, c
    assert not any(c.startswith("License ::") for c in classifiers)  # the licence is the expression
    assert "import geoloc" in meta["Summary"]
    # The installed distribution is the same, found by its name.
    from importlib import metadata

    assert metadata.version("libgeoloc") == geoloc.__version__
    assert metadata.metadata("libgeoloc")["License-Expression"] == meta["License-Expression"]


def test_the_long_description_lists_every_capability():
    """The PyPI page (python/README.md) names each capability module's calls: every module of
    the package that defines public functions or classes has them in the description, and it
    says how the distribution's name and the import name relate."""
    meta = _wheel_metadata()
    description = meta.get_payload()
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "pip install libgeoloc" in description and "import geoloc" in description
    by_module = {}
    for name, value in vars(geoloc).items():
        module = getattr(value, "__module__", "") or ""
        if name.startswith("_") or not module.startswith("geoloc._") or not callable(value):
            continue
        if module in ("geoloc._errors", "geoloc._enums", "geoloc._ffi", "geoloc._version"):
            continue
        by_module.setdefault(module, []).append(name)
    assert len(by_module) >= 8, by_module
    for module, names in sorted(by_module.items()):
        listed = [n for n in names if "`%s" % n in description or ".%s`" % n in description]
        assert listed, "%s: none of %s in the long description" % (module, sorted(names))
    for call in ("best_order", "read_gpx", "FixFilter", "Monitor", "reverse_geocode", "Places.within", "weather_condition"):
        assert call in description, call


def test_help_is_current():
    """help(geoloc): how to install it, and no word that pip does not build the library."""
    doc = geoloc.__doc__
    assert "pip install libgeoloc" in doc
    assert "pip does not build" not in doc
    for word in ("best order", "geofence", "GPX", "reverse geocoding"):
        assert word in doc, word


def test_licences_are_inside_the_package():
    licences = os.path.join(PACKAGE_DIR, "licenses")
    names = sorted(os.listdir(licences))
    assert names == ["LICENSE", "address-formatting-LICENSE.txt", "address-formatting-README.md",
                     "gazetteer-README.md", "search-README.md", "time-README.md",
                     "timezones-LICENSE-ODbL.txt"], names
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
