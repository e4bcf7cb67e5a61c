"""Work done once (issue 22.3): a scenario file listed by many databases is read once, and
a database's own plan is computed once per distinct scenario, within an estate and across
the trials of a search — with the same results as computing each again."""

from __future__ import annotations

from pathlib import Path

import tomlkit

from rtoplanner.core.estate import jobs as jobs_module
from rtoplanner.core.estate import load_estate, run_estate
from rtoplanner.core.estate import model as model_module
from rtoplanner.core.estate.jobs import JobCache, build_jobs
from rtoplanner.core.estate.model import with_shared_count
from rtoplanner.core.estate.policy import Policy

DEMO = Path(__file__).resolve().parents[2] / "data" / "estates" / "site_loss.toml"


def _repeated(tmp_path: Path, times: int) -> Path:
    """The demo estate with each database listed `times` times (one file each)."""
    doc = tomlkit.parse(DEMO.read_text(encoding="utf-8"))
    base = doc["database"]
    entries = [
        {**dict(e), "scenario": str(DEMO.parent / e["scenario"]), "name": f"{e['name']} #{k}"}
        for k in range(times)
        for e in base
    ]
    out = {k: v for k, v in doc.items() if k != "database"}
    out["database"] = entries
    path = tmp_path / "repeated.toml"
    path.write_text(tomlkit.dumps(out), encoding="utf-8")
    return path


def _counting(monkeypatch, module, name: str) -> list[object]:
    calls: list[object] = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_scenario_file_listed_many_times_is_read_once(tmp_path, monkeypatch):
    path = _repeated(tmp_path, 3)
    reads = _counting(monkeypatch, model_module, "load_scenario")
    est = load_estate(path)
    assert len(est.databases) == 24
    assert len(reads) == len(set(reads)) == 8
    first, again = est.databases[0], est.databases[8]
    assert first.scenario is again.scenario and first.name != again.name


def _phases(result) -> list[tuple]:
    return [(d.name, d.open_s, d.verdict, tuple((p.name, p.start_s, p.duration_s)
             for p in d.phases)) for d in result.databases]  # fmt: skip


def test_each_distinct_scenario_is_planned_once_with_the_same_results(tmp_path, monkeypatch):
    est = load_estate(_repeated(tmp_path, 3))
    fresh = _phases(run_estate(est, trace=False))  # (every plan computed, as before)
    plans = _counting(monkeypatch, jobs_module, "compute_recovery")
    assert _phases(run_estate(est, trace=False)) == fresh
    assert len(plans) == 8  # 24 databases, 8 scenarios


def test_a_search_plans_a_database_once_across_its_trials(tmp_path, monkeypatch):
    """Another runbook changes no database's plan; more media servers change only the
    plans of the databases that use them. Jobs from the cache are the ones computed anew."""
    est = load_estate(DEMO)
    cache = JobCache()
    build_jobs(est, cache)
    plans = _counting(monkeypatch, jobs_module, "compute_recovery")
    ordered = est.with_policy(Policy(order=("Billing",)))
    assert build_jobs(ordered, cache) == build_jobs(ordered)
    assert len(plans) == len(est.databases)  # only by the build without the cache
    plans.clear()
    more = with_shared_count(est, "Media servers", 3)
    assert build_jobs(more, cache) == build_jobs(more, JobCache())
    users = [d for d in est.databases
             if any(st.shared == "Media servers" for st in d.estate_scenario.path)]  # fmt: skip
    assert 0 < len(users) < len(est.databases)
    assert len(plans) == len(users) + len(est.databases)
