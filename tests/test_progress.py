"""The exercise progress file: written atomically, in the workspace only."""
import datetime
import json

from minigrad import progress


def test_no_workspace_no_file(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    monkeypatch.chdir(tmp_path)
    assert progress.find_workspace() is None
    assert progress.record("exp", True) is None
    assert list(tmp_path.iterdir()) == []


def test_records_attempts_and_first_pass(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    (tmp_path / progress.MARKER).write_text("{}")
    lesson_dir = tmp_path / "solutions"
    lesson_dir.mkdir()
    monkeypatch.chdir(lesson_dir)                    # a notebook one folder down
    assert progress.find_workspace() == tmp_path.resolve()
    t0 = datetime.datetime(2026, 1, 2, 3, 4, 5)
    progress.record("exp", False, now=t0)
    progress.record("exp", True, now=t0 + datetime.timedelta(minutes=1))
    progress.record("exp", False, now=t0 + datetime.timedelta(minutes=2))
    entry = progress.load(tmp_path)["exp"]
    assert entry["attempts"] == 3 and entry["passed"] is True
    assert entry["first_passed"] == "2026-01-02T03:05:05"
    assert entry["last_attempt"] == "2026-01-02T03:06:05"
    saved = json.loads((tmp_path / progress.FILENAME).read_text())
    assert saved["exercises"]["exp"] == entry
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".progress-")] == []


def test_env_workspace_and_unwritable_folder_never_raise(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path / "missing" / "folder"))
    assert progress.record("relu", True) is None     # cannot write: ignored, not raised
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    assert progress.record("relu", True) == tmp_path / progress.FILENAME
    assert progress.load(tmp_path)["relu"]["passed"] is True
