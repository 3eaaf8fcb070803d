"""What discovery leaves out of the logdir and of every run is the `notices` route's (issue
19): a logdir whose only run is a link out of it says so where the user looks, by the link's
path in the logdir, never its target's; the owner's opt-in follows the link and the notice
goes; a folder that cannot be listed is one too."""

from __future__ import annotations

import json
import os

from tests.plugin.conftest import PluginClient


def _trace_run(path):
    path.mkdir(parents=True)
    (path / "host_1.1700.pt.trace.json").write_text('{"traceEvents": []}')


def test_a_root_link_out_of_the_logdir_is_a_notice_by_its_relative_path(tmp_path):
    outside = tmp_path / "elsewhere-7f3a" / "run"
    _trace_run(outside)
    logdir = tmp_path / "logs"
    (logdir / "runs").mkdir(parents=True)
    os.symlink(outside, logdir / "runs" / "x")
    os.symlink(tmp_path / "nowhere.json.gz", logdir / "rank0.json.gz")
    client = PluginClient(logdir)
    assert client.json("runs") == []
    answer = client.json("notices")
    assert answer["total"] == 2
    assert [(n["path"], n["kind"]) for n in answer["notices"]] == [
        ("rank0.json.gz", "broken_link"),
        ("runs/x", "outside_link"),
    ]
    link = answer["notices"][1]["message"]
    assert link.startswith("a link to a folder outside the logdir")
    assert "--tb_perf_follow_links" in link
    text = json.dumps(answer)
    assert str(tmp_path) not in text and "elsewhere-7f3a" not in text  # no absolute path
    listing = client._client.get("/data/plugins_listing").get_json()
    assert listing["tb_perf"]["enabled"]  # the PERF tab shows, to say why it has no runs


def test_the_owners_opt_in_follows_the_link_and_the_notice_goes(tmp_path):
    _trace_run(tmp_path / "elsewhere" / "run")
    logdir = tmp_path / "logs"
    logdir.mkdir()
    os.symlink(tmp_path / "elsewhere" / "run", logdir / "exp")
    client = PluginClient(logdir, follow_links=True)
    assert [run["name"] for run in client.json("runs")] == ["exp"]
    assert client.json("notices") == {"notices": [], "total": 0}


def test_a_link_out_of_a_run_is_the_runs_warning_not_a_notice(tmp_path):
    _trace_run(tmp_path / "elsewhere")
    _trace_run(tmp_path / "logs" / "run")
    os.symlink(tmp_path / "elsewhere", tmp_path / "logs" / "run" / "profiler")
    assert PluginClient(tmp_path / "logs").json("notices")["total"] == 0


def test_a_folder_that_cannot_be_listed_is_a_notice(tmp_path, monkeypatch):
    """As a folder without read permission for TensorBoard's user (the tests may run as root,
    who lists any: os.walk's listing refuses it here)."""
    locked = tmp_path / "team" / "locked"
    locked.mkdir(parents=True)
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    (notice,) = PluginClient(tmp_path).json("notices")["notices"]
    assert (notice["path"], notice["kind"]) == ("team/locked", "unlistable")
    assert notice["message"] == "cannot be listed (Permission denied)"


def test_notices_are_bounded_and_counted(tmp_path):
    logdir = tmp_path / "logs"
    logdir.mkdir()
    (tmp_path / "out").mkdir()
    for index in range(60):
        os.symlink(tmp_path / "out", logdir / f"link{index:02d}")
    answer = PluginClient(logdir).json("notices")
    assert answer["total"] == 60 and len(answer["notices"]) == 50
    assert answer["notices"][0]["path"] == "link00"
