"""ESTATE.toml: the demo loads, and every error names the file, line and key."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rtoplanner.app.__main__ import main
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate import is_estate_file, load_estate

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"

SCENARIO = """\
format = 1
name = "{name}"
[database]
size = "1 TB"
[backup]
channels = 2
[[path]]
kind = "tape_drive"
count = 2
rate = "300 MB/s"
shared = "LIB"
[targets]
rto = "4 h"
"""

ESTATE = """\
format = 1
name = "E"

[[shared]]
name = "LIB"
kind = "tape_drive"
count = 4
rate = "300 MB/s"

[[database]]
scenario = "a.toml"
priority = 1

[[database]]
scenario = "b.toml"
priority = 2
rto = "6 h"
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("a", "b"):
        (tmp_path / f"{name}.toml").write_text(SCENARIO.format(name=name.upper()))
    (tmp_path / "estate.toml").write_text(ESTATE)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_demo_estate_loads_with_every_database_sharing():
    est = load_estate(DEMO)
    assert len(est.databases) == 8
    routes = {d.name: d.route for d in est.databases}
    assert routes.pop("Payments (Data Guard)") == "failover"  # its standby
    assert set(routes.values()) == {"restore"}
    assert {r.name for r in est.shared} == {"LTO-8 library", "Media servers"}
    assert is_estate_file(DEMO)
    assert not is_estate_file(REPO / "data" / "scenarios" / "small_gige_lto.toml")


def test_rto_override_and_scenario_paths(folder):
    est = load_estate(folder / "estate.toml")
    a, b = est.databases
    assert (a.name, a.priority, b.rto_s) == ("A", 1, 6 * 3600.0)
    assert a.rto_s == 4 * 3600.0  # the scenario's own
    assert a.estate_scenario.path[0].count == 4  # the library's count, not the stage's 2
    assert a.scenario.path[0].count == 2


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("priority = 2\n", "priority = 0\n", ":16: database[1].priority"),
        ("priority = 2\n", "priority = 2\nprio = 3\n", ":17: database[1].prio"),
        ('scenario = "b.toml"', 'scenario = "missing.toml"', ":15: database[1].scenario"),
        ("count = 4", "count = -1", ":7: shared[0].count"),
        ('rate = "300 MB/s"', 'rate = "fast"', ":8: shared[0].rate"),
        ('kind = "tape_drive"', 'kind = "channel"', ":6: shared[0].kind"),
        ('kind = "tape_drive"', 'kind = "object_storage"', ":6: shared[0].kind"),
        ('name = "E"', 'title = "E"', ":2: title"),
        ("format = 1", "format = 2", ":1: format"),
        ('scenario = "b.toml"', 'scenario = "a.toml"', "database[1].scenario"),
        ('rto = "6 h"', 'rto = "soon"', ":17: database[1].rto"),
    ],
)
def test_errors_name_file_line_and_key(folder, old, new, where):
    path = folder / "estate.toml"
    path.write_text(ESTATE.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        load_estate(path)
    assert str(path) in str(info.value)
    assert where in str(info.value)


def test_unknown_shared_name_is_refused(folder):
    (folder / "a.toml").write_text(SCENARIO.format(name="A").replace('"LIB"', '"LIBRARY"'))
    with pytest.raises(ScenarioError, match=r"database\[0\]\.scenario.*'LIBRARY'"):
        load_estate(folder / "estate.toml")


def test_a_scenario_file_is_not_an_estate(folder):
    with pytest.raises(ScenarioError, match=r"a\.toml:3: database: this is a scenario"):
        load_estate(folder / "a.toml")


def test_no_databases_is_refused(folder):
    (folder / "estate.toml").write_text('format = 1\nname = "E"\n')
    with pytest.raises(ScenarioError, match="at least one \\[\\[database\\]\\]"):
        load_estate(folder / "estate.toml")


def test_cli_text_and_json(capsys):
    rc, out, err = run(capsys, "estate", str(DEMO), "--no-least")
    assert rc == 0, err
    assert "Deciding shared resource: Media servers" in out
    rc, out, err = run(capsys, "estate", str(DEMO), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert {d["name"] for d in doc["databases"]} >= {"ERP (Exadata)", "Billing", "HR"}
    # HR meets its RTO alone and is worse off behind the tier-1 databases on the library.
    hr = next(d for d in doc["databases"] if d["name"] == "HR")
    assert hr["verdict"] in ("at_risk", "misses") and hr["alone_verdict"] == "meets"
    # Policy before purchase: a runbook is enough, nothing is bought (issue 22.2)
    assert doc["runbook"]["found"] and doc["runbook"]["steps"]
    assert doc["least_hardware"]["purchase_needed"] is False
    assert doc["least_hardware"]["answer"] is None and doc["least_hardware"]["counts"] == []


def test_cli_only(capsys):
    rc, out, err = run(capsys, "estate", str(DEMO), "--only", "HR", "--json", "--no-least")
    assert rc == 0, err
    doc = json.loads(out)
    assert [d["name"] for d in doc["databases"]] == ["HR"]
    assert doc["databases"][0]["waited_for"] is None  # alone, it waits for nothing


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--only", "Nobody"], "no database named 'Nobody'"),
        ([], None),
    ],
)
def test_cli_errors_are_one_line(capsys, folder, args, message):
    path = folder / "estate.toml"
    if message is None:
        path.write_text(ESTATE.replace("count = 4", "count = 0"))
        message = "shared[0].count"
    rc, _out, err = run(capsys, "estate", str(path), *args)
    assert rc == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_cli_missing_file(capsys, tmp_path):
    rc, _, err = run(capsys, "estate", str(tmp_path / "none.toml"))
    assert rc == 2 and "no such file" in err


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ('rate = "300 MB/s"', 'rate = "fast"', ':10: path[0].rate: "fast" is not a rate'),
        ("channels = 2", "channels = 2\nchanels = 3", ":7: backup.chanels: unknown key"),
        ('size = "1 TB"', 'size = "-1 TB"', ":4: database.size"),
        ('rto = "4 h"', "rto = 4", ":13: targets.rto"),
        ('kind = "tape_drive"', 'kind = "tape"', ":8: path[0].kind"),
    ],
)
def test_a_bad_scenario_inside_an_estate_names_its_file_line_and_key(folder, old, new, where):
    """Loading an estate validates every scenario file as `plan` does: the error names
    that file (not the estate), the line and the dotted key."""
    bad = folder / "b.toml"
    bad.write_text(SCENARIO.format(name="B").replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        load_estate(folder / "estate.toml")
    message = str(info.value)
    assert message.startswith(str(bad)), message
    assert where.replace('"', "'") in message.replace('"', "'"), message


def test_a_scenario_in_an_estate_keeps_its_comments(folder):
    """The comments (the report's ledger reads them) are found when asked for."""
    text = SCENARIO.format(name="A").replace("count = 2\n", "count = 2  # two drives\n")
    (folder / "a.toml").write_text("# the A database\n" + text)
    a = load_estate(folder / "estate.toml").databases[0].scenario
    assert a.comments["path[0].count"] == "two drives"
    assert dict(a.comments) == {"": "the A database", "path[0].count": "two drives"}


def test_the_command_gives_the_garbage_collector_back_as_it_found_it(capsys):
    """`rto-planner estate` pauses the cyclic collector while it runs (core/gc_pause.py)
    and restores it, also after an error."""
    import gc

    assert gc.isenabled()
    assert run(capsys, "estate", str(DEMO), "--no-least")[0] == 0
    assert gc.isenabled()
    assert run(capsys, "estate", str(DEMO), "--only", "Nobody")[0] == 2
    assert gc.isenabled()
    gc.disable()
    try:
        assert run(capsys, "estate", str(DEMO), "--no-least")[0] == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.fixture
def gc_seen_by_simulate(monkeypatch):
    """Whether the cyclic collector was on when run_estate simulated, run by run."""
    import gc

    from rtoplanner.core.estate import run as run_module

    seen: list[bool] = []
    simulate = run_module.simulate

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return simulate(*args, **kwargs)

    monkeypatch.setattr(run_module, "simulate", watched)
    return seen


def test_run_estate_pauses_the_garbage_collector_and_gives_it_back(
    monkeypatch, gc_seen_by_simulate
):
    """run_estate (the command's, the bench's) runs with the cyclic collector paused,
    and leaves it as it found it, also on an error."""
    import gc

    from rtoplanner.core.errors import CoreError
    from rtoplanner.core.estate import run as run_module

    est = load_estate(DEMO)
    run_module.run_estate(est)
    assert gc_seen_by_simulate == [False] and gc.isenabled()

    def cancelled(*args, **kwargs):
        raise CoreError("estate simulation cancelled")

    monkeypatch.setattr(run_module, "simulate", cancelled)
    with pytest.raises(CoreError):
        run_module.run_estate(est)
    assert gc.isenabled()


def test_run_estate_in_a_worker_thread_leaves_the_garbage_collector_alone(gc_seen_by_simulate):
    """In a worker thread (the GUI's) the collector is not paused: switching it back on
    there would collect the GUI thread's garbage, Qt objects included, in the worker — a
    deadlock the test suite once hit (core/gc_pause.py)."""
    import gc
    import threading

    from rtoplanner.core.estate import run as run_module

    worker = threading.Thread(target=run_module.run_estate, args=(load_estate(DEMO),))
    worker.start()
    worker.join(60)
    assert gc_seen_by_simulate == [True] and gc.isenabled()


def test_scenario_files_are_found_as_path_resolve_finds_them(tmp_path):
    """The estate finds each folder's real path once (`_real_path`), and each file as
    `Path.resolve` would: through links to folders and to files, `.`, `..` and doubled
    slashes; a file listed twice, once through a link, is read once."""
    from rtoplanner.core.estate.model import _real_path

    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "real" / "a.toml").write_text(SCENARIO.format(name="A"), encoding="utf-8")
    (tmp_path / "linked").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "real" / "b.toml").symlink_to(tmp_path / "real" / "a.toml")
    refs = ["real/a.toml", "linked/a.toml", "real/b.toml", "linked//sub/../a.toml",
            "./real/./a.toml", "real/sub/..", "real/", "missing/x.toml",
            str(tmp_path / "real")]  # fmt: skip
    folders: dict[str, str] = {}
    for ref in refs:
        expect = str((tmp_path / ref).resolve())
        assert _real_path(os.path.join(tmp_path, ref), folders) == expect, ref
        assert _real_path(os.path.join(tmp_path, ref), {}) == expect, ref
    estate_text = ESTATE.split("\n[[database]]")[0] + "".join(
        f'\n[[database]]\nscenario = "{ref}"\npriority = 1\nname = "db{k}"\n'
        for k, ref in enumerate(["real/a.toml", "linked/a.toml", "real/b.toml"])
    )
    (tmp_path / "ESTATE.toml").write_text(estate_text, encoding="utf-8")
    est = load_estate(tmp_path / "ESTATE.toml")
    assert {d.source for d in est.databases} == {str((tmp_path / "real" / "a.toml").resolve())}
    assert len({id(d.scenario) for d in est.databases}) == 1
