"""Generate storbench_fio/_fio_option_table.py: every job option fio knows, from fio itself.

Usage: python tools/generate_option_table.py [--fio fio] [--howto path/to/HOWTO.rst] > out.py

`fio --cmdhelp=all`, then `fio --cmdhelp=<name>` per option, give the options built into this fio
with their aliases, types, ranges and valid values; `fio --enghelp=<engine>` the options of each
engine built in. fio's HOWTO.rst (of the same version) adds the value grammar the help does not
print (`bs=int[,int][,int]`, `thinktime=time`) and the options of engines this build lacks.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass, field

_HELP_LINE = re.compile(r"^\s*(?P<key>[\w -]+?)\s*:\s?(?P<value>.*)$")
_HOWTO_OPTION = re.compile(r"^\.\. option:: (?P<spec>[^-].*)$")


@dataclass
class Spec:
    name: str
    kind: str = "str"
    aliases: list[str] = field(default_factory=list)
    minimum: float | None = None
    maximum: float | None = None
    values: list[str] = field(default_factory=list)
    per_direction: bool = False
    engines: list[str] = field(default_factory=list)
    built: bool = True
    help: str = ""


def _run(fio: str, *args: str) -> str:
    return subprocess.run([fio, *args], capture_output=True, text=True, check=False).stdout


def _kind(type_text: str) -> str:
    if type_text.startswith("empty or boolean"):
        return "flag"
    if type_text.startswith("boolean"):
        return "bool"
    if type_text.startswith("integer"):
        return "int"
    if "time postfix" in type_text:
        return "time"
    if "k/m/g postfix" in type_text:
        return "size_text"
    if type_text.startswith("list of floating"):
        return "floats"
    if type_text.startswith("one to three ranges"):
        return "ranges"
    if type_text == "(null)":
        return "size_or_percent"
    return "str"


def _number(text: str) -> float | None:
    value = float(text)
    return None if value == -1 else value


def cmdhelp_spec(fio: str, name: str) -> Spec:
    spec = Spec(name=name)
    in_values = False
    for line in _run(fio, f"--cmdhelp={name}").splitlines():
        match = _HELP_LINE.match(line)
        if match is None:
            continue
        key, value = match["key"].strip(), match["value"].strip()
        if not spec.help:
            spec.name, spec.help = key, value  # fio's own name, also when asked by an alias
        elif key == "alias":
            spec.aliases.append(value)
        elif key == "type":
            spec.kind = _kind(value)
        elif key == "range":
            for part in value.split(","):
                bound, _, number = part.strip().partition("=")
                if bound == "min":
                    spec.minimum = _number(number)
                elif bound == "max":
                    spec.maximum = _number(number)
        elif key == "valid values":
            in_values = True
            spec.values.append(value.split()[0])
            continue
        elif key == "" and in_values and value:
            spec.values.append(value.split()[0])
            continue
        in_values = False
    if spec.values and spec.kind == "str":
        spec.kind = "choice"
    return spec


def cmdhelp_specs(fio: str, also: list[str]) -> dict[str, Spec]:
    """Every option `fio --cmdhelp=<name>` describes: those `--cmdhelp=all` lists, and the
    documented names it leaves out (iomem_align...), keyed by fio's own name for each."""
    names = [line.split(":")[0].strip() for line in _run(fio, "--cmdhelp=all").splitlines()]
    specs: dict[str, Spec] = {}
    for name in dict.fromkeys([*names, *also]):
        if not name or any(name == s.name or name in s.aliases for s in specs.values()):
            continue
        spec = cmdhelp_spec(fio, name)
        if spec.help:
            specs[spec.name] = spec
    return specs


def engine_options(fio: str) -> dict[str, list[str]]:
    """option -> the built engines that take it."""
    listing = _run(fio, "--enghelp").splitlines()[1:]
    found: dict[str, list[str]] = {}
    for engine in (line.strip() for line in listing if line.strip()):
        for line in _run(fio, f"--enghelp={engine}").splitlines():
            name, colon, _ = line.partition(":")
            name = name.strip()
            if colon and name and not line.startswith(" "):
                found.setdefault(name, []).append(engine)
    return found


def howto_options(path: str) -> dict[str, tuple[str, list[str], list[str]]]:
    """name -> (HOWTO type word, its other spellings, engines) for each `.. option::` entry."""
    found: dict[str, tuple[str, list[str], list[str]]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            match = _HOWTO_OPTION.match(line.rstrip())
            if match is None:
                continue
            spec, _, engines_text = match["spec"].partition(" : ")
            engines = re.findall(r"\[([\w-]+)\]", engines_text)
            spellings = [s.strip() for s in re.split(r",\s(?=[\w-]+(?:=|$))", spec)]
            names = [s.partition("=")[0].strip() for s in spellings]
            types = [s.partition("=")[2].strip() for s in spellings]
            for name, type_word in zip(names, types, strict=True):
                others = [n for n in names if n != name]
                found[name] = (type_word, others, engines)
    return found


def built_engines(fio: str) -> list[str]:
    return [line.strip() for line in _run(fio, "--enghelp").splitlines()[1:] if line.strip()]


def howto_engines(path: str) -> list[str]:
    """The engines HOWTO.rst documents under ioengine (`**name**` entries)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    section = text.split(".. option:: ioengine=str", 1)[1].split("\n.. option:: ", 1)[0]
    return re.findall(r"^\s+\*\*([\w-]+)\*\*", section, re.MULTILINE)


def _howto_kind(type_word: str) -> str:
    base = type_word.split("[")[0].split(":")[0].split("(")[0]
    return {
        "bool": "bool",
        "int": "int",
        "time": "time",
        "float": "floats",
        "irange": "ranges",
    }.get(base, "str" if type_word else "flag")


def merge(
    built: dict[str, Spec],
    engines: dict[str, list[str]],
    howto: dict[str, tuple[str, list[str], list[str]]],
) -> dict[str, Spec]:
    table = dict(built)
    for name, type_word_others_engines in howto.items():
        type_word, others, documented_engines = type_word_others_engines
        spec = table.get(name)
        primary = next((o for o in others if o in table), None)
        if spec is None and primary is not None:
            # Another spelling of an option the help lists (iomem_align=int, mem_align=int).
            if name not in table[primary].aliases:
                table[primary].aliases.append(name)
            continue
        if spec is None:
            spec = Spec(
                name=name,
                kind=_howto_kind(type_word),
                built=name in engines,
                engines=sorted(set(engines.get(name, documented_engines))),
            )
            table[name] = spec
        if type_word.startswith("irange") and spec.kind == "str":
            spec.kind = "ranges"
        if "[," in type_word and spec.kind in ("int", "time", "str", "floats"):
            spec.per_direction = True
        if type_word.startswith("time") and spec.kind == "int":
            spec.kind = "time_us"
    for name, names_engines in engines.items():
        if name not in table:
            table[name] = Spec(name=name, engines=sorted(names_engines))
        elif not table[name].engines and table[name].name not in built:
            table[name].engines = sorted(names_engines)
    for name, spec in table.items():
        if name in engines:
            spec.engines = sorted(engines[name])
    return table


def render(table: dict[str, Spec], version: str, built: list[str], documented: list[str]) -> str:
    lines = [
        f'"""Every job option {version} knows, GENERATED by tools/generate_option_table.py.',
        "",
        f"From `fio --cmdhelp` and `fio --enghelp` of {version}, and its HOWTO.rst.",
        "Do not edit: run the generator.",
        '"""',
        "",
        "from storbench_fio.option_spec import OptionSpec",
        "",
        f'FIO_VERSION = "{version}"',
        "",
        "# The I/O engines built into this fio (`fio --enghelp`), and those its HOWTO documents.",
        f"ENGINES_BUILT: frozenset[str] = frozenset({sorted(built)!r})",
        f"ENGINES_DOCUMENTED: frozenset[str] = frozenset({sorted(documented)!r})",
        "",
        "OPTIONS: dict[str, OptionSpec] = {",
    ]
    for name in sorted(table):
        spec = table[name]
        fields = [f"kind={spec.kind!r}"]
        if spec.aliases:
            fields.append(f"aliases={tuple(spec.aliases)!r}")
        if spec.minimum is not None:
            fields.append(f"minimum={spec.minimum!r}")
        if spec.maximum is not None:
            fields.append(f"maximum={spec.maximum!r}")
        if spec.values:
            fields.append(f"values={tuple(spec.values)!r}")
        if spec.per_direction:
            fields.append("per_direction=True")
        if spec.engines:
            fields.append(f"engines={tuple(spec.engines)!r}")
        if not spec.built:
            fields.append("built=False")
        lines.append(f"    {name!r}: OptionSpec({', '.join(fields)}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fio", default="fio")
    parser.add_argument("--howto", required=True)
    args = parser.parse_args()
    version = _run(args.fio, "--version").strip()
    engine_names = engine_options(args.fio)
    howto = howto_options(args.howto)
    built = cmdhelp_specs(args.fio, [*howto, *engine_names])
    table = merge(built, engine_names, howto)
    engines = built_engines(args.fio)
    sys.stdout.write(render(table, version, engines, howto_engines(args.howto)))


if __name__ == "__main__":
    main()
