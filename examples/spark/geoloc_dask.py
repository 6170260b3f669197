"""libgeoloc inside Dask: the two jobs of geoloc_spark.py with ``map_partitions``.

- :func:`trip_distances`: ``geoloc.distance_pairs`` on each partition, in miles, on WGS84.
- :func:`events_near_places`: each partition's events joined to a place file with
  ``Places.within_many``; the file is opened once per worker process (an mmap shared by every
  process on the machine) and passed by path, never pickled.
- :func:`events_near_sharded_places`: the same join over a place set cut into longitude bands
  by ``geoloc_spark.shard_places`` (each event goes to the bands its radius reaches).
- :func:`events_near_places_sjoin`: the same join with dask-geopandas' ``sjoin``, as a user of
  geopandas writes it: places drawn as discs in degrees, widened per latitude band, so that no
  pair is missed, then the exact great-circle distance as a filter.

Works with any scheduler (threads, processes, dask.distributed): the functions sent to the
workers are module-level functions of this file and geoloc_spark.py (no pyspark needed).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy
import pandas

import geoloc
from geoloc_spark import EARTH_RADIUS_M, Shards, _valid, bands_reached, distances_of, open_places, pairs_within


def trip_distances(trips, from_cols: Sequence[str] = ("start_lat", "start_lon"),
                   to_cols: Sequence[str] = ("end_lat", "end_lon"), out_col: str = "miles",
                   unit: str = "miles", model: str = "wgs84"):
    """The dask DataFrame ``trips`` with one more column ``out_col``: each row's distance from
    ``from_cols`` to ``to_cols`` (lat, lon), one ``distance_pairs`` call per partition; NaN
    where a row's coordinates are missing or invalid."""
    meta = trips._meta.assign(**{out_col: numpy.float64(0)})
    return trips.map_partitions(_with_distances, list(from_cols), list(to_cols), out_col, unit, model, meta=meta)


def _with_distances(part: pandas.DataFrame, from_cols, to_cols, out_col, unit, model) -> pandas.DataFrame:
    return part.assign(**{out_col: distances_of(part, from_cols, to_cols, unit, model)})


def events_near_places(events, place_file: str, radius: float, unit: str = "miles", model: str = "sphere",
                       id_col: str = "event_id", lat_col: str = "lat", lon_col: str = "lon"):
    """Every (event, place) pair with the place within ``radius`` of the event: columns
    ``id_col``, ``place`` (index in the place file) and ``distance`` (in ``unit``).
    ``place_file`` (from ``geoloc.Places.save``) must be readable at the same path by every
    worker: a shared file system, or a copy at that path on each machine."""
    meta = pandas.DataFrame({
        id_col: pandas.Series([], dtype=events._meta[id_col].dtype),
        "place": pandas.Series([], dtype="int64"),
        "distance": pandas.Series([], dtype="float64"),
    })
    return events.map_partitions(_pairs, place_file, radius, unit, model, id_col, lat_col, lon_col, meta=meta)


def _pairs(part: pandas.DataFrame, place_file, radius, unit, model, id_col, lat_col, lon_col) -> pandas.DataFrame:
    return pairs_within(part, open_places(place_file), radius, unit, model, id_col, lat_col, lon_col)


def events_near_sharded_places(events, shards: Shards, radius: float, unit: str = "miles", model: str = "sphere",
                               id_col: str = "event_id", lat_col: str = "lat", lon_col: str = "lon"):
    """:func:`events_near_places` over ``shards`` (``geoloc_spark.shard_places``; the band files
    readable at the same paths by every worker): same columns, same rows, ``place`` indexing
    the whole set. For partitions that each cover one region (events sorted or partitioned by
    longitude), a worker opens only the band files its events reach."""
    meta = pandas.DataFrame({
        id_col: pandas.Series([], dtype=events._meta[id_col].dtype),
        "place": pandas.Series([], dtype="int64"),
        "distance": pandas.Series([], dtype="float64"),
    })
    radius_m = float(geoloc.convert_length(radius, unit, "meters"))
    return events.map_partitions(_sharded_pairs, shards, radius, radius_m, unit, model, id_col, lat_col, lon_col, meta=meta)


def _sharded_pairs(part: pandas.DataFrame, shards: Shards, radius, radius_m, unit, model, id_col, lat_col, lon_col):
    pts = part[[lat_col, lon_col]].to_numpy(dtype=numpy.float64, na_value=numpy.nan)
    ok = _valid(pts)
    part = part[ok]
    reached = bands_reached(shards.edges, pts[ok, 0], pts[ok, 1], radius_m)
    counts = numpy.fromiter((len(b) for b in reached), dtype=numpy.int64, count=len(reached))
    tagged = part.iloc[numpy.repeat(numpy.arange(len(part)), counts)].reset_index(drop=True)
    tagged["band"] = numpy.concatenate(reached) if reached else numpy.empty(0, numpy.int64)
    out = [pairs_within(part.iloc[:0], open_places(shards.files[0]), radius, unit, model, id_col, lat_col, lon_col)]
    for band, sub in tagged.groupby("band", sort=False):
        pairs = pairs_within(sub, open_places(shards.files[int(band)]), radius, unit, model, id_col, lat_col, lon_col)
        pairs["place"] = shards.order[shards.first[int(band)] + pairs["place"].to_numpy()]
        out.append(pairs)
    return pandas.concat(out, ignore_index=True)


# --------------------------------------------------------------------------------------------
# The peer: dask-geopandas' sjoin
# --------------------------------------------------------------------------------------------

#: Latitude bands for the planar candidate search: within a band, a circle of the radius spans
#: at most (radius in degrees of latitude) / cos(the band's edge plus the radius) degrees.
LATITUDE_BANDS = (0.0, 30.0, 45.0, 55.0, 62.0, 68.0, 73.0, 78.0, 82.0, 90.0)


def events_near_places_sjoin(events, places: pandas.DataFrame, radius_miles: float,
                             id_col: str = "event_id", lat_col: str = "lat", lon_col: str = "lon",
                             npartitions: int = 2):
    """The same join with dask-geopandas: ``places`` is a pandas DataFrame of ``lat``/``lon``
    rows (its index is the place index). Returns a pandas DataFrame of ``id_col``, ``place`` and
    ``distance`` (miles, great circle on geoloc's sphere). Computed eagerly, band by band.

    dask-geopandas' ``sjoin`` is planar and takes no distance: the places are drawn as discs in
    degrees; in degrees of longitude a fixed radius grows as 1 / cos(latitude), so each latitude
    band gets its own, wider, disc, and the exact haversine filters the candidates. Circles reaching the antimeridian or a pole are not
    wrapped (the planar engine knows neither): a few pairs there can be missed."""
    import dask_geopandas
    import geopandas

    radius_deg = math.degrees(radius_miles * 1609.344 / EARTH_RADIUS_M)
    pgdf = geopandas.GeoDataFrame(
        {"place": numpy.arange(len(places), dtype=numpy.int64), "plat": places["lat"].to_numpy(),
         "plon": places["lon"].to_numpy()},
        geometry=geopandas.points_from_xy(places["lon"], places["lat"]), crs="EPSG:4326",
    )
    out = []
    alat = abs(events[lat_col])
    for lo, hi in zip(LATITUDE_BANDS[:-1], LATITUDE_BANDS[1:]):
        band = events[(alat >= lo) & (alat < hi)] if hi < 90 else events[alat >= lo]
        edge = min(hi + radius_deg, 89.9)
        dist = radius_deg / math.cos(math.radians(edge)) * 1.0001
        egdf = dask_geopandas.from_dask_dataframe(
            band, geometry=dask_geopandas.points_from_xy(band, lon_col, lat_col, crs="EPSG:4326"))
        # dask-geopandas' sjoin takes no distance: the places become discs (16-gons drawn
        # around the circle of ``dist``) and the join is an intersects.
        # Only the places the band's events can reach: the tree each partition builds is small.
        reach = pgdf[(abs(pgdf["plat"]) >= lo - radius_deg * 1.01) & (abs(pgdf["plat"]) <= hi + radius_deg * 1.01)]
        discs = reach.set_geometry(reach.geometry.buffer(dist / math.cos(math.pi / 16), quad_segs=4))
        cand = dask_geopandas.sjoin(egdf, discs, how="inner", predicate="intersects")
        cand = cand[[id_col, lat_col, lon_col, "place", "plat", "plon"]].compute()
        d = _haversine_miles(cand[lat_col].to_numpy(), cand[lon_col].to_numpy(),
                             cand["plat"].to_numpy(), cand["plon"].to_numpy())
        keep = d <= radius_miles
        out.append(pandas.DataFrame({id_col: cand[id_col].to_numpy()[keep],
                                     "place": cand["place"].to_numpy()[keep], "distance": d[keep]}))
    return pandas.concat(out, ignore_index=True)


def _haversine_miles(lat1, lon1, lat2, lon2) -> numpy.ndarray:
    p1, p2 = numpy.radians(lat1), numpy.radians(lat2)
    dp, dl = p2 - p1, numpy.radians(lon2 - lon1)
    h = numpy.sin(dp / 2) ** 2 + numpy.cos(p1) * numpy.cos(p2) * numpy.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * numpy.arcsin(numpy.sqrt(numpy.minimum(h, 1.0))) / 1609.344
