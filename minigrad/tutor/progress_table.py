"""Progress as a table a teacher can collect: one student's workspace, or a whole class's.

    minigrad-tutor --progress --format csv                  this workspace
    minigrad-tutor --progress /home/* --format csv          every home folder named, one table

A table has one row per student and exercise, in the order of the lessons
(COLUMNS); `--format json` gives the same, grouped by student.  A folder
named on the command line is one student's, named after the folder: the
workspace is the folder itself (a hub that sets MINIGRAD_WORKSPACE to the
home folder, a Binder checkout), or the launcher's minigrad-lessons/ in it,
or the nearest folder below that holds a progress file.  A folder with none is
a student who has not started: every exercise untried.

    >>> table = rows("alice", None)               # a student who has not started
    >>> [(row["lesson"], row["status"]) for row in table if row["exercise"] == "exp"]
    [('04-custom-functions', 'untried')]
"""
import csv
import getpass
import io
import json
import os
import pathlib

from minigrad import progress
from minigrad.lessons import LESSONS

COLUMNS = ("student", "lesson", "exercise", "status", "attempts", "first_passed",
           "last_attempt", "workspace")
PASSED, TRIED, UNTRIED = "passed", "tried", "untried"
LAUNCHER_FOLDER = "minigrad-lessons"        # where minigrad-tutor puts a workspace by default
MARKS = {PASSED: "✓", TRIED: "✗", UNTRIED: "·"}


def find_workspace(folder):
    """The workspace in a student's `folder` (see the module's docstring), or None."""
    folder = pathlib.Path(folder)
    for candidate in (folder, folder / LAUNCHER_FOLDER):
        if (candidate / progress.MARKER).exists() or (candidate / progress.FILENAME).exists():
            return candidate
    found = sorted(folder.glob(f"*/{progress.FILENAME}")) or sorted(
        folder.glob(f"*/*/{progress.FILENAME}"))
    return found[0].parent if found else None


def rows(student, workspace):
    """One row (a dict of COLUMNS) per exercise of the course, then per other exercise id
    the workspace's progress file names."""
    entries = progress.load(workspace) if workspace else {}
    course = [(lesson.slug, exercise) for lesson in LESSONS for exercise in lesson.exercises]
    known = {exercise for _, exercise in course}
    course += [("", exercise) for exercise in sorted(set(entries) - known)]
    table = []
    for lesson, exercise in course:
        entry = entries.get(exercise, {})
        status = PASSED if entry.get("passed") else TRIED if entry.get("attempts") else UNTRIED
        table.append({"student": student, "lesson": lesson, "exercise": exercise,
                      "status": status, "attempts": entry.get("attempts", 0),
                      "first_passed": entry.get("first_passed", ""),
                      "last_attempt": entry.get("last_attempt", ""),
                      "workspace": str(workspace or "")})
    return table


def class_rows(folders=None, workspace=None):
    """The rows of every student folder in `folders`; without folders, of `workspace`, the
    student being whoever runs this (a student exporting their own progress; on a
    JupyterHub, where every server runs as jovyan, the hub's name for them)."""
    if not folders:
        return rows(os.environ.get("JUPYTERHUB_USER") or getpass.getuser(), workspace)
    return [row for folder in folders
            for row in rows(pathlib.Path(folder).resolve().name, find_workspace(folder))]


def as_csv(table):
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return out.getvalue()


def as_json(table):
    """{"students": [{"student", "workspace", "passed", "exercises": [rows without those]}]}."""
    students = {}
    for row in table:
        student = students.setdefault(row["student"], {
            "student": row["student"], "workspace": row["workspace"], "passed": 0,
            "exercises": []})
        student["passed"] += row["status"] == PASSED
        student["exercises"].append({key: row[key] for key in COLUMNS
                                     if key not in ("student", "workspace")})
    return json.dumps({"students": list(students.values())}, ensure_ascii=False, indent=1)


def as_text(table):
    """One line per student: how many passed, then each lesson's exercises as ✓ ✗ ·."""
    lines = []
    for student in dict.fromkeys(row["student"] for row in table):
        mine = [row for row in table if row["student"] == student]
        passed = sum(row["status"] == PASSED for row in mine)
        lessons = {}
        for row in mine:
            lessons.setdefault(row["lesson"][:2] or "??", []).append(MARKS[row["status"]])
        marks = "  ".join(f"{number} {''.join(signs)}" for number, signs in lessons.items())
        lines.append(f"{student:<16} {passed:>3}/{len(mine):<3}  {marks}")
    return "\n".join(lines)


FORMATS = {"csv": as_csv, "json": as_json, "text": as_text}
