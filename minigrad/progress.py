"""Which exercises a student has solved, kept in the lesson workspace.

`minigrad-tutor` makes a workspace folder (default ./minigrad-lessons) and
marks it with a file named `.minigrad-workspace`.  Each `check(...)` run in a
notebook inside it records its result in `minigrad-progress.json` next to
that marker; `minigrad-tutor --progress` prints the file.  Outside a
workspace (a notebook opened anywhere else), nothing is written.

The file is small JSON, one entry per exercise id::

    {"exercises": {"exp": {"passed": true, "attempts": 3,
                           "first_passed": "2026-11-21T10:02:11", "last_attempt": "..."}}}

It is written atomically (a temporary file, then `os.replace`), so a kernel
killed mid-write never leaves half a file behind.
"""
import datetime
import json
import os
import pathlib
import tempfile

MARKER = ".minigrad-workspace"
FILENAME = "minigrad-progress.json"


def find_workspace(start=None):
    """The workspace folder holding `start` (default: the current folder), or None.

    MINIGRAD_WORKSPACE, when set, wins; else the nearest folder, from `start`
    upwards, that holds the marker file.
    """
    env = os.environ.get("MINIGRAD_WORKSPACE")
    if env:
        return pathlib.Path(env)
    here = pathlib.Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / MARKER).exists():
            return folder
    return None


def load(workspace):
    """The progress entries of `workspace`: {exercise id: entry}; empty when none yet."""
    path = pathlib.Path(workspace) / FILENAME
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("exercises", {})
    except (OSError, ValueError):
        return {}


def record(exercise_id, passed, workspace=None, now=None):
    """Note one attempt at `exercise_id`; returns the file written, or None outside a workspace.

    Never raises: progress is a convenience, and a read-only folder must not
    turn a student's correct answer into an error.
    """
    try:
        workspace = pathlib.Path(workspace) if workspace else find_workspace()
        if workspace is None:
            return None
        stamp = (now or datetime.datetime.now()).isoformat(timespec="seconds")
        entries = load(workspace)
        entry = entries.setdefault(exercise_id, {"passed": False, "attempts": 0})
        entry["attempts"] += 1
        entry["last_attempt"] = stamp
        if passed and not entry["passed"]:
            entry["passed"], entry["first_passed"] = True, stamp
        return _write_atomically(workspace / FILENAME, {"exercises": entries})
    except Exception:     # noqa: BLE001 — see the docstring
        return None


def _write_atomically(path, content):
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".progress-", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump(content, stream, indent=1, sort_keys=True, ensure_ascii=False)
    os.replace(temporary, path)
    return path
