"""minigrad-tutor --progress as a table: one workspace, or a class's home folders at once."""
import csv
import datetime
import io
import json

import pytest

from minigrad import progress
from minigrad.lessons import LESSONS
from minigrad.tutor import cli, workspace

WHEN = datetime.datetime(2026, 3, 4, 5, 6, 7)
EXERCISES = [exercise for lesson in LESSONS for exercise in lesson.exercises]


@pytest.fixture
def homes(tmp_path, monkeypatch):
    """A hub's home folders: each student's workspace where that setup puts it."""
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    alice = tmp_path / "alice" / "minigrad-lessons"          # minigrad-tutor's own workspace
    workspace.write_marker(alice, "en")
    progress.record("exp", True, workspace=alice, now=WHEN)
    progress.record("relu", False, workspace=alice, now=WHEN)
    progress.record("relu", False, workspace=alice, now=WHEN)
    bob = tmp_path / "bob"                    # MINIGRAD_WORKSPACE=$HOME, as docs/teaching.md's hub
    bob.mkdir()
    progress.record("topo_order", True, workspace=bob, now=WHEN)
    progress.record("retired_exercise", True, workspace=bob, now=WHEN)
    dana = tmp_path / "dana" / "courses" / "autograd"         # a clone of her own, deeper down
    dana.mkdir(parents=True)
    progress.record("linear", False, workspace=dana, now=WHEN)
    (tmp_path / "carol").mkdir()                               # has not started
    return [tmp_path / name for name in ("alice", "bob", "carol", "dana")]


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_class_in_one_csv_table(homes, capsys):
    code, out, _ = run(capsys, "--progress", *map(str, homes), "--format", "csv")
    assert code == 0
    table = list(csv.DictReader(io.StringIO(out)))
    assert list(table[0]) == ["student", "lesson", "exercise", "status", "attempts",
                              "first_passed", "last_attempt", "workspace"]
    by_student = {}
    for row in table:
        by_student.setdefault(row["student"], {})[row["exercise"]] = row
    assert list(by_student) == ["alice", "bob", "carol", "dana"]
    assert [row["exercise"] for row in table if row["student"] == "carol"] == EXERCISES
    alice = by_student["alice"]
    assert alice["exp"]["status"] == "passed" and alice["exp"]["first_passed"] == WHEN.isoformat()
    assert alice["relu"]["status"] == "tried" and alice["relu"]["attempts"] == "2"
    assert alice["sigmoid"]["status"] == "untried" and alice["exp"]["lesson"] == "04-custom-functions"
    assert alice["exp"]["workspace"].endswith("alice/minigrad-lessons")
    assert by_student["bob"]["topo_order"]["status"] == "passed"
    assert by_student["bob"]["retired_exercise"]["lesson"] == ""     # kept, though unknown now
    assert by_student["dana"]["linear"]["status"] == "tried"
    assert {row["status"] for row in by_student["carol"].values()} == {"untried"}
    assert by_student["carol"]["exp"]["workspace"] == ""


def test_a_damaged_progress_file_is_read_as_far_as_it_can_be_and_named(homes, capsys):
    path = homes[1] / progress.FILENAME
    content = json.loads(path.read_text(encoding="utf-8"))
    content["exercises"]["exp"] = "garbled"
    path.write_text(json.dumps(content), encoding="utf-8")
    code, out, err = run(capsys, "--progress", *map(str, homes), "--format", "csv")
    rows = [row for row in csv.DictReader(io.StringIO(out)) if row["student"] == "bob"]
    assert code == 0 and {row["exercise"] for row in rows if row["status"] == "passed"} == {
        "topo_order", "retired_exercise"}
    assert err.strip() == f"{path} is damaged: the table holds what could be read of it."


def test_the_same_class_as_json_and_as_text(homes, capsys):
    _, out, _ = run(capsys, "--progress", *map(str, homes), "--format", "json")
    students = json.loads(out)["students"]
    assert [(s["student"], s["passed"]) for s in students] == [
        ("alice", 1), ("bob", 2), ("carol", 0), ("dana", 0)]
    assert students[0]["exercises"][EXERCISES.index("relu")] == {
        "lesson": "04-custom-functions", "exercise": "relu", "status": "tried", "attempts": 2,
        "first_passed": "", "last_attempt": WHEN.isoformat()}
    _, out, _ = run(capsys, "--progress", *map(str, homes))
    lines = out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["alice", f"1/{len(EXERCISES)}"], ["bob", f"2/{len(EXERCISES) + 1}"],
        ["carol", f"0/{len(EXERCISES)}"], ["dana", f"0/{len(EXERCISES)}"]]
    assert "04 ✓·✗··" in lines[0]


def test_one_workspace_exported_by_its_student(homes, capsys, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "alice-on-the-hub")
    code, out, _ = run(capsys, "--progress", "--format", "csv",
                       "--dir", str(homes[0] / "minigrad-lessons"))
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and {row["student"] for row in table} == {"alice-on-the-hub"}
    assert [row["exercise"] for row in table if row["status"] == "passed"] == ["exp"]
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(homes[1]))     # found as check() finds it
    _, out, _ = run(capsys, "--progress", "--format", "json", "--dir", "nowhere")
    assert json.loads(out)["students"][0]["passed"] == 2


def test_a_folder_that_is_not_there_is_named_in_the_students_language(homes, capsys,
                                                                       tmp_path):
    code, _, err = run(capsys, "--progress", str(homes[0]), str(tmp_path / "eve"), "--lang", "zh")
    assert code == 2 and "eve 不是文件夹" in err
    code, out, _ = run(capsys, "--progress", "--format", "csv", "--dir", str(tmp_path / "eve"))
    assert code == 1 and "not a lesson workspace" in out
