"""Function and class lengths: the measure of issue 24 ("rooms, not halls").

    .venv/bin/python bench/function_lengths.py            # core/ median, p90, longest
    .venv/bin/python bench/function_lengths.py --top 30   # more of the longest
    .venv/bin/python bench/function_lengths.py --json     # the figures as JSON
    .venv/bin/python bench/function_lengths.py --root DIR # another checkout (git archive)
    python3 dev.py stats                                  # the same

A function's length is its lines from `def` to its last line, docstring and blank lines
included (a nested function counts on its own and inside its parent); a class's is the
same from `class`. Targets for `core/`: median <= 8 and p90 <= 30 lines; no class in `app/`
or `core/store/` over 400 lines. The p90 is the 90th percentile by linear interpolation
(`statistics.quantiles(..., n=10, method="inclusive")`).
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout measured (`--root` measures another, e.g. an older commit's archive)."""
TARGETS = {"median": 8, "p90": 30, "class": 400}


def _defs(folder: Path, kinds: tuple[type, ...]) -> list[tuple[int, str]]:
    """(lines, "path:line name") of every definition of `kinds` under `folder`."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        rel = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, kinds):
                length = node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]
                out.append((length, f"{rel}:{node.lineno} {node.name}"))  # type: ignore[attr-defined]
    return out


def function_stats(folder: Path) -> dict[str, float | int]:
    lengths = [n for n, _ in _defs(folder, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return {
        "functions": len(lengths),
        "median": statistics.median(lengths),
        "p90": statistics.quantiles(lengths, n=10, method="inclusive")[-1],
    }


def longest(folder: Path, kinds: tuple[type, ...], top: int) -> list[tuple[int, str]]:
    return sorted(_defs(folder, kinds), key=lambda d: (-d[0], d[1]))[:top]


def report(top: int) -> dict[str, object]:
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        "core": function_stats(ROOT / "core"),
        "core_longest_functions": longest(ROOT / "core", functions, top),
        "app_longest_classes": longest(ROOT / "app", (ast.ClassDef,), top),
        "store_longest_classes": longest(ROOT / "core" / "store", (ast.ClassDef,), top),
        "targets": TARGETS,
    }


def _print(figures: dict[str, object]) -> None:
    core = figures["core"]
    assert isinstance(core, dict)
    median, p90 = f"{core['median']:g}", f"{core['p90']:g}"
    print(f"core/: {core['functions']} functions, median {median} lines "
          f"(target <= {TARGETS['median']}), p90 {p90} (target <= {TARGETS['p90']})")  # fmt: skip
    for title, key in (("longest functions in core/", "core_longest_functions"),
                       ("longest classes in app/", "app_longest_classes"),
                       ("longest classes in core/store/", "store_longest_classes")):  # fmt: skip
        print(f"\n{title}:")
        for length, where in figures[key]:  # type: ignore[attr-defined]
            print(f"  {length:5d}  {where}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10, help="how many of the longest to list")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--root", type=Path, help="measure this checkout instead")
    args = parser.parse_args(argv)
    if args.root:
        global ROOT
        ROOT = args.root.resolve()
    figures = report(args.top)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
