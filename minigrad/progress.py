"""Which exercises a student has solved, kept in the lesson workspace.

`minigrad-tutor` makes a workspace folder (default ./minigrad-lessons) and
marks it with a file named `.minigrad-workspace`.  Each `check(...)` run in a
notebook inside it records its result in `minigrad-progress.json` next to
that marker; `minigrad-tutor --progress` prints the file, and
`minigrad.exercises.progress()` shows it in a notebook.  Outside a workspace
(a notebook opened anywhere else), nothing is written.

The file is small JSON, one entry per exercise id::

    {"exercises": {"exp": {"passed": true, "attempts": 3,
                           "first_passed": "2026-11-21T10:02:11", "last_attempt": "..."}}}

It is written atomically (a temporary file, then `os.replace`), so a kernel
killed mid-write never leaves half a file behind.  A file that cannot be read
as such (truncated by hand, saved in another encoding, another shape of JSON)
is never overwritten: the next check moves it aside as a backup and starts a
new one with the entries that still made sense.

The workspace's other files follow the same two rules, so they live here too:
`write_atomically`, and `move_to_backup`, which never reuses a backup's name.
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


def read(workspace):
    """(entries, damaged): the progress of `workspace`, {exercise id: entry}, and whether
    its file is damaged (then the entries are those that still made sense)."""
    try:
        content = json.loads((pathlib.Path(workspace) / FILENAME).read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return {}, False
    except (OSError, ValueError):           # unreadable, not UTF-8, not JSON
        return {}, True
    entries = content.get("exercises") if isinstance(content, dict) else None
    if not isinstance(entries, dict):
        return {}, True
    valid = {exercise: entry for exercise, entry in entries.items() if _is_entry(entry)}
    return valid, len(valid) < len(entries)


def _is_entry(entry):
    return (isinstance(entry, dict) and isinstance(entry.get("passed"), bool)
            and type(entry.get("attempts")) is int and entry["attempts"] >= 0
            and all(isinstance(entry.get(stamp, ""), str)
                    for stamp in ("first_passed", "last_attempt")))


def load(workspace):
    """The progress entries of `workspace`: {exercise id: entry}; empty when none yet."""
    return read(workspace)[0]


def record(exercise_id, passed, workspace=None, now=None):
    """Note one attempt at `exercise_id`.

    Returns the backup made of a damaged progress file (so the caller can say so,
    once), else None.  Never raises: progress is a convenience, and a read-only
    folder must not turn a student's correct answer into an error.
    """
    try:
        workspace = pathlib.Path(workspace) if workspace else find_workspace()
        if workspace is None:
            return None
        now = now or datetime.datetime.now()
        stamp = now.isoformat(timespec="seconds")
        entries, damaged = read(workspace)
        backup = move_to_backup(workspace / FILENAME, workspace, now, ".damaged") if damaged else None
        entry = entries.setdefault(exercise_id, {"passed": False, "attempts": 0})
        entry["attempts"] += 1
        entry["last_attempt"] = stamp
        if passed and not entry["passed"]:
            entry["passed"], entry["first_passed"] = True, stamp
        kept = {} if damaged else _other_fields(workspace)    # (a damaged file is the backup)
        write_json(workspace / FILENAME, {**kept, "exercises": entries})
        return backup
    except Exception:     # noqa: BLE001 — see the docstring
        return None


def _other_fields(workspace):
    """What the progress file holds besides "exercises" (a teacher's note, a newer
    minigrad's field): written back as it was."""
    try:
        content = json.loads((pathlib.Path(workspace) / FILENAME).read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return {key: value for key, value in content.items() if key != "exercises"}


def write_json(path, content):
    """Write `content` as indented JSON, atomically."""
    text = json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8"))


def write_atomically(path, data):
    """Write through a temporary file and os.replace: an interrupted run leaves no half file."""
    path = pathlib.Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)          # mkstemp makes 0600; these are plain files
        os.replace(temporary, path)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise


def move_to_backup(path, folder, now=None, tag=""):
    """Move `path` into `folder` as <name><tag>.<date-time><suffix>; returns the new path.

    The name is reserved first (created exclusively), so two backups made in the
    same second, even by two processes, get two names (-2, -3... added).
    """
    path, folder = pathlib.Path(path), pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{path.stem}{tag}.{(now or datetime.datetime.now()):%Y%m%d-%H%M%S}"
    for count in range(1, 10_000):
        backup = folder / f"{name}{'' if count == 1 else f'-{count}'}{path.suffix}"
        try:
            os.close(os.open(backup, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        try:
            os.replace(path, backup)
        except BaseException:
            backup.unlink(missing_ok=True)
            raise
        return backup
    raise FileExistsError(f"no free backup name for {path} in {folder}")
