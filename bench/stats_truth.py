"""The comparison's statistics against known truth: generated repetitions with known effects, and with none.

For several repetitions per side (2 vs 3 up to 10 vs 10) and lognormal noise of realistic
coefficients of variation (2–20 %), prints:
  false+   the share of "better"/"worse" verdicts when nothing changed (should be ≤ alpha, 0.05);
  cover    the share of 95 % intervals that hold the true ratio, with and without an effect (≥ 0.93);
  found    the share of effects of ±10 % and −83 % that are called better or worse (the power);
  can't    the share of "can't tell" verdicts when nothing changed (the honest answer at small n).
Then the pooled false-positive rate and coverage over every cell, with the Monte Carlo error of one cell.
Fixed seeds: the same figures on every run. No services needed.

    .venv/bin/python bench/stats_truth.py [--trials 2000]
"""

import argparse
from collections.abc import Callable

import numpy as np
import report

from storbench_api.compare.stats import ALPHA, Verdict, VerdictKind, compare_many

SIZES = [(2, 3), (3, 3), (5, 5), (10, 10)]
CVS = [0.02, 0.05, 0.10, 0.20]
EFFECTS = [1.10, 0.90, 0.17]
BASE = 10_000.0


def _draw(rng: np.random.Generator, trials: int, n: int, cv: float, ratio: float) -> np.ndarray:
    sigma = float(np.sqrt(np.log1p(cv**2)))
    return BASE * ratio * rng.lognormal(0.0, sigma, size=(trials, n))


def _verdicts(
    rng: np.random.Generator, trials: int, sizes: tuple[int, int], cv: float, ratio: float
) -> list[Verdict]:
    n_base, n_other = sizes
    baseline, other = _draw(rng, trials, n_base, cv, 1.0), _draw(rng, trials, n_other, cv, ratio)
    return compare_many(baseline.tolist(), other.tolist(), [True] * trials)


def _share(verdicts: list[Verdict], test: Callable[[Verdict], bool]) -> float:
    return sum(1 for v in verdicts if test(v)) / len(verdicts)


def _changed(v: Verdict) -> bool:
    return v.kind in (VerdictKind.better, VerdictKind.worse)


def _covers(ratio: float) -> Callable[[Verdict], bool]:
    return lambda v: v.ci_low is not None and v.ci_high is not None and v.ci_low <= ratio <= v.ci_high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2000)
    trials = parser.parse_args().trials
    print(f"stats truth: {trials} trials per cell, alpha {ALPHA}, nominal coverage 0.95")
    header = f"{'n':>8} {'cv':>5} {'false+':>7} {'cover0':>7} {'cover+10%':>9} {'can' + chr(39) + 't':>6}"
    header += "".join(f" {f'found {e - 1:+.0%}':>11}" for e in EFFECTS)
    print(header)
    false_all, cover_all = [], []
    for sizes in SIZES:
        for cv in CVS:
            rng = np.random.default_rng(hash((sizes, cv)) % 2**32)
            null = _verdicts(rng, trials, sizes, cv, 1.0)
            shifted = _verdicts(rng, trials, sizes, cv, 1.10)
            false_pos, cover0, cover1 = (
                _share(null, _changed),
                _share(null, _covers(1.0)),
                _share(shifted, _covers(1.10)),
            )
            found = [_share(_verdicts(rng, trials, sizes, cv, e), _changed) for e in EFFECTS]
            cant = _share(null, lambda v: v.kind is VerdictKind.cant_tell)
            false_all.append(false_pos)
            cover_all.extend([cover0, cover1])
            line = f"{sizes[1]:>3} v {sizes[0]:<2} {cv:>5.0%} {false_pos:>7.3f} {cover0:>7.3f}"
            line += f" {cover1:>9.3f} {cant:>6.2f}"
            print(line + "".join(f" {share:>11.2f}" for share in found))
    # Each cell's share carries Monte Carlo error (± about 0.005 at 2000 trials): a test of exact size
    # alpha lands above it in some cells. The pooled shares are what to hold against the targets.
    error = float(np.sqrt(ALPHA * (1 - ALPHA) / trials))
    print(f"per-cell Monte Carlo standard error at alpha: ±{error:.3f}")
    print(
        f"false-positive rate: pooled {np.mean(false_all):.3f}, worst cell {max(false_all):.3f}",
        f"(target ≤ {ALPHA})",
    )
    print(
        f"coverage: pooled {np.mean(cover_all):.3f}, worst cell {min(cover_all):.3f} (target ≥ 0.93 at 0.95)"
    )
    pooled_false, pooled_cover = float(np.mean(false_all)), float(np.mean(cover_all))
    report.note("stats_truth", f"{trials} trials per cell, alpha {ALPHA}")
    report.record(
        "stats_truth",
        "false-positive rate, pooled",
        round(pooled_false, 3),
        "",
        f"<= {ALPHA}",
        pooled_false <= ALPHA,
    )
    report.record(
        "stats_truth",
        "coverage of 95 % intervals, pooled",
        round(pooled_cover, 3),
        "",
        ">= 0.93",
        pooled_cover >= 0.93,
    )


if __name__ == "__main__":
    main()
