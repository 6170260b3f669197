"""What the Python tests of every capability share: special floats, a few places, and the check
that a call raises exactly one exception class with a message."""

from __future__ import annotations

import math

import numpy

import pytest

import geoloc

NAN = float("nan")
INF = float("inf")
R = 6371008.8  # GEOLOC_EARTH_MEAN_RADIUS_M

HOME = "38.321991,-88.867400"
STOP_A = "38.525050,-89.133404"
STOP_B = "38.626995,-88.945610"
STOP_C = "37.730604,-88.933138"
NYC = (40.7128, -74.006)
CENTRALIA = (38.321991, -88.8674)


def raises(cls, call, *args, **kwargs):
    """Asserts call raises exactly cls with a non-empty message; returns the exception."""
    with pytest.raises(Exception) as info:
        call(*args, **kwargs)
    err = info.value
    assert type(err) is cls, "expected %s, got %s: %s" % (cls.__name__, type(err).__name__, err)
    assert str(err).strip(), "empty message"
    if isinstance(err, geoloc.GeolocError):
        assert err.message.strip()
        assert err.status == cls.status
    return err


def rel_close(a, b, rel=1e-12):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


def random_lat_lon(n, seed, lon_span=180.0):
    rng = numpy.random.default_rng(seed)
    return numpy.column_stack([rng.uniform(-90, 90, n), rng.uniform(-lon_span, lon_span, n)])
