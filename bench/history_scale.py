"""History at scale: ten million results in PostgreSQL, the product's queries against hand-written SQL.

    .venv/bin/python bench/history_scale.py [--results 10000000] [--seed 13] [--repeat 20]

Generates (once; reused while the seed, size and data version match) a dedicated database
(history_scale_data.py: six teams, one with ~63 % of the results, hundreds of targets on the 16
published classes, three years of measured_at, ~1.3 directions per result), brings it to the newest
migration, ANALYZEs it, then times each query of the product (called as the API calls it, with a
Session) beside a hand-written SQL query answering the same question on the same database:
the results list (first page, a page 100,000 rows deep, each filter), the trend, the compare, the
grouped-by-class and the regressions queries, and the list as it was before keyset pages (exact
COUNT(*) and OFFSET). Prints p50/p95 of each, the ratio to hand-written SQL, and the EXPLAIN
(ANALYZE, BUFFERS) of every statement. Targets: p95 < 100 ms and ≤ 2× hand-written.
"""

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "bench"))

import history_scale_data as data  # noqa: E402
import report as bench_report  # noqa: E402
from alembic import command  # noqa: E402
from benchstack import nearest_rank  # noqa: E402
from sqlalchemy import Connection, Engine, event, func, inspect, select, text  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402
from sqlalchemy.schema import CreateIndex  # noqa: E402

from storbench_api.cli import alembic_config  # noqa: E402
from storbench_api.db import Base, build_engine  # noqa: E402
from storbench_api.main import settle_heap  # noqa: E402
from storbench_api.models import Result  # noqa: E402
from storbench_api.results import listing  # noqa: E402
from storbench_api.results import service as results_service  # noqa: E402
from storbench_api.results.filters import ResultFilters  # noqa: E402
from storbench_api.results.repository import EXACT_COUNT_CAP  # noqa: E402

TARGET_P95_MS = 100.0
TARGET_RATIO = 2.0
PAGE = 50
DEEP_ROWS = 100_000
# A nested loop of a few thousand index probes runs faster than parallel workers start (2 cores).
SERIAL_PLAN_SQL = "SELECT set_config('max_parallel_workers_per_gather', '0', true)"
# Tables whose model indexes the bench creates when missing, and vacuums before timing.
INDEXED_TABLES = ("results", "result_directions", "runs", "change_points")
STATISTICS = "st_results_team_dependencies"
STATISTICS_ON = "ON team_id, target_id, storage_class, label, host_name FROM results"


def migrate(url: str, revision: str = "head") -> None:
    """Bring the database at url to a migration (the newest unless told)."""
    config = alembic_config()
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, revision)


def ensure_model_indexes(engine: Engine) -> None:
    """Create any index the models declare that the database lacks (an index added to a migration
    after the database was generated), then ANALYZE what changed."""
    existing = {
        (table, index["name"]) for table in INDEXED_TABLES for index in inspect(engine).get_indexes(table)
    }
    created = set()
    with engine.begin() as conn:
        for table in INDEXED_TABLES:
            for index in Base.metadata.tables[table].indexes:
                if (table, index.name) not in existing:
                    print(f"  creating {index.name}", flush=True)
                    conn.execute(CreateIndex(index))
                    created.add(table)
        # As migration 0013 (a database generated before it had them).
        statistics = conn.scalar(
            text("SELECT count(*) FROM pg_statistic_ext WHERE stxname = :n"), {"n": STATISTICS}
        )
        if not statistics:
            print(f"  creating statistics {STATISTICS}", flush=True)
            conn.execute(text(f"CREATE STATISTICS {STATISTICS} (dependencies) {STATISTICS_ON}"))
            created.add("results")
        for table in created:
            conn.execute(text(f"ANALYZE {table}"))


def vacuum(engine: Engine) -> None:
    """VACUUM (ANALYZE) the tables the questions read: the trend's index-only scans skip the row only
    on pages the visibility map marks all-visible. In production autovacuum keeps it current; a
    database just generated, or indexed by a migration, has not been visited by it yet."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        for table in INDEXED_TABLES:
            started = time.perf_counter()
            conn.execute(text(f"VACUUM (ANALYZE) {table}"))
            print(f"  vacuum (analyze) {table}: {time.perf_counter() - started:.1f} s", flush=True)


def ensure_change_points(engine: Engine) -> None:
    """One change point per 500 results (a regression at a quarter of them, half acknowledged)."""
    with engine.begin() as conn:
        if conn.scalar(text("SELECT count(*) FROM change_points")):
            return
        conn.execute(
            text(
                "INSERT INTO change_points (team_id, target_id, job_name, direction, metric, fingerprint, "
                "result_id, measured_at, kind, before_median, after_median, ratio, p_value, method, "
                "detected_at, acknowledged_at, acknowledged_by, comment) "
                "SELECT r.team_id, r.target_id, r.job_name, 'read', 'iops', r.fingerprint, r.id, "
                "r.measured_at, "
                "CASE WHEN r.id % 4 = 0 THEN 'improvement' ELSE 'regression' END, 1000, 750, 0.75, 0.001, "
                "'e-divisive means', r.measured_at + interval '1 minute', "
                "CASE WHEN r.id % 2 = 0 THEN r.measured_at + interval '1 day' END, "
                "CASE WHEN r.id % 2 = 0 THEN 'ops@example.com' END, NULL "
                "FROM results r WHERE r.id % 500 = 0 AND r.target_id IS NOT NULL"
            )
        )
        conn.execute(text("ANALYZE change_points"))


@dataclass
class Case:
    """One question, asked of the product and of hand-written SQL."""

    name: str
    ours: Callable[[Session], object]
    hand: list[tuple[str, dict[str, Any]]]
    repeat: int | None = None
    ours_ms: list[float] = field(default_factory=list)
    hand_ms: list[float] = field(default_factory=list)
    statements: list[tuple[str, Any]] = field(default_factory=list)


@contextmanager
def captured(engine: Engine, into: list[tuple[str, Any]]) -> Iterator[None]:
    """Record the SQL statements (and parameters) executed on engine meanwhile."""

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        into.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", record)


def run_hand(db: Session, statements: list[tuple[str, dict[str, Any]]]) -> None:
    """Execute hand-written SQL on the session's connection and fetch everything."""
    for sql, params in statements:
        db.execute(text(sql), params).fetchall()


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def measure(engine: Engine, case: Case, repeat: int) -> None:
    """Warm up, then alternate the product's call and the hand-written SQL, `repeat` times each.

    Each call starts as a request does, without a connection: it checks one out of the pool and its
    first statement begins the transaction. (Rolling back only after both sides charged that round
    trip to the product's side alone: a third of a 1 ms query.)
    """
    with Session(engine) as db:
        with captured(engine, case.statements):
            case.ours(db)
        for _ in range(2):
            case.ours(db)
            run_hand(db, case.hand)
            db.rollback()
        for _ in range(case.repeat or repeat):
            case.ours_ms.append(timed(lambda: case.ours(db)))
            db.rollback()
            case.hand_ms.append(timed(lambda: run_hand(db, case.hand)))
            db.rollback()


# The statements of one side of a case share a connection and its transaction (rolled back after),
# so a setting one makes (set_config(..., true)) holds for the next, as when they were timed.
def explain(conn: Connection, statement: str, parameters: Any) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) of one statement as the driver ran it."""
    raw = conn.exec_driver_sql(f"EXPLAIN (ANALYZE, BUFFERS) {statement}", parameters or {})
    return [str(row[0]) for row in raw]


def explain_text(conn: Connection, sql: str, params: dict[str, Any]) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) of a hand-written statement; one that is an EXPLAIN already (the
    list's estimate of its total) is shown as it answers."""
    if sql.lstrip().upper().startswith("EXPLAIN"):
        return [str(row[0])[:400] for row in conn.execute(text(sql), params)]
    return [str(row[0]) for row in conn.execute(text(f"EXPLAIN (ANALYZE, BUFFERS) {sql}"), params)]


def _one(engine: Engine, sql: str, **params: Any) -> Any:
    with engine.connect() as conn:
        return conn.execute(text(sql), params).first()


_LIST_COLUMNS = (
    "id, team_id, run_id, target_id, storage_class, label, created_at, measured_at, job_name, host_name, "
    "fio_version, imported, partial, detail, cpu, options, error, storage_class_spec_id, spec_checks, "
    "findings"
)
_FILTER_SQL = {
    "target_id": "target_id = :target_id",
    "storage_class": "storage_class = :storage_class",
    "imported": "imported = :imported",
    "job_name": "job_name = :job_name",
    "label": "label = :label",
    "host_name": "host_name = :host_name",
    "run_id": "run_id = :run_id",
    "measured_after": "measured_at >= :measured_after",
    "measured_before": "measured_at < :measured_before",
}


def hand_list(
    engine: Engine, team_id: int, filters: dict[str, Any], after: tuple[Any, int] | None
) -> list[tuple[str, dict[str, Any]]]:
    """The same page and total, written by hand: the count capped at 10,001 rows, and past the cap
    the planner's estimate, as the list gives it (whether this filter passes the cap is asked once
    here, so the timed statements are fixed)."""
    where = " AND ".join(["team_id = :team_id", *(_FILTER_SQL[k] for k in filters)])
    params = {"team_id": team_id, **filters}
    page = f"SELECT {_LIST_COLUMNS} FROM results WHERE {where}"
    if after is not None:
        page += " AND (measured_at, id) < (:after_m, :after_i)"
        params.update(after_m=after[0], after_i=after[1])
    page += f" ORDER BY measured_at DESC, id DESC LIMIT {PAGE + 1}"
    cap = EXACT_COUNT_CAP + 1
    count = f"SELECT count(*) FROM (SELECT 1 FROM results WHERE {where} LIMIT {cap}) capped"
    statements = [(page, params), (count, params)]
    if _one(engine, count, **params)[0] > EXACT_COUNT_CAP:
        statements.append((f"EXPLAIN (FORMAT JSON) SELECT id FROM results WHERE {where}", params))
    return statements


def legacy_list(team_id: int, filters: dict[str, Any], offset: int) -> list[tuple[str, dict[str, Any]]]:
    """GET /results before keyset pages: exact COUNT(*) and ORDER BY id DESC OFFSET n."""
    where = " AND ".join(["team_id = :team_id", *(_FILTER_SQL[k] for k in filters)])
    params = {"team_id": team_id, **filters}
    return [
        (f"SELECT count(*) FROM (SELECT * FROM results WHERE {where}) anon", params),
        (f"SELECT * FROM results WHERE {where} ORDER BY id DESC LIMIT {PAGE} OFFSET {offset}", params),
    ]


def list_call(team_id: int, filters: ResultFilters, cursor: str | None = None) -> Callable[[Session], object]:
    """GET /results as the router calls it (the service: page, cursor, count, response bodies)."""
    return lambda db: results_service.list_results(db, team_id, filters, PAGE, cursor)


def hand_call(statements: list[tuple[str, dict[str, Any]]]) -> Callable[[Session], object]:
    return lambda db: run_hand(db, statements)


def list_cases(engine: Engine) -> list[Case]:
    """The results list: first page, a deep page, each filter, on the big team and a small one."""
    big, small = 1, 6
    target = _one(
        engine,
        "SELECT target_id, count(*) n FROM results WHERE team_id = :t AND target_id IS NOT NULL "
        "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        t=big,
    )[0]
    sample = _one(
        engine,
        "SELECT storage_class, job_name, label, host_name, run_id FROM results "
        "WHERE team_id = :t AND run_id IS NOT NULL ORDER BY id DESC LIMIT 1",
        t=big,
    )
    storage_class, job_name, label, host_name, run_id = sample
    newest = _one(engine, "SELECT max(measured_at) FROM results")[0]
    month = {"measured_after": newest.replace(day=1), "measured_before": newest}
    filters: dict[str, dict[str, Any]] = {
        "no filter": {},
        "target_id": {"target_id": target},
        "storage_class": {"storage_class": storage_class},
        "imported": {"imported": True},
        "job_name": {"job_name": job_name},
        "label": {"label": label},
        "host_name": {"host_name": host_name},
        "run_id": {"run_id": run_id},
        "measured_after/before (a month)": month,
        "job_name + target_id": {"job_name": job_name, "target_id": target},
    }
    cases = []
    for name, values in filters.items():
        f = ResultFilters(**values)
        cases.append(
            Case(
                f"list, {name}",
                list_call(big, f),
                hand_list(engine, big, values, None),
            )
        )
    deep = _one(
        engine,
        f"SELECT measured_at, id FROM results WHERE team_id = :t ORDER BY measured_at DESC, id DESC "
        f"OFFSET {DEEP_ROWS} LIMIT 1",
        t=big,
    )
    cursor = listing.encode_cursor(listing.Position(deep[0], deep[1]), ResultFilters())
    cases.append(
        Case(
            f"list, page {DEEP_ROWS:,} rows deep (cursor)",
            list_call(big, ResultFilters(), cursor),
            hand_list(engine, big, {}, (deep[0], deep[1])),
        )
    )
    cases.append(
        Case(
            "list, small team, storage_class",
            list_call(small, ResultFilters(storage_class=storage_class)),
            hand_list(engine, small, {"storage_class": storage_class}, None),
        )
    )
    for name, values, offset in (
        ("no filter", {}, 0),
        ("storage_class", {"storage_class": storage_class}, 0),
        ("target_id", {"target_id": target}, 0),
        (f"offset {DEEP_ROWS:,}", {}, DEEP_ROWS),
    ):
        legacy = legacy_list(big, values, offset)
        cases.append(
            Case(
                f"BEFORE list (COUNT(*) + OFFSET), {name}",
                hand_call(legacy),
                hand_list(engine, big, values, None),
                repeat=5,
            )
        )
    return cases


def analysis_cases(engine: Engine) -> list[Case]:
    """Trend, compare, grouped-by-class and regressions: the repository functions the API calls."""
    from storbench_api.compare import repository as compare_repo
    from storbench_api.history import repository as history_repo
    from storbench_api.models import Run
    from storbench_api.rollup import repository as rollup_repo

    big = 1
    target, job = _one(
        engine,
        "SELECT target_id, job_name FROM results WHERE team_id = :t AND target_id IS NOT NULL "
        "AND job_name = 'randread-4k' GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1",
        t=big,
    )
    key = history_repo.SeriesKey(team_id=big, target_id=target, job_name=job, direction="read", metric="iops")
    trend_sql = (
        "SELECT r.id, r.measured_at, d.iops, r.fingerprint, r.run_id, r.host_name, r.repetition "
        "FROM results r JOIN result_directions d ON d.result_id = r.id AND d.direction = 'read' "
        "WHERE r.team_id = :t AND r.target_id = :target AND r.job_name = :job AND d.iops IS NOT NULL "
        "ORDER BY r.measured_at DESC, r.id DESC LIMIT 5000"
    )
    trend_params = {"t": big, "target": target, "job": job}
    marks_sql = (
        "SELECT * FROM change_points WHERE team_id = :t AND target_id = :target AND job_name = :job "
        "AND direction = 'read' AND metric = 'iops' ORDER BY measured_at, result_id"
    )

    run_id, previous_id = _one(
        engine,
        "SELECT r.id, (SELECT max(p.id) FROM runs p WHERE p.team_id = r.team_id "
        "AND p.target_id = r.target_id "
        "AND p.plan_name = r.plan_name AND p.id < r.id) FROM runs r WHERE r.team_id = :t "
        "ORDER BY r.id DESC LIMIT 1",
        t=big,
    )
    run_target, run_plan = _one(engine, "SELECT target_id, plan_name FROM runs WHERE id = :r", r=run_id)
    ids = [
        row[0]
        for row in Session(engine).execute(
            text("SELECT id FROM results WHERE run_id IN (:a, :b) ORDER BY id"),
            {"a": run_id, "b": previous_id},
        )
    ]

    def compare(db: Session) -> object:
        run = db.get(Run, run_id)
        assert run is not None
        compare_repo.previous_run(db, run)
        return compare_repo.results_with_runs(db, big, ids)

    compare_sql = [
        ("SELECT * FROM runs WHERE id = :run", {"run": run_id}),
        # The run's team, target and plan are known from the row above (as the product knows them).
        (
            "SELECT p.* FROM runs p WHERE p.team_id = :t AND p.target_id = :target AND p.plan_name = :plan "
            "AND p.id < :run AND p.status IN ('completed', 'cancelled', 'failed') "
            "AND EXISTS (SELECT 1 FROM results x WHERE x.run_id = p.id) ORDER BY p.id DESC LIMIT 1",
            {"t": big, "target": run_target, "plan": run_plan, "run": run_id},
        ),
        (
            "SELECT r.*, u.* FROM results r LEFT JOIN runs u ON u.id = r.run_id "
            "WHERE r.team_id = :t AND r.id = ANY(:ids)",
            {"t": big, "ids": ids},
        ),
        ("SELECT * FROM result_directions WHERE result_id = ANY(:ids)", {"ids": ids}),
    ]

    def groups_sql(extra: str) -> str:
        # The best a person writes on this schema: the rollup's rows of the figure, the class each
        # resolves to (as stored, else its spec's or target's class), histograms summed per bin,
        # quartiles from the cumulative counts (bin's geometric middle), n/min/max from the rows.
        rows = (
            "SELECT coalesce(nullif(g.storage_class, ''), c.name, '(none)') AS class, g.rw, g.bs, "
            "g.iodepth, g.numjobs, g.n, g.low, g.high, g.bins, g.counts FROM group_rollups g "
            "LEFT JOIN storage_class_specs sp ON sp.id = g.storage_class_spec_id "
            "LEFT JOIN targets t ON t.id = g.target_id "
            "LEFT JOIN storage_classes c ON c.id = coalesce(sp.storage_class_id, t.storage_class_id) "
            f"WHERE g.team_id = :t AND g.direction = 'read' AND g.figure = 'iops' {extra}"
        )
        keys = "class, rw, bs, iodepth, numjobs"
        middle = "exp((min(bin) FILTER (WHERE upto >= {} * total) + 0.5) * ln(1.01::float8))"
        quartiles = ", ".join(middle.format(q) for q in (0.25, 0.5, 0.75))
        return (
            f"WITH rows AS ({rows}), "
            f"bins AS (SELECT {keys}, x.bin::int AS bin, sum(x.cnt::int) AS cnt FROM rows, "
            "ROWS FROM (json_array_elements_text(rows.bins), json_array_elements_text(rows.counts)) "
            f"AS x(bin, cnt) GROUP BY {keys}, 6), "
            f"cum AS (SELECT {keys}, bin, sum(cnt) OVER (PARTITION BY {keys} ORDER BY bin) AS upto, "
            f"sum(cnt) OVER (PARTITION BY {keys}) AS total FROM bins), "
            f"q AS (SELECT {keys}, {quartiles} FROM cum GROUP BY {keys}), "
            f"r AS (SELECT {keys}, sum(n), min(low), max(high) FROM rows GROUP BY {keys}) "
            f"SELECT * FROM r JOIN q USING ({keys})"
        )

    def grouped(filters: Any) -> Callable[[Session], object]:
        from storbench_api.compare import grouping
        from storbench_api.compare.schemas import CompareDirection, GroupBy
        from storbench_api.figures.definition import Figure

        return lambda db: grouping.groups(
            db, big, GroupBy.storage_class, Figure.iops, CompareDirection.read, filters
        )

    regressions_sql = [
        (
            "SELECT * FROM change_points WHERE team_id = :t ORDER BY detected_at DESC, id DESC LIMIT 50",
            {"t": big},
        ),
        ("SELECT count(*) FROM change_points WHERE team_id = :t", {"t": big}),
        ("SELECT count(*) FROM change_points WHERE team_id = :t AND acknowledged_at IS NULL", {"t": big}),
    ]

    # The trend's job picker: counts from the rollup, each series' newest point down its index.
    series_sql = (
        "SELECT g.job_name, g.direction, g.results, ("
        "  SELECT r.measured_at FROM results r JOIN result_directions d ON d.result_id = r.id "
        "  AND d.direction = g.direction WHERE r.team_id = :t AND r.target_id = :target "
        "  AND r.job_name = g.job_name ORDER BY r.measured_at DESC LIMIT 1) "
        "FROM (SELECT job_name, direction, sum(n) AS results FROM group_rollups WHERE team_id = :t "
        "  AND target_id = :target AND figure = 'iops' GROUP BY 1, 2) g "
        "WHERE g.results > 0 ORDER BY 1, 2"
    )

    def regressions(db: Session) -> object:
        history_repo.list_change_points(db, big, limit=50, offset=0)
        return history_repo.count_unacknowledged(db, big)

    return [
        Case(
            "trend (5,000 newest points of a series)",
            lambda db: history_repo.trend_points(db, key, limit=5000),
            # As the product: the same query planned without parallel workers (history.repository).
            [(SERIAL_PLAN_SQL, {}), (trend_sql, trend_params)],
        ),
        Case(
            "trend marks (the series' change points)",
            lambda db: history_repo.series_change_points(db, key),
            [(marks_sql, trend_params)],
        ),
        Case(f"compare ({len(ids)} results of a run and its previous run)", compare, compare_sql),
        Case(
            "grouped by class (every result of the team, rollup)",
            grouped(ResultFilters()),
            [(groups_sql(""), {"t": big})],
        ),
        Case(
            "grouped by class, one job (rollup)",
            grouped(ResultFilters(job_name=job)),
            [(groups_sql("AND g.job_name = :job"), {"t": big, "job": job})],
        ),
        Case("regressions (newest 50, total, unacknowledged)", regressions, regressions_sql),
        Case(
            "series of a target (the trend's job picker, rollup)",
            lambda db: rollup_repo.jobs_of_target(db, big, target),
            [(series_sql, {"t": big, "target": target})],
        ),
    ]


def verdict(case: Case) -> str:
    ours95, hand95 = nearest_rank(case.ours_ms, 0.95), nearest_rank(case.hand_ms, 0.95)
    if case.name.startswith("BEFORE"):
        return ""
    problems = []
    if ours95 >= TARGET_P95_MS:
        problems.append(f"p95 ≥ {TARGET_P95_MS:.0f} ms")
    if ours95 > TARGET_RATIO * hand95:
        problems.append(f"> {TARGET_RATIO:.0f}× hand-written")
    return "ok" if not problems else "MISSED: " + ", ".join(problems)


def report(cases: list[Case]) -> None:
    print()
    print(f"{'question':<58} {'ours p50':>9} {'p95':>8}  {'hand p50':>9} {'p95':>8}  {'ratio':>6}  verdict")
    for case in cases:
        ours50, ours95 = nearest_rank(case.ours_ms, 0.5), nearest_rank(case.ours_ms, 0.95)
        hand50, hand95 = nearest_rank(case.hand_ms, 0.5), nearest_rank(case.hand_ms, 0.95)
        label = "(new)" if case.name.startswith("BEFORE") else ""
        print(
            f"{case.name:<58} {ours50:>8.1f}ms {ours95:>6.1f}ms  {hand50:>8.1f}ms {hand95:>6.1f}ms  "
            f"{ours95 / hand95:>5.2f}×  {verdict(case)}{label}"
        )
    print("(ratio: ours p95 / hand-written p95; BEFORE rows: the old list against the new hand-written page)")


def record_figures(cases: list[Case], results: int) -> None:
    """The figures of make bench's report (bench/report.py): each question's p50 / p95 and verdict."""
    bench_report.note("history_scale", f"{results:,} results; the product's call beside hand-written SQL")
    for case in cases:
        if case.name.startswith("BEFORE"):
            continue
        ours95, hand95 = nearest_rank(case.ours_ms, 0.95), nearest_rank(case.hand_ms, 0.95)
        value = f"{nearest_rank(case.ours_ms, 0.5):.1f} / {ours95:.1f} (hand-written p95 {hand95:.1f})"
        target = f"p95 < {TARGET_P95_MS:.0f} ms, <= {TARGET_RATIO:.0f}x hand-written"
        bench_report.record(
            "history_scale", f"{case.name}, p50 / p95", value, "ms", target, verdict(case) == "ok"
        )


def print_explains(engine: Engine, cases: list[Case]) -> None:
    for case in cases:
        print(f"\n=== EXPLAIN (ANALYZE, BUFFERS): {case.name}")
        statements = case.statements or [(sql, params) for sql, params in case.hand]
        with engine.connect() as conn:
            for statement, parameters in statements:
                if statement.lstrip().upper().startswith("EXPLAIN"):
                    continue
                first = " ".join(statement.split())[:160]
                print(f"--- ours: {first}")
                try:
                    lines = (
                        explain(conn, statement, parameters)
                        if case.statements
                        else explain_text(conn, statement, parameters)
                    )
                except Exception as exc:
                    print(f"    (no plan: {exc})")
                    conn.rollback()
                    continue
                for line in lines:
                    print(f"    {line}")
            conn.rollback()
        if case.statements:
            with engine.connect() as conn:
                for sql, params in case.hand:
                    print(f"--- hand-written: {' '.join(sql.split())[:160]}")
                    for line in explain_text(conn, sql, params):
                        print(f"    {line}")
                conn.rollback()


def estimate_accuracy(engine: Engine) -> None:
    """The list's total beside the exact count, for each filter of the big team (counted once, slowly)."""
    from storbench_api.results import repository as results_repo

    print("\n=== total: what the list says (exact up to 10,000, else the planner's estimate) vs COUNT(*)")
    team = 1
    with Session(engine) as db:
        sample = db.execute(
            text(
                "SELECT target_id, storage_class, job_name, label, host_name FROM results "
                "WHERE team_id = :t AND target_id IS NOT NULL ORDER BY id DESC LIMIT 1"
            ),
            {"t": team},
        ).one()
        for name, filters in (
            ("no filter", ResultFilters()),
            ("target_id", ResultFilters(target_id=sample[0])),
            ("storage_class", ResultFilters(storage_class=sample[1])),
            ("imported", ResultFilters(imported=True)),
            ("job_name", ResultFilters(job_name=sample[2])),
            ("label", ResultFilters(label=sample[3])),
            ("host_name", ResultFilters(host_name=sample[4])),
            ("job_name + target_id", ResultFilters(job_name=sample[2], target_id=sample[0])),
        ):
            said, estimated = results_repo.count_results(db, team, filters)
            conditions = results_repo._conditions(team, filters)
            exact = db.scalar(select(func.count()).select_from(Result).where(*conditions)) or 0
            kind = "estimate" if estimated else "exact"
            print(
                f"  {name:<24} says {said:>10,} ({kind:<8}) exact {exact:>10,}  "
                f"ratio {said / max(exact, 1):.2f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--results", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--database", default="storbench_bench_scale")
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per question")
    parser.add_argument("--regenerate", action="store_true", help="generate again even if the data matches")
    parser.add_argument("--drop", action="store_true", help="drop the database at the end")
    parser.add_argument("--only", choices=("list", "analysis"), help="bench only these questions")
    parser.add_argument("--no-explain", action="store_true")
    args = parser.parse_args()

    wanted = {
        "version": data.DATA_VERSION,
        "seed": args.seed,
        "results": args.results // data.RESULTS_PER_RUN * data.RESULTS_PER_RUN,
    }
    found = data.existing_generation(args.database)
    if args.regenerate or found != wanted:
        print(f"generating {args.results:,} results in {args.database} (found: {found})", flush=True)
        data.generate(args.database, args.results, args.seed, migrate)
    else:
        print(f"reusing {args.database}: {found}", flush=True)
    url = data.database_url(args.database)
    started = time.monotonic()
    migrate(url)
    print(f"migrated to head in {time.monotonic() - started:.0f} s", flush=True)
    engine = build_engine(url)
    with engine.connect() as conn:
        rollup_rows = conn.scalar(text("SELECT count(*) FROM group_rollups"))
    print(f"group rollup: {rollup_rows:,} rows", flush=True)
    if not rollup_rows:
        sys.exit("the group rollup is empty: grouped views would be timed on nothing (--regenerate)")
    ensure_model_indexes(engine)
    ensure_change_points(engine)
    vacuum(engine)
    # What `storbench-api serve` does once started (main.create_served_app): the long-lived heap
    # frozen out of the collector's full passes.
    settle_heap()
    with open("/proc/loadavg") as loadavg:
        print(f"load average before timing: {loadavg.read().split()[:3]} on {os.cpu_count()} cores")
    cases: list[Case] = []
    if args.only in (None, "list"):
        cases += list_cases(engine)
    if args.only in (None, "analysis"):
        cases += analysis_cases(engine)
    for case in cases:
        print(f"  timing: {case.name}", flush=True)
        measure(engine, case, args.repeat)
    report(cases)
    if args.only in (None, "list"):
        estimate_accuracy(engine)
    if not args.no_explain:
        print_explains(engine, cases)
    report(cases)
    record_figures(cases, wanted["results"])
    engine.dispose()
    if args.drop:
        data.drop_database(args.database)
    return 0


if __name__ == "__main__":
    sys.exit(main())
