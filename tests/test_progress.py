"""The exercise progress file: written atomically, in the workspace only."""
import datetime
import json

import pytest

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
    assert progress.record("relu", True) is None      # written; no damaged file set aside
    assert progress.load(tmp_path)["relu"]["passed"] is True


DAMAGED = {      # what the file holds -> the entries still readable from it
    "truncated": (b'{"exercises": {"exp": {"passed": tr', {}),
    "invalid": (b"{'exercises': {}}", {}),
    "empty": (b"", {}),
    "latin-1": ('{"exercises": {"exp": {"passed": true, "attempts": 1, "last_attempt": "é"}}}'
                .encode("latin-1"), {}),
    "a list": (b"[]", {}),
    "exercises a list": (b'{"exercises": []}', {}),
    "one entry wrong": (b'{"exercises": {"exp": {"passed": true, "attempts": 2}, "relu": 5}}',
                        {"exp": {"passed": True, "attempts": 2}}),
    "attempts a string": (b'{"exercises": {"exp": {"passed": false, "attempts": "2"}}}', {}),
}


@pytest.mark.parametrize("name", list(DAMAGED))
def test_a_damaged_progress_file_is_kept_as_a_backup_said_once_and_progress_goes_on(
        tmp_path, name):
    content, readable = DAMAGED[name]
    (tmp_path / progress.FILENAME).write_bytes(content)
    assert progress.read(tmp_path) == (readable, True)
    when = datetime.datetime(2026, 1, 2, 3, 4, 5)
    backup = progress.record("sigmoid", True, workspace=tmp_path, now=when)
    assert backup == tmp_path / "minigrad-progress.damaged.20260102-030405.json"
    assert backup.read_bytes() == content                    # nothing lost
    entries, damaged = progress.read(tmp_path)
    assert not damaged and entries["sigmoid"]["passed"] and set(entries) == {"sigmoid", *readable}
    assert progress.record("relu", False, workspace=tmp_path, now=when) is None   # said once
    assert progress.load(tmp_path)["relu"]["attempts"] == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_check_says_once_that_the_progress_file_was_damaged(tmp_path, monkeypatch, lang):
    from minigrad.exercises import _messages, check
    from exercise_answers import Exp
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    (tmp_path / progress.FILENAME).write_bytes(b'{"exercises": {"exp": {"passed": tr')
    first = check("exp", Exp, lang=lang)
    [backup] = tmp_path.glob("minigrad-progress.damaged.*.json")
    assert first.passed and first.notes == ("progress_damaged",)
    assert first.message == _messages.text("passed", lang) + "\n\n" + _messages.text(
        "progress_damaged", lang, file=progress.FILENAME, backup=backup.name)
    second = check("exp", Exp, lang=lang)
    assert second.passed and second.notes == ()
    assert progress.load(tmp_path)["exp"]["attempts"] == 2


@pytest.mark.parametrize("lang, words", [
    ("en", ("Your progress: 1 of", "Lesson 4: ", "✓  exp", "passed 2026-01-02 03:04",
            "✗  relu", "2 attempt(s), not passed yet", "·  sigmoid", "not tried yet",
            "Next: {first}, in lesson 1.")),
    ("zh", ("你的进度：", "已通过 1 道", "第 3 课：", "✓  exp", "2026-01-02 03:04 通过",
            "尝试了 2 次，还没有通过", "还没有尝试", "下一道：第 1 课的 {first}。")),
])
def test_the_notebook_overview_shows_where_the_student_stands(tmp_path, monkeypatch, lang, words):
    from minigrad.exercises import progress as overview
    from minigrad.lessons import LESSONS
    first = LESSONS[0].exercises[0]                 # the next exercise: the course's first
    words = [word.format(first=first) for word in words]
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    when = datetime.datetime(2026, 1, 2, 3, 4, 5)
    progress.record("exp", True, now=when)
    progress.record("relu", False, now=when)
    progress.record("relu", False, now=when)
    shown = overview(lang=lang)
    text, page = repr(shown), shown._repr_html_()
    for word in words:
        assert word in text, (word, text)
    assert "<table" in page and "<code>relu</code>" in page and words[-1] in page
    assert f'<a href="{LESSONS[3].slug}.ipynb">' in page       # a lesson's heading opens it
    (tmp_path / progress.FILENAME).write_text("[]")
    damaged = repr(overview(lang=lang))
    assert ("damaged" if lang == "en" else "已损坏") in damaged
    monkeypatch.delenv("MINIGRAD_WORKSPACE")
    monkeypatch.chdir(tmp_path.parent)
    assert ("not in a lesson workspace" if lang == "en" else "不在课程工作区里") in \
        repr(overview(lang=lang))


def test_what_the_progress_file_holds_besides_the_exercises_is_kept(tmp_path):
    """Nothing in the file is lost when a check writes it: a field minigrad does not know
    (a teacher's note, a newer version's) is written back as it was."""
    (tmp_path / progress.FILENAME).write_text(json.dumps({
        "exercises": {"exp": {"passed": True, "attempts": 1}}, "student": "Ann Lee"}))
    assert progress.record("relu", False, workspace=tmp_path) is None
    content = json.loads((tmp_path / progress.FILENAME).read_text())
    assert content["student"] == "Ann Lee" and set(content["exercises"]) == {"exp", "relu"}
