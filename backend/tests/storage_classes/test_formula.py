"""Spec formulas are read by a tiny grammar: vendors' formulas work, nothing else runs."""

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storbench_api.storage_classes.formula import MAX_FORMULA_LENGTH, FormulaError, parse_formula


@pytest.mark.parametrize(
    ("formula", "capacity", "expected"),
    [
        ("min(1200 + 30 * C, 20000)", 800, 20000),  # SSD cloud disk, the worked check
        ("min(80 + 0.5 * C, 300)", 800, 300),
        ("min(1200 + 100 * C, 1000000)", 2000, 201200),  # ESSD
        ("min(80 + 1 * C, 4000)", 2000, 2080),
        ("min(1000 + 6 * C, 3000)", 100, 1600),  # efficiency
        ("min(50 + 0.1 * C, 80)", 100, 60),
        ("min(1200 + 30 × capacity_gib, 20_000)", 100, 4200),
        ("max(C / 4, 100) - -1", 800, 201),
        ("1000 / (9 + 4.17)", None, 1000 / 13.17),
        ("2 · (C - 10) / 5", 20, 4),
    ],
)
def test_vendor_formulas_evaluate_as_published(formula: str, capacity: float | None, expected: float) -> None:
    assert parse_formula(formula).evaluate(capacity_gib=capacity) == pytest.approx(expected)


def test_a_formula_is_shown_in_one_spelling() -> None:
    assert parse_formula("min(1200+30*C,20000)").canonical == "min(1200 + 30 × C, 20000)"
    assert parse_formula("(1 + 2) * C - (3 - 4)").canonical == "(1 + 2) × C - (3 - 4)"
    assert parse_formula("1000 / (9 + 4.17)").canonical == "1000 / (9 + 4.17)"


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("__import__('os').system('id')", 'unexpected character "\'"'),
        ("__import__(C, C)", "unknown name '__import__'"),
        ("C ** 2", "expected a number"),
        ("min(C)", "at least two values"),
        ("open(C, 1)", "unknown name 'open'"),
        ("1200 + 30 * C,", "unexpected ','"),
        ("(1 + 2", "expected ')'"),
        ("C; 1", "unexpected character ';'"),
        ("C.__class__", "unexpected character '.'"),
        ("1e9", "unexpected 'e9'"),
        ("-" * 40 + "1", "nested more than"),
        ("(" * 40 + "1" + ")" * 40, "nested more than"),
        ("1" * (MAX_FORMULA_LENGTH + 1), "at most"),
    ],
)
def test_a_bad_formula_is_refused_saying_what_is_wrong(formula: str, message: str) -> None:
    with pytest.raises(FormulaError, match=re.escape(message)):
        parse_formula(formula)


def test_an_error_names_the_character() -> None:
    with pytest.raises(FormulaError, match=r"at character 8"):
        parse_formula("1200 + $C")


def test_evaluation_needs_the_figures_the_formula_uses() -> None:
    formula = parse_formula("min(provisioned_iops, 50 * C)")
    assert formula.variables == {"provisioned_iops", "capacity_gib"}
    with pytest.raises(FormulaError, match="needs provisioned_iops"):
        formula.evaluate(capacity_gib=100)
    assert formula.evaluate(capacity_gib=100, provisioned_iops=3000) == 3000


def test_division_by_zero_and_overflow_are_errors_not_crashes() -> None:
    with pytest.raises(FormulaError, match="division by zero"):
        parse_formula("C / (C - 10)").evaluate(capacity_gib=10)
    with pytest.raises(FormulaError, match="not a finite number"):
        parse_formula(" * ".join(["C"] * 40)).evaluate(capacity_gib=1e9)


_ALPHABET = st.sampled_from(
    [*list("0123456789.+-*/×·(),_ CeIiopnmaxdbs_gq$';\"\\\n\t"), "C", "min", "max", "capacity_gib"]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_ALPHABET, max_size=60).map("".join), st.floats(min_value=0, max_value=1e6))
def test_any_text_parses_or_is_refused_cleanly(text: str, capacity: float) -> None:
    try:
        formula = parse_formula(text)
        value = formula.evaluate(capacity_gib=capacity, provisioned_iops=1, provisioned_mbps=1)
    except FormulaError as exc:
        assert "(at character" in str(exc) or str(exc)[0].islower()  # noqa: PT017 - a message, not a crash
        return
    assert math.isfinite(value)
    # The canonical spelling reads back to the same formula.
    if len(formula.canonical) > MAX_FORMULA_LENGTH:
        return
    again = parse_formula(formula.canonical).evaluate(
        capacity_gib=capacity, provisioned_iops=1, provisioned_mbps=1
    )
    assert again == pytest.approx(value, rel=1e-9, abs=1e-9)
