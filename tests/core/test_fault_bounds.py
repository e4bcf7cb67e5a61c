"""Issue 25.6 and 25.7 as properties: whatever range an `[uncertainty]` entry gives and
whatever figure an estate's `[[shared]]` stage gives, the file is either refused in one
line naming the file, line and key, or its answer is made of finite numbers — never NaN,
Infinity or a "no limit" that makes every database meet.

Hypothesis runs derandomized under the `ci` profile (tests/conftest.py).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate import load_estate_text, run_estate
from rtoplanner.core.estate.run import estate_to_json
from rtoplanner.core.jsonable import refuse_nonfinite
from rtoplanner.core.scenario import load_scenario, load_scenario_text
from rtoplanner.core.uncertainty.analysis import run_risk
from rtoplanner.core.uncertainty.inputs import uncertain_inputs
from rtoplanner.core.uncertainty.result import risk_to_json

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "scenarios" / "oltp_zfs_nas.toml"
ESTATE = REPO / "data" / "estates" / "site_loss.toml"
KEYS = sorted(i.key for i in uncertain_inputs(load_scenario(DEMO)))
SPECIALS = [0.0, 5e-324, 1e-300, 1e-9, 0.5, 1.0, 2.0, 99.0, 100.0, 101.0, 1e9, 1e300, 1e308]


def _without_uncertainty(text: str) -> str:
    head, _, tail = text.partition("\n[uncertainty]\n")
    rest = tail.split("\n[", 1)
    return head + ("\n[" + rest[1] if len(rest) > 1 else "\n")


BASE = _without_uncertainty(DEMO.read_text(encoding="utf-8"))

_numbers = st.one_of(st.sampled_from(SPECIALS), st.floats(0, 1e12, allow_nan=False),
                     st.floats(-1e300, 0, allow_nan=False))  # fmt: skip
relative = st.builds(lambda lo, hi: f"-{lo:g}%..+{hi:g}%", st.floats(0, 100), _numbers)
absolute = st.builds(lambda lo, hi: f"{lo!r}..{hi!r}", _numbers, _numbers)


def _line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(spread=st.one_of(relative, absolute))
def test_any_uncertainty_range_is_refused_or_finite(key, spread):
    entry = f'"{key}" = "{spread}"'
    text = BASE + "\n[uncertainty]\n" + entry + "\n"
    try:
        scenario = load_scenario_text(text, source="plan.toml")
    except ScenarioError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 1_000
        assert message.startswith(f"plan.toml:{_line_of(text, entry)}: uncertainty.{key}: ")
        return
    result = run_risk(scenario, trials=400, seed=7)
    refuse_nonfinite(risk_to_json(result))  # risk --json: no NaN, no Infinity


SHARED_KEYS = {
    "rate": ("Media servers", lambda x: f'"{x!r} B/s"'),
    "restore_rate": ("Media servers", lambda x: f'"{x!r} B/s"'),
    "max_rate": ("LTO-8 library", lambda x: f'"{x!r} B/s"'),
    "hw_compression": ("LTO-8 library", repr),
    "efficiency": ("LTO-8 library", repr),
    "count": ("LTO-8 library", lambda x: str(max(0, min(int(x), 10**30)))),
}


@pytest.fixture(scope="module")
def estate_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("estate")
    shutil.copytree(ESTATE.parent, folder, dirs_exist_ok=True)
    return folder


def _with_shared(text: str, resource: str, key: str, value: str) -> str:
    start = text.index(f'name = "{resource}"')
    end = text.find("[[", start)
    block = text[start:end]
    line = re.search(rf"^{key} = .*$", block, flags=re.M)
    new = block.replace(line.group(0), f"{key} = {value}") if line else (
        block.replace(f'name = "{resource}"', f'name = "{resource}"\n{key} = {value}'))  # fmt: skip
    return text[:start] + new + text[end:]


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.sampled_from(sorted(SHARED_KEYS)), _numbers)
def test_any_shared_figure_is_refused_or_plausible(estate_dir, key, x):
    resource, spell = SHARED_KEYS[key]
    text = _with_shared(ESTATE.read_text(encoding="utf-8"), resource, key, spell(x))
    try:
        estate = load_estate_text(text, source="e.toml", base_dir=estate_dir)
    except ScenarioError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("e.toml:")
        assert f".{key}" in message or "shared[" in message, message
        return
    result = run_estate(estate, trace=True)
    refuse_nonfinite(estate_to_json(result))
    alone = {d.name: d.alone_s for d in result.databases}
    for d in result.databases:  # sharing never opens a database before it would alone
        assert d.open_s >= alone[d.name] * (1 - 1e-9)
