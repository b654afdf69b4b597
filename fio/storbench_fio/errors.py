"""Error types shared by every module of the package."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, ValidationError

# The safety rules: every refusal of an option fio 3.33 accepts names the one it follows; any other
# refusal is fio's own (an option or value fio 3.33 does not accept).
CODE = "code execution"
HOSTS = "other hosts"
PATHS = "device and absolute paths"
DATA = "destroying data"
HOST_CHANGES = "host changes"
LIMITS = "limits"
RULES = (CODE, HOSTS, PATHS, DATA, HOST_CHANGES, LIMITS)
_RULE_MARK = " (safety rule: "


class OptionError(BaseModel):
    """One offending fio option: its name, the value given and why it was refused."""

    model_config = ConfigDict(frozen=True)

    option: str
    value: str
    reason: str
    job: str | None = None  # the job section it came from, when there are several

    def __str__(self) -> str:
        where = f"[{self.job}] " if self.job else ""
        shown = f"{self.option}={self.value}" if self.value else self.option
        return f"{where}{shown}: {self.reason}"

    @property
    def rule(self) -> str | None:
        """The safety rule this refusal follows; None when fio itself would refuse the value."""
        head, mark, rule = self.reason.rpartition(_RULE_MARK)
        return rule.removesuffix(")") if mark and head else None


def with_rule(error: OptionError, rule: str) -> OptionError:
    """The refusal with the safety rule it follows named at its end."""
    return error.model_copy(update={"reason": f"{error.reason}{_RULE_MARK}{rule})"})


class FioJobError(ValueError):
    """A job could not be parsed or validated; `errors` lists every offending option."""

    def __init__(self, errors: list[OptionError]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(str(e) for e in self.errors) or "invalid fio job")


class ParseError(ValueError):
    """fio output could not be read; the message says what and where."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None) -> None:
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f" (line {line}" + (f", char {column}" if column is not None else "") + ")"
        super().__init__(message + where)


class Notice(BaseModel):
    """Something a paste was read as that is not its literal text, said so the user can check."""

    model_config = ConfigDict(frozen=True)

    option: str  # the option or word concerned ("command" for the paste as a whole)
    value: str
    message: str

    def __str__(self) -> str:
        shown = f"{self.option}={self.value}" if self.value else self.option
        return f"{shown}: {self.message}"


def errors_from_validation(
    exc: ValidationError, given: Mapping[str, object], ceilings: Mapping[str, str] = {}
) -> list[OptionError]:
    """One OptionError per offending option from a pydantic ValidationError.

    ceilings: the options whose upper bound is storbench's, not fio's, each with the bound said in
    words; going above one is refused by the limits rule."""
    by_option: dict[str, OptionError] = {}
    for err in exc.errors(include_url=False):
        option = str(err["loc"][0]) if err["loc"] else "job"
        if option in by_option:
            continue  # a union reports every branch; the first reason is enough
        reason = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "missing":
            reason = "required option is missing"
        limit = err["type"] == "less_than_equal" and option in ceilings
        if limit:
            reason = f"at most {ceilings[option]}: more is a typo, not a benchmark"
        # A missing option, or a rule on the whole job, has the job as its input: no value to show.
        whole_job = err["type"] == "missing" or not err["loc"]
        value = given.get(option, "" if whole_job else err.get("input"))
        error = OptionError(option=option, value=shown_value(value), reason=reason)
        by_option[option] = with_rule(error, LIMITS) if limit else error
    return list(by_option.values())


def shown_value(value: object) -> str:
    """The value as the user wrote it, for error messages."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ":".join(str(v) for v in value)
    return str(value)
