"""libgeoloc inside Spark: two jobs to copy, both running geoloc on each Arrow batch.

- :func:`trip_distances`: the distance of every trip (one column pair to another) with
  ``geoloc.distance_pairs`` inside ``mapInPandas``, in miles, on WGS84 by default.
- :func:`events_near_places`: every (event, place) pair closer than a radius, the place set
  opened once per Python worker process from a place file Spark ships to every executor
  (``SparkContext.addFile``), queried with ``Places.within_many`` per batch.
- :func:`shard_places` and :func:`events_near_sharded_places`: the same join when the place set
  is too large for one worker: places cut into longitude bands, one place file per band, and
  each event sent only to the bands its radius reaches.
- :func:`local_times`: the time zone of every row's point and the local time there at the row's
  instant, with ``geoloc.local_times_at`` per Arrow batch (the shipped zone map and rules).

Each job is a plain function of DataFrames; the module is shipped to the executors with
:func:`ship_this_module` (``SparkContext.addPyFile``) so that the per-process cache of opened
place files lives in an imported module, not in a pickled closure that would be rebuilt for
every task. The executors need the ``geoloc`` package (``pip install libgeoloc``, or the wheel)
in the Python that runs the workers: the one ``PYSPARK_PYTHON`` names when the session starts
(:func:`local_session` and :func:`cluster_session` set it to this interpreter unless it is set).
"""

from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from typing import Iterator, List, Optional, Sequence

import numpy
import pandas

import geoloc

#: Miles per meter and the mean Earth radius of geoloc's sphere (Model.SPHERE).
METERS_PER_MILE = 1609.344
EARTH_RADIUS_M = geoloc.EARTH_MEAN_RADIUS_M


# --------------------------------------------------------------------------------------------
# A local session (tests, the bench, trying it out)
# --------------------------------------------------------------------------------------------


def local_session(app_name: str = "geoloc", cores: int = 2, memory: str = "2g", batch_rows: int = 65536):
    """A SparkSession in local mode with Arrow on and the workers running this interpreter."""
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[%d]" % cores)
        .appName(app_name)
        .config("spark.driver.memory", memory)
        .config("spark.sql.shuffle.partitions", str(2 * cores))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(batch_rows))
        .config("spark.python.worker.reuse", "true")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def cluster_session(master: str, app_name: str = "geoloc", cores: int = 2, executor_memory: str = "1g",
                    batch_rows: int = 65536, driver_host: Optional[str] = None):
    """A SparkSession on a cluster (``master``: ``spark://host:7077``, ``yarn``, ...) with Arrow on.

    The executors' Python must have ``geoloc``: it is the interpreter named by the environment
    variable ``PYSPARK_PYTHON`` when the session starts (PySpark reads it then and sends it with
    every Python task; the builder's ``spark.pyspark.python`` is not read). Unless it is set,
    this sets it to this interpreter, which is right when every worker machine has the same
    virtual environment at the same path (as on one machine)."""
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.cores.max", str(cores))
        .config("spark.executor.memory", executor_memory)
        .config("spark.sql.shuffle.partitions", str(2 * cores))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(batch_rows))
        .config("spark.python.worker.reuse", "true")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.adaptive.enabled", "false")
    )
    if driver_host:
        builder = builder.config("spark.driver.host", driver_host).config("spark.driver.bindAddress", driver_host)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def ship_this_module(spark) -> None:
    """Sends this file to every executor, so the jobs' functions are imported there by name."""
    spark.sparkContext.addPyFile(os.path.abspath(__file__))


# --------------------------------------------------------------------------------------------
# Job 1: trip distances
# --------------------------------------------------------------------------------------------


def trip_distances(
    trips,
    from_cols: Sequence[str] = ("start_lat", "start_lon"),
    to_cols: Sequence[str] = ("end_lat", "end_lon"),
    out_col: str = "miles",
    unit: str = "miles",
    model: str = "wgs84",
):
    """``trips`` with one more column ``out_col``: the distance from (lat, lon) ``from_cols`` to
    ``to_cols`` of each row, in ``unit`` on ``model`` (geoloc's names: "miles", "km", ...;
    "wgs84" for the ellipsoid's geodesic, "sphere" for the great circle).

    One ``geoloc.distance_pairs`` call per Arrow batch (no Python loop over rows). A row whose
    coordinates are null, not finite or out of range gets a null distance; the rest of its
    batch is computed as usual."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    schema = StructType(trips.schema.fields + [StructField(out_col, DoubleType(), True)])
    a_cols, b_cols = list(from_cols), list(to_cols)

    def per_batch(batches: Iterator[pandas.DataFrame]) -> Iterator[pandas.DataFrame]:
        for batch in batches:
            batch[out_col] = distances_of(batch, a_cols, b_cols, unit, model)
            yield batch

    return trips.mapInPandas(per_batch, schema)


def distances_of(batch: pandas.DataFrame, from_cols: Sequence[str], to_cols: Sequence[str],
                 unit: str, model: str) -> numpy.ndarray:
    """The distances of one pandas batch (shared by the Spark and Dask jobs): NaN where a row's
    coordinates are missing or invalid, every other row exact."""
    a = batch[list(from_cols)].to_numpy(dtype=numpy.float64, na_value=numpy.nan)
    b = batch[list(to_cols)].to_numpy(dtype=numpy.float64, na_value=numpy.nan)
    ok = _valid(a) & _valid(b)
    if ok.all():
        return geoloc.distance_pairs(a, b, unit, model)
    out = numpy.full(len(batch), numpy.nan)
    if ok.any():
        out[ok] = geoloc.distance_pairs(a[ok], b[ok], unit, model)
    return out


def _valid(points: numpy.ndarray) -> numpy.ndarray:
    lat, lon = points[:, 0], points[:, 1]
    with numpy.errstate(invalid="ignore"):
        return numpy.isfinite(lat) & numpy.isfinite(lon) & (numpy.abs(lat) <= 90)


# --------------------------------------------------------------------------------------------
# Job 2: events within a radius of a place set
# --------------------------------------------------------------------------------------------

# Place files opened in this process, most recently used last: one mapping per worker process,
# shared by every task and thread that process runs. Opening is an mmap (milliseconds); the
# pages are shared with every other process on the machine that opens the same file.
_OPEN_LOCK = threading.Lock()
_OPEN: "OrderedDict[str, geoloc.Places]" = OrderedDict()
#: How many place files one worker keeps open (sharded joins touch one or two at a time).
MAX_OPEN_PLACE_FILES = 4


def open_places(path: str) -> "geoloc.Places":
    """The place file at ``path`` opened once per process (``geoloc.Places.open``) and kept."""
    with _OPEN_LOCK:
        places = _OPEN.pop(path, None)
        if places is None or places.closed:
            places = geoloc.Places.open(path)
        _OPEN[path] = places
        while len(_OPEN) > MAX_OPEN_PLACE_FILES:
            _OPEN.popitem(last=False)  # dropped, not closed: a thread may still be using it
        return places


def _shipped(name: str) -> str:
    """The executor's local copy of a file added with SparkContext.addFile."""
    from pyspark import SparkFiles

    return SparkFiles.get(name)


def pairs_within(batch: pandas.DataFrame, places: "geoloc.Places", radius: float, unit: str,
                 model: str, id_col: str, lat_col: str, lon_col: str) -> pandas.DataFrame:
    """One batch of events joined to ``places``: a row per (event, place) within ``radius``,
    nearest place first within an event (shared by the Spark and Dask jobs). Events with a
    missing or invalid coordinate match nothing."""
    pts = batch[[lat_col, lon_col]].to_numpy(dtype=numpy.float64, na_value=numpy.nan)
    ok = _valid(pts)
    ids = batch[id_col].to_numpy()
    if not ok.all():
        pts, ids = pts[ok], ids[ok]
    offsets, index, dist = places.within_many(pts, radius, unit, model)
    counts = numpy.diff(offsets)
    return pandas.DataFrame({
        id_col: numpy.repeat(ids, counts),
        "place": index.astype(numpy.int64),
        "distance": dist,
    })


def save_place_file(places: "geoloc.Places", path: str) -> str:
    """Writes ``places`` to a place file (``Places.save``) and returns its path."""
    places.save(path)
    return path


def events_near_places(
    spark,
    events,
    place_file: str,
    radius: float,
    unit: str = "miles",
    model: str = "sphere",
    id_col: str = "event_id",
    lat_col: str = "lat",
    lon_col: str = "lon",
):
    """Every (event, place) pair with the place within ``radius`` (in ``unit``, on ``model``)
    of the event: a DataFrame of ``id_col``, ``place`` (the place's index in the file) and
    ``distance`` (in ``unit``). Events with no place in reach do not appear.

    ``place_file`` is a file written by ``geoloc.Places.save``; Spark copies it once to each
    executor, and each Python worker opens it once (an mmap shared by the machine's workers)
    and queries it with ``within_many`` per Arrow batch. The place set must fit one worker's
    memory (page cache): past that, see :func:`shard_places`."""
    from pyspark.sql.types import DoubleType, LongType, StructField, StructType

    spark.sparkContext.addFile(place_file)
    name = os.path.basename(place_file)
    id_type = events.schema[id_col].dataType
    schema = StructType([
        StructField(id_col, id_type, True),
        StructField("place", LongType(), False),
        StructField("distance", DoubleType(), False),
    ])
    events = events.select(id_col, lat_col, lon_col)

    def per_batch(batches: Iterator[pandas.DataFrame]) -> Iterator[pandas.DataFrame]:
        places = open_places(_shipped(name))
        for batch in batches:
            yield pairs_within(batch, places, radius, unit, model, id_col, lat_col, lon_col)

    return events.mapInPandas(per_batch, schema)


# --------------------------------------------------------------------------------------------
# Job 2 for place sets larger than one worker: shards by longitude band
# --------------------------------------------------------------------------------------------


class Shards:
    """A place set cut into longitude bands: band ``i`` holds the places with longitude in
    ``[edges[i], edges[i + 1])`` and is the place file ``files[i]``; ``first[i]`` is the index
    in the whole set of the band's first place, so a band's index ``j`` is ``order[first[i] + j]``
    in the whole set."""

    def __init__(self, edges: numpy.ndarray, files: List[str], order: numpy.ndarray, first: numpy.ndarray):
        self.edges, self.files, self.order, self.first = edges, files, order, first

    def __len__(self) -> int:
        return len(self.files)

    def bands_for(self, lat: numpy.ndarray, lon: numpy.ndarray, radius_m: float) -> List[numpy.ndarray]:
        """For each point, the bands that a circle of ``radius_m`` meters around it reaches
        (on the sphere, with a margin that also covers WGS84): a list of index arrays."""
        return bands_reached(self.edges, lat, lon, radius_m)


def shard_places(places: "geoloc.Places", n_shards: int, directory: str, stem: str = "places") -> Shards:
    """Cuts ``places`` into ``n_shards`` longitude bands of equal counts, each saved as a place
    file in ``directory`` (attributes are not carried over: the join needs ids, names, points).
    """
    coords = places.coords()
    order = numpy.argsort(coords[:, 1], kind="stable")
    lon_sorted = coords[order, 1]
    cuts = [int(round(len(order) * i / n_shards)) for i in range(n_shards + 1)]
    edges = numpy.empty(n_shards + 1)
    edges[0], edges[-1] = -180.0, 180.0
    for i in range(1, n_shards):
        edges[i] = lon_sorted[cuts[i]] if cuts[i] < len(order) else 180.0
    # Equal longitudes must not straddle a cut: each band is [edges[i], edges[i+1]).
    bands = numpy.searchsorted(edges, coords[:, 1], side="right") - 1
    bands = numpy.clip(bands, 0, n_shards - 1)
    order = numpy.lexsort((numpy.arange(len(coords)), bands))
    first = numpy.searchsorted(bands[order], numpy.arange(n_shards + 1))
    files = []
    for i in range(n_shards):
        members = order[first[i]:first[i + 1]]
        ids = [places.id(int(j)) for j in members]
        names = [places.name(int(j)) for j in members]
        shard = geoloc.Places.from_arrays(coords[members], ids=ids, names=names)
        path = os.path.join(directory, "%s-%d-of-%d.places" % (stem, i, n_shards))
        shard.save(path)
        shard.close()
        files.append(path)
    return Shards(edges, files, order.astype(numpy.int64), first.astype(numpy.int64))


def bands_reached(edges: numpy.ndarray, lat: numpy.ndarray, lon: numpy.ndarray, radius_m: float) -> List[numpy.ndarray]:
    """The longitude bands (``[edges[i], edges[i+1])``) a circle of ``radius_m`` around each
    point reaches. A circle of angular radius r around latitude phi spans longitudes
    lon +- asin(sin r / cos phi); one that reaches a pole spans every longitude."""
    n_bands = len(edges) - 1
    # 0.5% more than the sphere's angle: covers the ellipsoid's distances too.
    r = min(radius_m * 1.005 / EARTH_RADIUS_M, math.pi)
    lat_r = numpy.radians(lat)
    out: List[numpy.ndarray] = []
    all_bands = numpy.arange(n_bands)
    for la, lo in zip(lat_r, lon):
        c = math.cos(la)
        if r >= math.pi / 2 or math.sin(r) >= c:
            out.append(all_bands)
            continue
        half = math.degrees(math.asin(math.sin(r) / c)) + 1e-9
        lo = ((lo + 180.0) % 360.0) - 180.0
        lo_min, lo_max = lo - half, lo + half
        spans = [(max(lo_min, -180.0), min(lo_max, 180.0))]
        if lo_min < -180.0:
            spans.append((lo_min + 360.0, 180.0))
        if lo_max >= 180.0:
            spans.append((-180.0, lo_max - 360.0))
        hit = set()
        for a, b in spans:
            i0 = max(int(numpy.searchsorted(edges, a, side="right")) - 1, 0)
            i1 = min(int(numpy.searchsorted(edges, b, side="right")) - 1, n_bands - 1)
            hit.update(range(i0, i1 + 1))
        out.append(numpy.fromiter(sorted(hit), dtype=numpy.int64))
    return out


def events_near_sharded_places(
    spark,
    events,
    shards: Shards,
    radius: float,
    unit: str = "miles",
    model: str = "sphere",
    id_col: str = "event_id",
    lat_col: str = "lat",
    lon_col: str = "lon",
    ship: bool = True,
):
    """:func:`events_near_places` over a place set cut by :func:`shard_places`: each event is
    sent to every band its radius reaches (a few near a band's edge, one otherwise), the events
    are repartitioned by band so a worker opens one or two band files, and each band's matches
    are given as indices into the whole set. Same columns, same rows as the unsharded job.

    How the band files reach the workers: with ``ship=True`` (the default) Spark copies them
    with ``SparkContext.addFile``, whose files are the whole job's: *every* executor receives
    *every* band's file (a copy on its local disk), and each worker process maps only the bands
    of the partitions it runs, so sharding bounds each process's memory, not the copies. With
    ``ship=False`` nothing is copied: ``shards.files`` must be paths every worker can read (a
    shared file system mounted at the same path), and each worker process maps only the bands
    its tasks need, straight from there."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import ArrayType, DoubleType, LongType, StructField, StructType

    if ship:
        for path in shards.files:
            spark.sparkContext.addFile(path)
        names = [os.path.basename(p) for p in shards.files]
    else:
        names = [os.path.abspath(p) for p in shards.files]
    edges = shards.edges
    radius_m = float(geoloc.convert_length(radius, unit, "meters"))
    id_type = events.schema[id_col].dataType

    tagged_schema = StructType([
        StructField(id_col, id_type, True), StructField(lat_col, DoubleType(), True),
        StructField(lon_col, DoubleType(), True), StructField("band", LongType(), False),
    ])

    def tag(batches: Iterator[pandas.DataFrame]) -> Iterator[pandas.DataFrame]:
        for batch in batches:
            pts = batch[[lat_col, lon_col]].to_numpy(dtype=numpy.float64, na_value=numpy.nan)
            ok = _valid(pts)
            batch = batch[ok]
            reached = bands_reached(edges, pts[ok, 0], pts[ok, 1], radius_m)
            counts = numpy.fromiter((len(b) for b in reached), dtype=numpy.int64, count=len(reached))
            rows = numpy.repeat(numpy.arange(len(batch)), counts)
            out = batch.iloc[rows].reset_index(drop=True)
            out["band"] = numpy.concatenate(reached) if reached else numpy.empty(0, numpy.int64)
            yield out

    order, first = shards.order, shards.first
    schema = StructType([
        StructField(id_col, id_type, True),
        StructField("place", LongType(), False),
        StructField("distance", DoubleType(), False),
    ])

    def join(batches: Iterator[pandas.DataFrame]) -> Iterator[pandas.DataFrame]:
        for batch in batches:
            for band, part in batch.groupby("band", sort=False):
                name = names[int(band)]
                places = open_places(_shipped(name) if ship else name)
                pairs = pairs_within(part, places, radius, unit, model, id_col, lat_col, lon_col)
                pairs["place"] = order[first[int(band)] + pairs["place"].to_numpy()]
                yield pairs

    tagged = events.select(id_col, lat_col, lon_col).mapInPandas(tag, tagged_schema)
    return tagged.repartition(max(len(shards), 1), "band").mapInPandas(join, schema)


# --------------------------------------------------------------------------------------------
# Job 3: the time zone and local time of every row
# --------------------------------------------------------------------------------------------


def local_times(
    rows,
    lat_col: str = "lat",
    lon_col: str = "lon",
    time_col: str = "time",
    zone_col: str = "zone",
    offset_col: str = "utc_offset_s",
    local_col: str = "local_time",
):
    """``rows`` with three more columns: ``zone_col``, the IANA zone at the row's point
    ("America/Chicago"; at sea "Etc/GMT+5", which is UTC-5); ``offset_col``, the UTC offset
    there at the row's instant in seconds east (-18000); ``local_col``, the date and time the
    clocks there showed, "2026-11-24T14:05:09" (a string: Spark's timestamps carry the session's
    zone, not the row's). ``time_col`` holds Unix seconds (a number; for a timestamp column pass
    ``F.col("ts").cast("double")``).

    One ``geoloc.local_times_at`` call per Arrow batch: the zone map is mapped once per worker
    process and shared by the machine's workers. A row whose coordinates or time are null, not
    finite or out of range gets nulls; the rest of its batch is computed as usual."""
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    schema = StructType(rows.schema.fields + [
        StructField(zone_col, StringType(), True),
        StructField(offset_col, IntegerType(), True),
        StructField(local_col, StringType(), True),
    ])

    def per_batch(batches: Iterator[pandas.DataFrame]) -> Iterator[pandas.DataFrame]:
        for batch in batches:
            zone, offset, local = local_times_of(batch, lat_col, lon_col, time_col)
            batch[zone_col] = zone
            batch[offset_col] = offset
            batch[local_col] = local
            yield batch

    return rows.mapInPandas(per_batch, schema)


def local_times_of(batch: pandas.DataFrame, lat_col: str, lon_col: str, time_col: str):
    """The zones, UTC offsets and local date-times of one pandas batch: three columns, null
    where a row's point or time is missing or invalid."""
    pts = batch[[lat_col, lon_col]].to_numpy(dtype=numpy.float64, na_value=numpy.nan)
    t = pandas.to_numeric(batch[time_col], errors="coerce").to_numpy(dtype=numpy.float64, na_value=numpy.nan)
    with numpy.errstate(invalid="ignore"):
        ok = _valid(pts) & numpy.isfinite(t) & (t >= geoloc.TIME_MIN) & (t < geoloc.TIME_MAX + 1)
    n = len(batch)
    zone = numpy.full(n, None, dtype=object)
    offset = pandas.array(numpy.zeros(n, dtype=numpy.int32), dtype="Int32")
    local = numpy.full(n, None, dtype=object)
    if ok.any():
        lt, zones = geoloc.local_times_at(pts[ok], t[ok], with_zones=True)
        zone[ok] = zones
        offset[ok] = lt["utc_offset_s"]
        wall = (lt["instant"] + lt["utc_offset_s"].astype(numpy.int64)).astype("datetime64[s]")
        local[ok] = numpy.datetime_as_string(wall, unit="s")
    offset[~ok] = pandas.NA
    return zone, offset, local
