"""Spec formulas: a tiny arithmetic grammar over a volume's provisioned figures, never eval.

A vendor publishes e.g. IOPS = min(1200 + 30 × capacity, 20000). The grammar is exactly what
such formulas need and nothing more:

    formula  := sum
    sum      := product (("+" | "-") product)*
    product  := unary (("*" | "×" | "·" | "/") unary)*
    unary    := "-" unary | atom
    atom     := number | variable | function "(" sum ("," sum)* ")" | "(" sum ")"
    number   := digits ["." digits] (underscores may group digits: 1_000_000)
    variable := C | capacity_gib | provisioned_iops | provisioned_mbps
    function := min | max

Parsing is a recursive descent over a bounded text with a bounded depth, so a hostile formula
costs microseconds and says what is wrong and where.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

__all__ = [
    "MAX_FORMULA_LENGTH",
    "VARIABLES",
    "Formula",
    "FormulaError",
    "parse_formula",
]

MAX_FORMULA_LENGTH: Final = 200
_MAX_DEPTH: Final = 16
# Names a formula may use, and what each means.
VARIABLES: Final = {
    "C": "provisioned capacity in GiB",
    "capacity_gib": "provisioned capacity in GiB",
    "provisioned_iops": "provisioned IOPS (for volumes sold by IOPS)",
    "provisioned_mbps": "provisioned throughput in MB/s (for volumes sold by throughput)",
}
_ALIASES: Final = {"C": "capacity_gib"}
_FUNCTIONS: Final = {"min": min, "max": max}
_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d[\d_]*(?:\.\d[\d_]*)?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>[-+*/×·(),]))"
)


class FormulaError(ValueError):
    """A formula that cannot be read or evaluated, with the character where it went wrong."""

    def __init__(self, message: str, position: int | None = None) -> None:
        where = f" (at character {position + 1})" if position is not None else ""
        super().__init__(f"{message}{where}")
        self.position = position


@dataclass(frozen=True, slots=True)
class _Number:
    value: float


@dataclass(frozen=True, slots=True)
class _Variable:
    name: str


@dataclass(frozen=True, slots=True)
class _Negate:
    operand: _Node


@dataclass(frozen=True, slots=True)
class _Binary:
    op: str
    left: _Node
    right: _Node


@dataclass(frozen=True, slots=True)
class _Call:
    function: str
    args: tuple[_Node, ...]


_Node = _Number | _Variable | _Negate | _Binary | _Call


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # number, name, op, end
    text: str
    position: int


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            offending = pos + len(text[pos:]) - len(text[pos:].lstrip())
            raise FormulaError(f"unexpected character {text[offending]!r}", offending)
        kind = match.lastgroup or "op"
        tokens.append(_Token(kind, match.group(kind), match.start(kind)))
        pos = match.end()
    tokens.append(_Token("end", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.index = 0
        self.depth = 0

    def peek(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, op: str) -> None:
        token = self.take()
        if token.kind != "op" or token.text != op:
            found = f"{token.text!r}" if token.kind != "end" else "the end"
            raise FormulaError(f"expected {op!r}, found {found}", token.position)

    def parse(self) -> _Node:
        node = self.sum()
        token = self.peek()
        if token.kind != "end":
            raise FormulaError(f"unexpected {token.text!r}", token.position)
        return node

    def sum(self) -> _Node:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise FormulaError(f"nested more than {_MAX_DEPTH} levels deep", self.peek().position)
        node = self.product()
        while (token := self.peek()).kind == "op" and token.text in "+-":
            self.take()
            node = _Binary(token.text, node, self.product())
        self.depth -= 1
        return node

    def product(self) -> _Node:
        node = self.unary()
        while (token := self.peek()).kind == "op" and token.text in "*×·/":
            self.take()
            node = _Binary("/" if token.text == "/" else "*", node, self.unary())
        return node

    def unary(self) -> _Node:
        token = self.peek()
        if token.kind == "op" and token.text == "-":
            self.take()
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise FormulaError(f"nested more than {_MAX_DEPTH} levels deep", token.position)
            node = _Negate(self.unary())
            self.depth -= 1
            return node
        return self.atom()

    def atom(self) -> _Node:
        token = self.take()
        if token.kind == "number":
            return _Number(float(token.text.replace("_", "")))
        if token.kind == "name":
            if token.text in _FUNCTIONS:
                self.expect("(")
                args = [self.sum()]
                while (sep := self.peek()).kind == "op" and sep.text == ",":
                    self.take()
                    args.append(self.sum())
                self.expect(")")
                if len(args) < 2:
                    raise FormulaError(f"{token.text}() needs at least two values", token.position)
                return _Call(token.text, tuple(args))
            if token.text in VARIABLES:
                return _Variable(_ALIASES.get(token.text, token.text))
            known = ", ".join([*VARIABLES, *(f"{f}()" for f in _FUNCTIONS)])
            raise FormulaError(f"unknown name {token.text!r} (known: {known})", token.position)
        if token.kind == "op" and token.text == "(":
            node = self.sum()
            self.expect(")")
            return node
        found = f"{token.text!r}" if token.kind != "end" else "the end"
        raise FormulaError(f"expected a number, a name or '(', found {found}", token.position)


def _evaluate(node: _Node, values: dict[str, float]) -> float:
    if isinstance(node, _Number):
        return node.value
    if isinstance(node, _Variable):
        if node.name not in values:
            raise FormulaError(f"the formula needs {node.name} ({VARIABLES[node.name]})")
        return values[node.name]
    if isinstance(node, _Negate):
        return -_evaluate(node.operand, values)
    if isinstance(node, _Call):
        return _FUNCTIONS[node.function](_evaluate(arg, values) for arg in node.args)
    left, right = _evaluate(node.left, values), _evaluate(node.right, values)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if right == 0:
        raise FormulaError("division by zero")
    return left / right


def _plain(value: float) -> str:
    """A number as the grammar reads it: digits and a point, never an exponent."""
    if value.is_integer():
        return str(int(value))
    return format(Decimal(repr(value)), "f")


def _render(node: _Node, parent: int = 0) -> str:
    """The formula in one canonical spelling (e.g. min(1200 + 30 × C, 20000))."""
    if isinstance(node, _Number):
        return _plain(node.value)
    if isinstance(node, _Variable):
        return "C" if node.name == "capacity_gib" else node.name
    if isinstance(node, _Negate):
        return f"-{_render(node.operand, 3)}"
    if isinstance(node, _Call):
        return f"{node.function}({', '.join(_render(a) for a in node.args)})"
    level = 1 if node.op in "+-" else 2
    right_level = level + 1 if node.op in "-/" else level
    symbol = {"*": "×"}.get(node.op, node.op)
    text = f"{_render(node.left, level)} {symbol} {_render(node.right, right_level)}"
    return f"({text})" if level < parent else text


def _variables(node: _Node) -> set[str]:
    if isinstance(node, _Variable):
        return {node.name}
    if isinstance(node, _Negate):
        return _variables(node.operand)
    if isinstance(node, _Call):
        return set().union(*(_variables(a) for a in node.args))
    if isinstance(node, _Binary):
        return _variables(node.left) | _variables(node.right)
    return set()


@dataclass(frozen=True, slots=True)
class Formula:
    """A parsed spec formula."""

    text: str
    _tree: _Node

    @property
    def canonical(self) -> str:
        """The formula as storbench shows it."""
        return _render(self._tree)

    @property
    def variables(self) -> frozenset[str]:
        """The provisioned figures it depends on."""
        return frozenset(_variables(self._tree))

    def evaluate(
        self,
        *,
        capacity_gib: float | None = None,
        provisioned_iops: float | None = None,
        provisioned_mbps: float | None = None,
    ) -> float:
        """The formula's value for these provisioned figures; FormulaError if one it needs is missing."""
        given = {
            "capacity_gib": capacity_gib,
            "provisioned_iops": provisioned_iops,
            "provisioned_mbps": provisioned_mbps,
        }
        values = {name: float(v) for name, v in given.items() if v is not None}
        result = _evaluate(self._tree, values)
        if not math.isfinite(result):
            raise FormulaError("the formula's value is not a finite number")
        return result


# A parsed formula never changes: the capacity planner evaluates each one hundreds of times.
@functools.lru_cache(maxsize=1024)
def parse_formula(text: str) -> Formula:
    """The formula in text; FormulaError saying what is wrong and where."""
    if not isinstance(text, str):
        raise FormulaError("a formula must be text")
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaError(f"a formula has at most {MAX_FORMULA_LENGTH} characters")
    if not text.strip():
        raise FormulaError("the formula is empty")
    return Formula(text, _Parser(text).parse())
