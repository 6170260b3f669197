"""The Spark and Dask recipes on small jobs, checked against geoloc called directly.

Run by scripts/test_spark (a new venv with the wheel, pyspark, pandas, pyarrow and dask). The
Spark tests run in local mode and, when GEOLOC_SPARK_MASTER names a standalone cluster
(scripts/test_spark starts a master and two workers on 127.0.0.1), again on that cluster.
"""

from __future__ import annotations

import os
import sys

import numpy
import pandas
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import geoloc  # noqa: E402
import geoloc_spark  # noqa: E402

N_TRIPS = 30_000
N_EVENTS = 20_000
RADIUS_MILES = 5.0


@pytest.fixture(scope="module")
def places():
    gaz = geoloc.Gazetteer.open()
    yield gaz.places
    gaz.close()


@pytest.fixture(scope="module")
def place_file(places, tmp_path_factory):
    return geoloc_spark.save_place_file(places, str(tmp_path_factory.mktemp("places") / "cities.places"))


@pytest.fixture(scope="module")
def trips(places):
    rng = numpy.random.default_rng(14)
    c = places.coords()
    a = c[rng.integers(0, len(c), N_TRIPS)] + rng.normal(0, 0.05, (N_TRIPS, 2))
    b = c[rng.integers(0, len(c), N_TRIPS)] + rng.normal(0, 0.05, (N_TRIPS, 2))
    a[:, 0] = numpy.clip(a[:, 0], -90, 90)
    b[:, 0] = numpy.clip(b[:, 0], -90, 90)
    df = pandas.DataFrame({"trip_id": numpy.arange(N_TRIPS, dtype=numpy.int64),
                           "start_lat": a[:, 0], "start_lon": a[:, 1], "end_lat": b[:, 0], "end_lon": b[:, 1]})
    # Rows a real table has: a missing coordinate, a latitude out of range, a NaN.
    df.loc[7, "start_lat"] = None
    df.loc[8, "end_lat"] = 91.0
    df.loc[9, "start_lon"] = numpy.nan
    return df


@pytest.fixture(scope="module")
def events(places):
    rng = numpy.random.default_rng(41)
    c = places.coords()
    near = c[rng.integers(0, len(c), N_EVENTS)] + rng.normal(0, 0.08, (N_EVENTS, 2))
    anywhere = numpy.column_stack([numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, N_EVENTS))),
                                   rng.uniform(-180, 180, N_EVENTS)])
    pts = numpy.where((rng.random(N_EVENTS) < 0.8)[:, None], near, anywhere)
    pts[:, 0] = numpy.clip(pts[:, 0], -90, 90)
    pts[:5] = [[0.0, 179.99], [0.0, -179.99], [89.99, 10.0], [64.2, -21.9], [-46.41, 168.35]]
    df = pandas.DataFrame({"event_id": numpy.arange(N_EVENTS, dtype=numpy.int64), "lat": pts[:, 0], "lon": pts[:, 1]})
    df.loc[5, "lat"] = None
    return df


def expected_distances(trips):
    a = trips[["start_lat", "start_lon"]].to_numpy()
    b = trips[["end_lat", "end_lon"]].to_numpy()
    out = numpy.full(len(trips), numpy.nan)
    for i in range(len(trips)):
        try:
            out[i] = geoloc.distance(a[i], b[i], "miles", "wgs84")
        except (geoloc.GeolocError, TypeError, ValueError):
            pass
    return out


def expected_pairs(events, places):
    ok = events["lat"].notna().to_numpy()
    pts = events[["lat", "lon"]].to_numpy()[ok]
    ids = events["event_id"].to_numpy()[ok]
    rows = []
    for i, p in zip(ids, pts):
        for m in places.within(p, RADIUS_MILES, "miles"):
            rows.append((int(i), m.index, m.distance))
    return pandas.DataFrame(rows, columns=["event_id", "place", "distance"])


def same_pairs(got: pandas.DataFrame, want: pandas.DataFrame) -> None:
    key = ["event_id", "place"]
    got = got.sort_values(key).reset_index(drop=True)
    want = want.sort_values(key).reset_index(drop=True)
    assert len(want) > N_EVENTS // 2  # the data has matches to find
    assert len(got) == len(want)
    assert (got["event_id"].to_numpy() == want["event_id"].to_numpy()).all()
    assert (got["place"].to_numpy() == want["place"].to_numpy()).all()
    assert numpy.array_equal(got["distance"].to_numpy(), want["distance"].to_numpy())


@pytest.fixture(scope="module")
def want_pairs(events, places):
    return expected_pairs(events, places)


# ---- Spark ----------------------------------------------------------------------------------


SPARK_MODES = ["local"] + (["cluster"] if os.environ.get("GEOLOC_SPARK_MASTER") else [])


@pytest.fixture(scope="module", params=SPARK_MODES)
def spark(request):
    pytest.importorskip("pyspark")
    if request.param == "cluster":
        # The executors run in the workers' JVMs and start this venv's Python (PYSPARK_PYTHON).
        session = geoloc_spark.cluster_session(os.environ["GEOLOC_SPARK_MASTER"], "geoloc-test", cores=2,
                                               executor_memory="1g", batch_rows=8192, driver_host="127.0.0.1")
        assert session.sparkContext.master.startswith("spark://")
    else:
        session = geoloc_spark.local_session("geoloc-test", batch_rows=8192)
    geoloc_spark.ship_this_module(session)
    yield session
    session.stop()


def test_spark_runs_where_asked(spark):
    """Local mode runs the tasks in the driver's JVM; on the cluster, in executors on the two
    workers, each with its own Python worker processes (the venv's interpreter)."""
    import sys

    pids = spark.sparkContext.parallelize(range(64), 8).map(lambda _: (os.getpid(), sys.executable)).distinct().collect()
    assert all(exe == sys.executable for _, exe in pids)
    if spark.sparkContext.master.startswith("spark://"):
        import time

        deadline = time.monotonic() + 60
        while True:  # both workers' executors registered (the driver is in the list too)
            executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
            if executors == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert executors == 2, executors


def test_spark_trip_distances(spark, trips):
    got = geoloc_spark.trip_distances(spark.createDataFrame(trips)).toPandas()
    got = got.sort_values("trip_id").reset_index(drop=True)
    want = expected_distances(trips)
    assert list(got.columns) == list(trips.columns) + ["miles"]
    assert numpy.isnan(got["miles"].to_numpy()[7:10]).all()
    assert numpy.array_equal(got["miles"].to_numpy(), want, equal_nan=True)
    # A known value: the demo's Mount Vernon to New York, 809.97 miles on WGS84.
    one = spark.createDataFrame([(38.321991, -88.8674, 40.7128, -74.006)], ["start_lat", "start_lon", "end_lat", "end_lon"])
    miles = geoloc_spark.trip_distances(one).collect()[0]["miles"]
    assert abs(miles - 809.97) < 0.01


def test_spark_events_near_places(spark, events, place_file, want_pairs):
    got = geoloc_spark.events_near_places(spark, spark.createDataFrame(events), place_file, RADIUS_MILES)
    same_pairs(got.toPandas(), want_pairs)


@pytest.mark.parametrize("ship", [True, False])
def test_spark_events_near_sharded_places(spark, events, places, want_pairs, tmp_path, ship):
    shards = geoloc_spark.shard_places(places, 4, str(tmp_path))
    assert len(shards) == 4 and sum(len(geoloc.Places.open(f)) for f in shards.files) == len(places)
    # ship=False: the band files opened where they are (a path every worker reads).
    got = geoloc_spark.events_near_sharded_places(spark, spark.createDataFrame(events), shards, RADIUS_MILES, ship=ship)
    same_pairs(got.toPandas(), want_pairs)


def test_spark_local_times(spark, events):
    """The zone and local time of every row, against geoloc called directly, one row at a time."""
    rng = numpy.random.default_rng(23)
    df = events.copy()
    df["time"] = rng.uniform(0, 4102444800, len(df))  # 1970-2100
    df.loc[11, "time"] = numpy.nan
    df.loc[12, "time"] = 1e13  # past the year 9999
    df.loc[13, "lat"] = 91.0
    got = geoloc_spark.local_times(spark.createDataFrame(df)).toPandas().sort_values("event_id").reset_index(drop=True)
    assert list(got.columns) == list(df.columns) + ["zone", "utc_offset_s", "local_time"]
    bad = {5, 11, 12, 13}
    for i in bad:
        assert got["zone"][i] is None and pandas.isna(got["utc_offset_s"][i]) and got["local_time"][i] is None
    for i in range(0, len(df), 37):
        if i in bad:
            continue
        one = geoloc.local_time_at((df["lat"][i], df["lon"][i]), int(df["time"][i] // 1))
        lt = one.local_time
        assert got["zone"][i] == one.zone and got["utc_offset_s"][i] == lt.utc_offset_s
        assert got["local_time"][i] == "%04d-%02d-%02dT%02d:%02d:%02d" % (
            lt.year, lt.month, lt.day, lt.hour, lt.minute, lt.second)
    # Known rows: Kathmandu's +5:45, the sea west of the date line (Etc/GMT-12, UTC+12).
    one = spark.createDataFrame([(27.7172, 85.324, 1795550709.0), (0.0, 179.99, 1795550709.0)], ["lat", "lon", "time"])
    rows = geoloc_spark.local_times(one).collect()
    assert (rows[0]["zone"], rows[0]["utc_offset_s"], rows[0]["local_time"]) == ("Asia/Kathmandu", 20700, "2026-11-25T01:50:09")
    assert (rows[1]["zone"], rows[1]["utc_offset_s"]) == ("Etc/GMT-12", 43200)


def test_bands_reached_cover_the_antimeridian_and_poles():
    edges = numpy.array([-180.0, -90.0, 0.0, 90.0, 180.0])
    r = 10 * 1609.344
    got = geoloc_spark.bands_reached(edges, numpy.array([0.0, 0.0, 89.99, 10.0]), numpy.array([179.99, -179.99, 0.0, 45.0]), r)
    assert list(got[0]) == [0, 3] and list(got[1]) == [0, 3]
    assert list(got[2]) == [0, 1, 2, 3]
    assert list(got[3]) == [2]


# ---- Dask -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dd():
    return pytest.importorskip("dask.dataframe")


def test_dask_trip_distances(dd, trips):
    import geoloc_dask

    got = geoloc_dask.trip_distances(dd.from_pandas(trips, npartitions=3)).compute()
    got = got.sort_values("trip_id").reset_index(drop=True)
    assert numpy.array_equal(got["miles"].to_numpy(), expected_distances(trips), equal_nan=True)


def test_dask_events_near_places(dd, events, place_file, want_pairs):
    import geoloc_dask

    got = geoloc_dask.events_near_places(dd.from_pandas(events, npartitions=3), place_file, RADIUS_MILES).compute()
    same_pairs(got, want_pairs)


def test_dask_events_near_sharded_places(dd, events, places, want_pairs, tmp_path):
    import geoloc_dask

    shards = geoloc_spark.shard_places(places, 3, str(tmp_path))
    got = geoloc_dask.events_near_sharded_places(dd.from_pandas(events, npartitions=3), shards, RADIUS_MILES).compute()
    same_pairs(got, want_pairs)
