"""Target directories: the worker says whether each exists, only inside its allowed roots."""

import json
import os
from pathlib import Path

import httpx

from storbench_worker.facts import collect_facts, target_path_states
from storbench_worker.heartbeat import Heartbeat
from tests.conftest import IDENTITY, recording_client


def test_each_target_directory_inside_an_allowed_root_is_reported_as_found(tmp_path: Path) -> None:
    root = tmp_path / "allowed"
    (root / "ready").mkdir(parents=True)
    (root / "a-file").write_text("not a directory")
    (root / "locked").mkdir(mode=0o500)
    paths = [str(root / "ready"), str(root / "not-yet"), str(root / "a-file"), str(root / "locked")]

    states = {s.path: s for s in target_path_states(paths, (root,))}

    assert set(states) == set(paths)
    ready, missing, a_file, locked = (states[p] for p in paths)
    assert (ready.exists, ready.is_directory, ready.writable) == (True, True, True)
    assert (missing.exists, missing.is_directory, missing.writable) == (False, False, False)
    assert (a_file.exists, a_file.is_directory) == (True, False)
    # root ignores permission bits: only an unprivileged worker finds the directory read-only.
    assert locked.is_directory and locked.writable == os.access(root / "locked", os.W_OK | os.X_OK)


def test_nothing_is_said_of_paths_outside_the_allowed_roots(tmp_path: Path) -> None:
    root = tmp_path / "allowed"
    root.mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (root / "escape").symlink_to(outside)
    asked = [str(outside), "/etc", str(root / ".." / "elsewhere"), str(root / "escape"), "relative/dir"]

    assert target_path_states(asked, (root,)) == []
    assert target_path_states([str(root)], ()) == []


def test_facts_carry_the_states_only_once_the_server_asked() -> None:
    assert collect_facts(()).target_paths is None
    assert collect_facts((), []).target_paths == []


def test_a_beat_asked_about_new_directories_reports_them_at_once(tmp_path: Path) -> None:
    (tmp_path / "ready").mkdir()
    asked = [str(tmp_path / "ready"), str(tmp_path / "not-yet")]
    api, seen = recording_client(lambda _: httpx.Response(200, json={**IDENTITY, "target_paths": asked}))
    heartbeat = Heartbeat(api, interval_s=10.0, fio_binary="fio", allowed_roots=(tmp_path,))

    heartbeat.beat()
    first, second = seen
    assert json.loads(first.content)["facts"].get("target_paths") is None
    reported = {s["path"]: s["exists"] for s in json.loads(second.content)["facts"]["target_paths"]}
    assert reported == {str(tmp_path / "ready"): True, str(tmp_path / "not-yet"): False}

    (tmp_path / "not-yet").mkdir()
    heartbeat.beat()  # the same paths asked again: one beat, with what changed on disk
    (third,) = seen[2:]
    assert all(s["exists"] for s in json.loads(third.content)["facts"]["target_paths"])
