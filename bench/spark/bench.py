"""The Spark recipe's bench: the same trips and events through every engine, side by side.

Rows per second of input rows (trips, or events) and each engine's result compared row for row
with geoloc's. Run by bench/spark/run (see there for the options); prints one table (markdown).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy
import pandas

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples", "spark"))

import geoloc  # noqa: E402
import geoloc_spark  # noqa: E402

MILE = 1609.344
R = geoloc.EARTH_MEAN_RADIUS_M
SEDONA_R = 6371010.0  # the sphere of SedonaDB's geography functions (S2's radius)

rows = []


def row(job, engine, n_in, seconds, n_out, compared, note=""):
    rows.append((job, engine, n_in, seconds, n_out, compared, note))
    print("  %-8s %-52s %8.1f s  %12s rows/s  %s %s" % (job, engine, seconds, "{:,.0f}".format(n_in / seconds),
                                                       compared, note), flush=True)


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


# ---- data ----------------------------------------------------------------------------------


def make_data(places, n_trips, n_events, seed=2026):
    """Trips between jittered places (start and end near two random places); events 80% near a
    place (sigma 0.08 degrees), 20% anywhere on the sphere."""
    rng = numpy.random.default_rng(seed)
    c = places.coords()
    a = c[rng.integers(0, len(c), n_trips)] + rng.normal(0, 0.05, (n_trips, 2))
    b = c[rng.integers(0, len(c), n_trips)] + rng.normal(0, 0.05, (n_trips, 2))
    for p in (a, b):
        p[:, 0] = numpy.clip(p[:, 0], -90, 90)
        p[:, 1] = (p[:, 1] + 180.0) % 360.0 - 180.0
    trips = pandas.DataFrame({"trip_id": numpy.arange(n_trips, dtype=numpy.int64), "start_lat": a[:, 0],
                              "start_lon": a[:, 1], "end_lat": b[:, 0], "end_lon": b[:, 1]})
    near = c[rng.integers(0, len(c), n_events)] + rng.normal(0, 0.08, (n_events, 2))
    anywhere = numpy.column_stack([numpy.degrees(numpy.arcsin(rng.uniform(-1, 1, n_events))),
                                   rng.uniform(-180, 180, n_events)])
    e = numpy.where((rng.random(n_events) < 0.8)[:, None], near, anywhere)
    e[:, 0] = numpy.clip(e[:, 0], -90, 90)
    e[:, 1] = (e[:, 1] + 180.0) % 360.0 - 180.0
    events = pandas.DataFrame({"event_id": numpy.arange(n_events, dtype=numpy.int64), "lat": e[:, 0], "lon": e[:, 1]})
    place_df = pandas.DataFrame({"place": numpy.arange(len(c), dtype=numpy.int64), "lat": c[:, 0], "lon": c[:, 1]})
    return trips, events, place_df


# ---- comparisons ---------------------------------------------------------------------------


def compare_distances(got, want, rel=1e-9):
    """'n/n equal' or 'k of n differ by > rel (max ...)'."""
    got = numpy.asarray(got, dtype=numpy.float64)
    diff = numpy.abs(got - want)
    bad = int(numpy.count_nonzero(~(diff <= rel * numpy.maximum(numpy.abs(want), 1e-300))))
    exact = int(numpy.count_nonzero(got == want))
    if bad == 0:
        return "%s rows: %s identical, all within %g relative (max diff %.2g mi)" % (
            "{:,}".format(len(want)), "{:,}".format(exact), rel, float(diff.max(initial=0)))
    return "%s of %s rows differ by > %g relative (max diff %.3g mi)" % (
        "{:,}".format(bad), "{:,}".format(len(want)), rel, float(diff.max(initial=0)))


def compare_pairs(got: pandas.DataFrame, want: pandas.DataFrame, radius, scale=1.0):
    """Pairs (event_id, place) both have, only one has; the distances of the common ones."""
    g = got[["event_id", "place", "distance"]].copy()
    g["distance"] = g["distance"] * scale
    m = want.merge(g, on=["event_id", "place"], how="outer", suffixes=("", "_got"), indicator=True)
    missing = m[m["_merge"] == "left_only"]
    extra = m[m["_merge"] == "right_only"]
    both = m[m["_merge"] == "both"]
    maxdiff = float(numpy.abs(both["distance"] - both["distance_got"]).max()) if len(both) else 0.0
    # A pair one engine keeps and the other drops, within 1e-9 of the radius, is a rounding tie.
    edge = lambda d: int(numpy.count_nonzero(numpy.abs(d - radius) <= 1e-9 * radius))  # noqa: E731
    ties = edge(missing["distance"].to_numpy()) + edge(extra["distance_got"].to_numpy())
    text = "%s pairs (want %s): %s missing, %s extra" % (
        "{:,}".format(len(g)), "{:,}".format(len(want)), "{:,}".format(len(missing)), "{:,}".format(len(extra)))
    if ties:
        text += " (%d at the radius within 1e-9)" % ties
    return text + ", max distance diff %.2g mi" % maxdiff


# ---- the jobs ------------------------------------------------------------------------------


def spark_sql_distance(spark, trips_df):
    from pyspark.sql import functions as F

    p1, p2 = F.radians("start_lat"), F.radians("end_lat")
    dp, dl = p2 - p1, F.radians(F.col("end_lon") - F.col("start_lon"))
    h = F.pow(F.sin(dp / 2), 2) + F.cos(p1) * F.cos(p2) * F.pow(F.sin(dl / 2), 2)
    miles = F.lit(2 * R / MILE) * F.asin(F.sqrt(F.least(h, F.lit(1.0))))
    return trips_df.withColumn("miles", miles)


def spark_sql_join(spark, events_df, places_df, radius_miles):
    """The grid join in plain Spark SQL: cells of the radius in degrees of latitude; each event
    looks in the 3 cell rows around it and as many cell columns as its radius spans at its
    latitude (all of them near a pole, wrapped at the antimeridian), then the haversine filter."""
    from pyspark.sql import functions as F

    r = radius_miles * MILE / R  # radians
    cell = math.degrees(r)
    n_lon = int(math.ceil(360.0 / cell))
    pl = places_df.select(
        F.col("place"), F.col("lat").alias("plat"), F.col("lon").alias("plon"),
        F.floor((F.col("lat") + 90) / cell).alias("clat"),
        F.pmod(F.floor((F.col("lon") + 180) / cell), F.lit(n_lon)).alias("clon"),
    )
    cos_lat = F.cos(F.radians("lat"))
    k = F.when(F.lit(math.sin(r) * 1.0000001) >= cos_lat, F.lit(n_lon)).otherwise(
        F.ceil(F.degrees(F.asin(F.lit(math.sin(r)) / cos_lat)) / cell) + 1)
    ev = events_df.select(
        "event_id", "lat", "lon", F.floor((F.col("lat") + 90) / cell).alias("elat"),
        F.floor((F.col("lon") + 180) / cell).alias("elon"), k.cast("int").alias("k"))
    ev = ev.withColumn("clat", F.explode(F.sequence(F.col("elat") - 1, F.col("elat") + 1)))
    ev = ev.withColumn("clon", F.explode(F.array_distinct(F.transform(
        F.sequence(-F.col("k"), F.col("k")), lambda j: F.pmod(F.col("elon") + j, F.lit(n_lon))))))
    j = ev.join(F.broadcast(pl), on=["clat", "clon"])
    p1, p2 = F.radians("lat"), F.radians("plat")
    h = F.pow(F.sin((p2 - p1) / 2), 2) + F.cos(p1) * F.cos(p2) * F.pow(F.sin(F.radians(F.col("plon") - F.col("lon")) / 2), 2)
    d = F.lit(2 * R / MILE) * F.asin(F.sqrt(F.least(h, F.lit(1.0))))
    return j.select("event_id", "place", d.alias("distance")).where(F.col("distance") <= radius_miles)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trips", type=int, default=10_000_000)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--radius", type=float, default=5.0, help="miles")
    ap.add_argument("--work", default="/tmp/geoloc-bench-spark")
    ap.add_argument("--skip", default="", help="comma-separated: sedona,dask,sjoin,knn,sharded")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    os.makedirs(args.work, exist_ok=True)
    radius = args.radius

    gaz = geoloc.Gazetteer.open()
    places = gaz.places
    n_places = len(places)
    print("places: %s (the shipped gazetteer); trips %s, events %s, radius %g miles" % (
        "{:,}".format(n_places), "{:,}".format(args.trips), "{:,}".format(args.events), radius), flush=True)
    trips, events, place_df = make_data(places, args.trips, args.events)
    place_file = geoloc_spark.save_place_file(places, os.path.join(args.work, "cities.places"))
    tp = os.path.join(args.work, "trips.parquet")
    ep = os.path.join(args.work, "events.parquet")
    pp = os.path.join(args.work, "places.parquet")
    trips.to_parquet(tp, row_group_size=1 << 20)
    events.to_parquet(ep, row_group_size=1 << 18)
    place_df.to_parquet(pp)

    # ---- references: geoloc in this process, no engine ----
    a, b = trips[["start_lat", "start_lon"]].to_numpy(), trips[["end_lat", "end_lon"]].to_numpy()
    want_wgs, s = timed(lambda: geoloc.distance_pairs(a, b, "miles", "wgs84"))
    row("distance", "geoloc distance_pairs, one process, WGS84 (reference)", len(trips), s, len(trips), "reference")
    want_sph, s = timed(lambda: geoloc.distance_pairs(a, b, "miles", "sphere"))
    row("distance", "geoloc distance_pairs, one process, sphere (reference)", len(trips), s, len(trips),
        "reference; WGS84 - sphere: max %.3g mi" % float(numpy.abs(want_wgs - want_sph).max()))
    ev_pts = events[["lat", "lon"]].to_numpy()
    (off, idx, dist), s = timed(lambda: places.within_many(ev_pts, radius, "miles"))
    want_pairs = pandas.DataFrame({"event_id": numpy.repeat(events["event_id"].to_numpy(), numpy.diff(off)),
                                   "place": idx, "distance": dist})
    row("join", "geoloc within_many, one process (reference)", len(events), s, len(want_pairs), "reference")
    (nn_idx, nn_dist), s = timed(lambda: places.nearest_many(ev_pts, 1, "miles"))
    row("knn", "geoloc nearest_many k=1, one process (reference)", len(events), s, len(events), "reference")

    # ---- Spark ----
    spark = geoloc_spark.local_session("geoloc-bench", cores=2, memory="6g")
    geoloc_spark.ship_this_module(spark)
    trips_sdf = spark.read.parquet(tp)
    events_sdf = spark.read.parquet(ep)
    places_sdf = spark.read.parquet(pp)
    spark.range(10).count()  # the JVM warmed up

    def run_spark(df, name):
        out = os.path.join(args.work, name)
        _, s = timed(lambda: df.write.mode("overwrite").parquet(out))
        return pandas.read_parquet(out), s

    for model, want in (("wgs84", want_wgs), ("sphere", want_sph)):
        got, s = run_spark(geoloc_spark.trip_distances(trips_sdf, model=model), "d-geoloc-" + model)
        got = got.sort_values("trip_id")["miles"].to_numpy()
        row("distance", "Spark mapInPandas + geoloc distance_pairs, %s" % model, len(trips), s, len(got), compare_distances(got, want))
    got, s = run_spark(spark_sql_distance(spark, trips_sdf), "d-sql")
    got = got.sort_values("trip_id")["miles"].to_numpy()
    row("distance", "Spark SQL haversine (built-in math), sphere", len(trips), s, len(got), compare_distances(got, want_sph),
        "vs geoloc sphere")

    got, s = run_spark(geoloc_spark.events_near_places(spark, events_sdf, place_file, radius), "j-geoloc")
    row("join", "Spark mapInPandas + geoloc within_many (place file per worker)", len(events), s, len(got), compare_pairs(got, want_pairs, radius))
    if "sharded" not in skip:
        shards = geoloc_spark.shard_places(places, 4, args.work, "cities")
        got, s = run_spark(geoloc_spark.events_near_sharded_places(spark, events_sdf, shards, radius), "j-geoloc-sharded")
        row("join", "Spark + geoloc, places in 4 longitude shards", len(events), s, len(got), compare_pairs(got, want_pairs, radius))
    got, s = run_spark(spark_sql_join(spark, events_sdf, places_sdf, radius), "j-sql")
    row("join", "Spark SQL grid key + haversine filter", len(events), s, len(got), compare_pairs(got, want_pairs, radius))
    spark.stop()

    # ---- SedonaDB ----
    if "sedona" not in skip:
        import sedonadb

        con = sedonadb.connect()
        con.read_parquet(tp).to_view("trips")
        con.read_parquet(ep).to_view("events")
        con.read_parquet(pp).to_view("places")
        q = ("SELECT trip_id, ST_Distance(ST_GeogPoint(start_lon, start_lat), ST_GeogPoint(end_lon, end_lat)) / %r AS miles "
             "FROM trips" % MILE)
        got, s = timed(lambda: con.sql(q).to_pandas())
        got = got.sort_values("trip_id")["miles"].to_numpy() * (R / SEDONA_R)
        row("distance", "SedonaDB ST_Distance(geography), its sphere R=6,371,010 m", len(trips), s, len(got),
            compare_distances(got, want_sph, 1e-6), "scaled to R=6,371,008.8 m, vs geoloc sphere")
        meters = radius * MILE * SEDONA_R / R
        q = ("SELECT e.event_id, p.place, ST_Distance(ST_GeogPoint(e.lon, e.lat), ST_GeogPoint(p.lon, p.lat)) / %r AS distance "
             "FROM events e JOIN places p ON ST_DWithin(ST_GeogPoint(e.lon, e.lat), ST_GeogPoint(p.lon, p.lat), %r)" % (MILE, meters))
        got, s = timed(lambda: con.sql(q).to_pandas())
        row("join", "SedonaDB distance join ST_DWithin(geography)", len(events), s, len(got),
            compare_pairs(got, want_pairs, radius, R / SEDONA_R))
        if "knn" not in skip:
            q = ("SELECT e.event_id, p.place FROM events e JOIN places p "
                 "ON ST_KNN(ST_Point(e.lon, e.lat), ST_Point(p.lon, p.lat), 1, false)")
            got, s = timed(lambda: con.sql(q).to_pandas())
            got = got.sort_values("event_id").drop_duplicates("event_id")
            same = int(numpy.count_nonzero(got["place"].to_numpy() == nn_idx[got["event_id"].to_numpy(), 0]))
            row("knn", "SedonaDB KNN join ST_KNN(k=1, planar degrees)", len(events), s, len(got),
                "%s of %s events name geoloc's nearest (great circle)" % ("{:,}".format(same), "{:,}".format(len(got))))

    # ---- Dask ----
    if "dask" not in skip:
        import dask
        import dask.dataframe as dd

        import geoloc_dask

        dask.config.set(scheduler="processes", num_workers=2)
        tdd = dd.read_parquet(tp)
        got, s = timed(lambda: geoloc_dask.trip_distances(tdd).compute())
        got = got.sort_values("trip_id")["miles"].to_numpy()
        row("distance", "Dask map_partitions + geoloc distance_pairs, WGS84", len(trips), s, len(got), compare_distances(got, want_wgs))
        edd = dd.read_parquet(ep)
        got, s = timed(lambda: geoloc_dask.events_near_places(edd, place_file, radius).compute())
        row("join", "Dask map_partitions + geoloc within_many", len(events), s, len(got), compare_pairs(got, want_pairs, radius))
        if "sjoin" not in skip:
            dask.config.set(scheduler="threads")
            got, s = timed(lambda: geoloc_dask.events_near_places_sjoin(dd.from_pandas(events, npartitions=2), place_df, radius))
            row("join", "dask-geopandas sjoin(intersects place discs per latitude band) + haversine", len(events), s, len(got),
                compare_pairs(got, want_pairs, radius))

    print()
    print("| job | engine | rows in | seconds | rows/s | result vs geoloc |")
    print("|---|---|---:|---:|---:|---|")
    for job, engine, n_in, sec, n_out, compared, note in rows:
        print("| %s | %s | %s | %.1f | %s | %s%s |" % (job, engine, "{:,}".format(n_in), sec, "{:,.0f}".format(n_in / sec),
                                                      compared, ("; " + note) if note else ""))


if __name__ == "__main__":
    main()
