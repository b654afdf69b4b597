"""Ten million results in a dedicated PostgreSQL database, generated inside PostgreSQL.

The spread is what a busy installation reaches in years: six teams (one holding ~63 % of the
results), a few hundred targets each on one of the published storage classes, runs of 4 jobs from
a dozen job names (a quarter of them mixed read/write, so ~1.3 directions per result), 15 %
imported outputs (older measured_at), three years of measured_at, some targets losing a quarter
of their IOPS at a point in time (regressions to find). Every figure is a deterministic function
of the result's number and the seed (hashint8), so the results and their direction rows are
written by one INSERT … SELECT generate_series per chunk, and the same seed gives the same data.

The schema comes from the migrations (`alembic upgrade DATA_REVISION`, then head once the rows are
in, so later migrations derive their tables from them), so the indexes measured are the product's.
Secondary indexes and foreign keys of results/result_directions are dropped while loading and
re-created afterwards (that is what makes 10 M rows take minutes on 2 cores).
"""

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg import sql

ADMIN_URL = os.environ.get(
    "STORBENCH_BENCH_POSTGRES",
    os.environ.get("STORBENCH_TEST_POSTGRES", "postgresql://storbench:storbench@127.0.0.1:5432/postgres"),
)
# Bump when the generated data changes shape: a database of another version is generated again.
# 2: loaded at DATA_REVISION, so the rollup exists (version 1 loaded at head left it empty).
DATA_VERSION = 2
# The schema the rows are written in. The bench then upgrades to head, so every later migration
# (0019's group rollup first) builds what it derives from results over the generated rows, as it
# would on a production database, instead of the rows landing after it ran on empty tables.
DATA_REVISION = "f2c9d0e1a3b4"  # 0018, the history indexes
CHUNK = 500_000
RESULTS_PER_RUN = 4
YEARS = 3

JOBS: list[tuple[str, str, str, int]] = [
    # name, rw, bs, iodepth
    ("randread-4k", "randread", "4k", 32),
    ("randwrite-4k", "randwrite", "4k", 32),
    ("randrw-4k-70", "randrw", "4k", 32),
    ("seqread-1m", "read", "1M", 16),
    ("seqwrite-1m", "write", "1M", 16),
    ("randread-4k-qd1", "randread", "4k", 1),
    ("randrw-8k-50", "randrw", "8k", 16),
    ("seqread-128k", "read", "128k", 32),
    ("randwrite-16k", "randwrite", "16k", 32),
    ("randrw-64k", "randrw", "64k", 8),
    ("latency-4k-write", "randwrite", "4k", 1),
    ("seqwrite-128k", "write", "128k", 32),
    ("randrw-16k-70", "randrw", "16k", 32),
]
# Share of results per team; team 1 is the big one.
TEAM_WEIGHTS = [0.63, 0.12, 0.10, 0.07, 0.05, 0.03]
TARGETS_PER_TEAM = [220, 60, 50, 40, 30, 20]
HOSTS_PER_TEAM = [60, 16, 12, 10, 8, 6]


@dataclass(frozen=True)
class Layout:
    """Where each team's hosts and targets start (ids are consecutive per team)."""

    first_host: list[int]
    first_target: list[int]


def database_url(name: str) -> str:
    """The SQLAlchemy URL of database `name` on the admin URL's server."""
    base = ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}/{name}"


def libpq_url(name: str) -> str:
    """The libpq URL of database `name`."""
    return ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def existing_generation(name: str) -> dict[str, int] | None:
    """The (version, seed, results) a previous run generated in `name`, if it finished."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            return None
    with psycopg.connect(libpq_url(name), autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('bench_meta')").fetchone() == (None,):
            return None
        row = conn.execute("SELECT version, seed, results FROM bench_meta").fetchone()
    return None if row is None else {"version": row[0], "seed": row[1], "results": row[2]}


def recreate_database(name: str) -> None:
    """Drop and create database `name`."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(name: str) -> None:
    """Drop database `name` if it exists."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _rand(expr: str, salt: int) -> str:
    """SQL for a deterministic number in [0, 1) from an integer expression and a salt."""
    return f"((hashint8(({expr}) * 64 + {salt} + s.seed)::float8 + 2147483648) / 4294967296)"


def _seed_small_tables(conn: psycopg.Connection[tuple[object, ...]], seed: int) -> Layout:
    conn.execute(
        "INSERT INTO teams (name, created_at, updated_at) "
        "SELECT 'team ' || t, now(), now() FROM generate_series(1, %s) t",
        (len(TEAM_WEIGHTS),),
    )
    team_ids = [r[0] for r in conn.execute("SELECT id FROM teams ORDER BY id").fetchall()]
    # Results name their team by its number (1..6): the fresh database's teams have exactly those ids.
    assert team_ids == list(range(1, len(TEAM_WEIGHTS) + 1)), team_ids
    classes = conn.execute(
        "SELECT id, name FROM storage_classes WHERE team_id IS NULL ORDER BY id"
    ).fetchall()
    first_host, first_target = [], []
    for team_no, team_id in enumerate(team_ids):
        hosts = conn.execute(
            "INSERT INTO hosts (team_id, name, credential_hash, facts, labels, created_at, updated_at) "
            "SELECT %s, 'client-' || %s || '-' || h, md5(%s || '-' || h || '-' || %s), '{}', '[]', "
            "now(), now() "
            "FROM generate_series(1, %s) h RETURNING id",
            (team_id, team_no + 1, team_id, seed, HOSTS_PER_TEAM[team_no]),
        ).fetchall()
        first_host.append(min(int(str(r[0])) for r in hosts))
        targets = []
        for n in range(TARGETS_PER_TEAM[team_no]):
            class_id, class_name = classes[(n * 7 + team_no * 3 + seed) % len(classes)]
            host_id = first_host[-1] + n % HOSTS_PER_TEAM[team_no]
            targets.append(
                (team_id, host_id, f"vol-{team_no + 1}-{n + 1}", f"/mnt/vol{n + 1}", class_name, class_id)
            )
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO targets (team_id, host_id, name, path, kind, storage_class, storage_class_id, "
                "capacity_gib, destructive, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, 'directory', %s, %s, 1024, false, now(), now())",
                targets,
            )
        first = conn.execute("SELECT min(id) FROM targets WHERE team_id = %s", (team_id,)).fetchone()
        assert first is not None
        first_target.append(int(str(first[0])))
    return Layout(first_host=first_host, first_target=first_target)


def _int_array(values: list[int] | list[float]) -> str:
    return "ARRAY[" + ",".join(str(v) for v in values) + "]"


def _block_sql(layout: Layout, n_runs_expr: str) -> str:
    """SQL selecting one row per block of RESULTS_PER_RUN results: its team, target, host, plan, time."""
    cumulative, total = [], 0.0
    for weight in TEAM_WEIGHTS:
        total += weight
        cumulative.append(round(total, 4))
    team_case = " ".join(f"WHEN {_rand('b', 1)} < {c} THEN {i + 1}" for i, c in enumerate(cumulative[:-1]))
    return f"""
        SELECT b, team_no,
               first_target[team_no] + floor({_rand("b", 2)} ^ 2 * n_targets[team_no])::int AS target_id,
               first_host[team_no] + floor({_rand("b", 3)} * n_hosts[team_no])::int AS host_id,
               floor({_rand("b", 4)} * {len(JOBS)})::int AS plan,
               {_rand("b", 5)} < 0.15 AS imported,
               {_rand("b", 6)} AS noise
        FROM (SELECT b, CASE {team_case} ELSE {len(TEAM_WEIGHTS)} END AS team_no
              FROM generate_series(%(first_block)s::bigint, %(last_block)s::bigint) b, seed s) blocks,
             (SELECT {_int_array(layout.first_target)} AS first_target,
                     {_int_array(TARGETS_PER_TEAM)} AS n_targets,
                     {_int_array(layout.first_host)} AS first_host,
                     {_int_array(HOSTS_PER_TEAM)} AS n_hosts) l, seed s
    """


def _job_arrays() -> tuple[str, str, str, str]:
    jobs = "ARRAY[" + ",".join(f"'{j[0]}'" for j in JOBS) + "]"
    rws = "ARRAY[" + ",".join(f"'{j[1]}'" for j in JOBS) + "]"
    bss = "ARRAY[" + ",".join(f"'{j[2]}'" for j in JOBS) + "]"
    return jobs, rws, bss, _int_array([j[3] for j in JOBS])


# A result's figures are set by its job, its class, one of VARIANTS noise levels and whether its
# target has regressed: the JSON documents (options, detail) are built once per combination in
# bench_pool and joined in (building 10 M JSON documents one by one took most of an hour).
VARIANTS = 16
CLASS_SLOTS = 32
_IOPS = (
    "(500 + (class_key %% 16) * 4000) * (0.9 + 0.2 * (variant + 0.5) / {variants}) * (1 - 0.25 * regressed)"
)
_POOL_KEY = "((job_idx * {slots} + class_key) * {variants} + variant) * 2 + regressed"


def _pool_sql() -> str:
    """The bench_pool table: options and detail JSON per (job, class, noise level, regressed)."""
    _, rws, bss, qds = _job_arrays()
    iops = _IOPS.format(variants=VARIANTS).replace("%%", "%")
    key = _POOL_KEY.format(slots=CLASS_SLOTS, variants=VARIANTS)
    return f"""
    CREATE TABLE bench_pool AS
    SELECT {key} AS k,
           json_build_object('rw', rw, 'bs', bs, 'iodepth', qd::text, 'numjobs', '4', 'direct', '1',
                             'ioengine', 'libaio', 'runtime', '60', 'ramp_time', '10',
                             'time_based', '1', 'size', '10G', 'group_reporting', '1',
                             'filename', 'data/file1') AS options,
           {_detail_sql()} AS detail
    FROM (SELECT job_idx, class_key, variant, regressed, {iops} AS iops,
                 ({rws})[1 + job_idx] AS rw, ({bss})[1 + job_idx] AS bs, ({qds})[1 + job_idx] AS qd
          FROM generate_series(0, {len(JOBS) - 1}) job_idx, generate_series(0, {CLASS_SLOTS - 1}) class_key,
               generate_series(0, {VARIANTS - 1}) variant, generate_series(0, 1) regressed) combos
    """


def _chunk_sql(layout: Layout) -> str:
    """One statement writing the results of blocks first_block..last_block and their directions."""
    jobs, rws, _, qds = _job_arrays()
    return f"""
    WITH blk AS MATERIALIZED ({_block_sql(layout, "")}),
    g0 AS (
        SELECT b * {RESULTS_PER_RUN} + j + 1 AS id, blk.*, j, (plan + j) %% {len(JOBS)} AS job_idx,
               t.storage_class, t.name AS target_name, t.storage_class_id,
               t.storage_class_id %% {CLASS_SLOTS} AS class_key, h.name AS host_name,
               floor({_rand("b * 8 + j", 7)} * {VARIANTS})::int AS variant,
               (CASE WHEN {_rand("t.id", 8)} < 0.33 AND b::float8 / %(blocks)s::float8 > {_rand("t.id", 9)}
                     THEN 1 ELSE 0 END) AS regressed,
               -- three years of history in id order; imports were measured up to a year earlier
               timestamptz '2026-11-23 00:00:00+00' - interval '{YEARS} years'
                 + (b::float8 / %(blocks)s::float8) * interval '{YEARS} years'
                 - CASE WHEN imported THEN noise * interval '365 days' ELSE interval '0' END
                 + j * interval '70 seconds' AS measured_at
        FROM blk JOIN targets t ON t.id = blk.target_id JOIN hosts h ON h.id = blk.host_id,
             generate_series(0, {RESULTS_PER_RUN - 1}) j, seed s
    ),
    g AS MATERIALIZED (
        SELECT g0.*, ({jobs})[1 + job_idx] AS job_name, ({rws})[1 + job_idx] AS rw,
               ({qds})[1 + job_idx] AS qd,
               -- each class has its own scale; a third of targets lose 25 %% at a point in time
               {_IOPS.format(variants=VARIANTS)} AS iops,
               {_POOL_KEY.format(slots=CLASS_SLOTS, variants=VARIANTS)} AS k
        FROM g0
    ),
    runs_in AS (
        INSERT INTO runs (id, team_id, target_id, plan_name, jobs, confirmed_destructive, shared_files,
                          status, started_at, finished_at, repetitions, created_at, updated_at)
        SELECT b + 1, team_no, target_id, 'plan ' || plan, '[]', false, false, 'completed',
               min(measured_at) - interval '5 minutes', max(measured_at), 1, min(measured_at),
               max(measured_at)
        FROM g WHERE NOT imported GROUP BY b, team_no, target_id, plan
    ),
    results_in AS (
        INSERT INTO results (id, team_id, run_id, host_id, target_id, host_name, job_name, job_index,
                             fio_version, imported, storage_class, label, partial, options, cpu, detail,
                             error, storage_class_spec_id, spec_checks, findings, measured_at, repetition,
                             comparability, fingerprint, created_at, updated_at)
        SELECT id, team_no, CASE WHEN imported THEN NULL ELSE b + 1 END, host_id, target_id, host_name,
               job_name, j, 'fio-3.' || (28 + (b %% 9)), imported, storage_class,
               CASE WHEN imported THEN target_name || ' (import)' ELSE target_name END, false,
               p.options, '{{"usr_pct": 3.2, "sys_pct": 11.7, "ctx": 120345, "majf": 0, "minf": 77}}',
               p.detail, 0, storage_class_id, '[]', '[]', measured_at, 0, '{{}}',
               md5(target_id || '/' || job_name || '/' || (b %% 9)), measured_at, measured_at
        FROM g JOIN bench_pool p USING (k)
    )
    INSERT INTO result_directions (result_id, direction, iops, bw_bytes, io_bytes, runtime_ms, total_ios,
                                   lat_mean_ns, lat_min_ns, lat_max_ns, lat_stddev_ns, clat_p50_ns,
                                   clat_p90_ns, clat_p95_ns, clat_p99_ns, clat_p99_9_ns, clat_p99_99_ns)
    SELECT id, d.direction, iops * d.share, iops * d.share * 4096, (iops * d.share * 4096 * 60)::bigint,
           60000, (iops * d.share * 60)::bigint, 1e9 * qd / iops, 2e4, 4e7, 1e9 * qd / iops / 3,
           1e9 * qd / iops * 0.9, 1e9 * qd / iops * 1.6, 1e9 * qd / iops * 2, 1e9 * qd / iops * 3.5,
           1e9 * qd / iops * 6, 1e9 * qd / iops * 12
    FROM g CROSS JOIN LATERAL (
        SELECT 'read' AS direction, CASE WHEN g.rw = 'randrw' THEN 0.7 ELSE 1 END AS share
        WHERE g.rw IN ('randread', 'read', 'randrw')
        UNION ALL
        SELECT 'write', CASE WHEN g.rw = 'randrw' THEN 0.3 ELSE 1 END
        WHERE g.rw IN ('randwrite', 'write', 'randrw')
    ) d
    """


def _latency_json(scale: str) -> str:
    keys = (
        "1.000000",
        "5.000000",
        "10.000000",
        "50.000000",
        "90.000000",
        "95.000000",
        "99.000000",
        "99.500000",
        "99.900000",
        "99.990000",
    )
    factors = (0.3, 0.45, 0.55, 0.9, 1.6, 2.0, 3.5, 4.2, 6.0, 12.0)
    percentiles = ", ".join(f"'{k}', round({scale} * {f})" for k, f in zip(keys, factors, strict=True))
    return (
        f"json_build_object('min_ns', 20000, 'max_ns', 40000000, 'mean_ns', round({scale}), "
        f"'stddev_ns', round({scale} / 3), 'percentiles', json_build_object({percentiles}))"
    )


def _direction_json(share: str) -> str:
    lat = f"(1e9 * qd / (iops * {share}))"
    return (
        f"json_build_object('iops', iops * {share}, 'bw_bytes', round(iops * {share} * 4096), "
        f"'io_bytes', round(iops * {share} * 4096 * 60), 'runtime_ms', 60000, "
        f"'total_ios', round(iops * {share} * 60), 'short_ios', 0, 'dropped_ios', 0, "
        f"'lat_ns', {_latency_json(lat)}, 'clat_ns', {_latency_json(lat + ' * 0.97')}, "
        f"'slat_ns', json_build_object('min_ns', 900, 'max_ns', 90000, 'mean_ns', 2100, "
        f"'stddev_ns', 700, 'percentiles', json_build_object()))"
    )


def _detail_sql() -> str:
    return (
        "CASE rw WHEN 'randrw' THEN json_build_object("
        f"'read', {_direction_json('0.7')}, 'write', {_direction_json('0.3')}) "
        f"WHEN 'randread' THEN json_build_object('read', {_direction_json('1')}) "
        f"WHEN 'read' THEN json_build_object('read', {_direction_json('1')}) "
        f"ELSE json_build_object('write', {_direction_json('1')}) END"
    )


def _secondary_definitions(conn: psycopg.Connection[tuple[object, ...]]) -> tuple[list[str], list[str]]:
    """(CREATE INDEX statements, ADD CONSTRAINT statements) of results/result_directions, not the keys."""
    tables = ("results", "result_directions", "runs")
    indexes = conn.execute(
        "SELECT i.indexname, i.indexdef FROM pg_indexes i "
        "WHERE i.tablename = ANY(%s) AND i.indexname NOT IN ("
        "  SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u'))",
        (list(tables),),
    ).fetchall()
    constraints = conn.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE contype IN ('f', 'u') AND conrelid::regclass::text = ANY(%s)",
        (list(tables),),
    ).fetchall()
    for name, _ in indexes:
        conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(str(name))))
    for table, name, _ in constraints:
        conn.execute(
            sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}").format(
                sql.Identifier(str(table)), sql.Identifier(str(name))
            )
        )
    return (
        [str(definition) for _, definition in indexes],
        [f'ALTER TABLE "{t}" ADD CONSTRAINT "{n}" {d}' for t, n, d in constraints],
    )


def generate(name: str, results: int, seed: int, migrate: Callable[[str, str], None]) -> None:
    """Create database `name` with `results` results at DATA_REVISION (see the module docstring)."""
    started = time.monotonic()
    recreate_database(name)
    migrate(database_url(name), DATA_REVISION)
    blocks = results // RESULTS_PER_RUN
    with psycopg.connect(libpq_url(name), autocommit=True) as conn:
        conn.execute("SET synchronous_commit = off")
        conn.execute("SET work_mem = '256MB'")
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("CREATE TABLE seed (seed bigint)")
        conn.execute("INSERT INTO seed VALUES (%s)", (seed * 1_000_003,))
        layout = _seed_small_tables(conn, seed)
        conn.execute(_pool_sql().encode())
        conn.execute("ALTER TABLE bench_pool ADD PRIMARY KEY (k)")
        index_sql, constraint_sql = _secondary_definitions(conn)
        statement = _chunk_sql(layout)
        per_chunk = CHUNK // RESULTS_PER_RUN
        for first in range(0, blocks, per_chunk):
            last = min(blocks, first + per_chunk) - 1
            conn.execute(statement.encode(), {"first_block": first, "last_block": last, "blocks": blocks})
            done = (last + 1) * RESULTS_PER_RUN
            print(f"  {done:>10,} results written ({time.monotonic() - started:.0f} s)", flush=True)
        for table in ("runs", "results", "result_directions"):
            conn.execute(
                sql.SQL("SELECT setval(pg_get_serial_sequence({}, 'id'), (SELECT max(id) FROM {}))").format(
                    sql.Literal(table), sql.Identifier(table)
                )
            )
        for statement_text in index_sql:
            print(f"  {statement_text[:110]}", flush=True)
            conn.execute(statement_text.encode())
        for statement_text in constraint_sql:
            # NOT VALID: the generated rows are consistent by construction; checking 23 M rows buys nothing.
            if "FOREIGN KEY" in statement_text:
                statement_text += " NOT VALID"
            conn.execute(statement_text.encode())
        print(
            f"  indexes and constraints back ({time.monotonic() - started:.0f} s); VACUUM ANALYZE", flush=True
        )
        conn.execute("VACUUM ANALYZE")
        conn.execute("CREATE TABLE bench_meta (version int, seed int, results bigint)")
        conn.execute(
            "INSERT INTO bench_meta VALUES (%s, %s, %s)", (DATA_VERSION, seed, blocks * RESULTS_PER_RUN)
        )
    print(f"generated {blocks * RESULTS_PER_RUN:,} results in {time.monotonic() - started:.0f} s", flush=True)
