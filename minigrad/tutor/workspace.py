"""The student's lesson workspace: copy the lessons in, never overwrite their work.

A workspace is a folder (default ``./minigrad-lessons``) laid out as::

    .minigrad-workspace        marker: {"lang": "en"}  (see minigrad.progress)
    .minigrad-manifest.json    sha256 of every notebook the launcher last wrote
    minigrad-progress.json     which exercises passed (written by check())
    en/01-tensors-and-the-graph.ipynb ...       the student's copies
    en/solutions/01-tensors-and-the-graph.ipynb ...
    en/backups/04-custom-functions.20261121-100211.ipynb   (made by --reset)
    .minigrad-lock             held by the running launcher (one per workspace)

One folder per language, so switching language never touches the other
language's notebooks, while the progress file is shared (exercise ids are the
same in both languages).

# NOTE [what "edited by the student" means]
# A notebook in the workspace is the student's when its bytes differ from
# the copy the launcher last wrote there (the hash in the manifest); a file
# with no manifest entry is theirs too.  Only an unedited copy is replaced
# by a newer lesson; an edited one is kept, and the new version is written
# next to it as NN-slug.new.ipynb.  Running a cell changes the outputs, so a
# notebook that was run and saved counts as edited: that is the student's
# work as well.  The .new notebook follows the same rule: a student may well
# work in it, so once edited it is never rewritten, and a still newer lesson
# (or --reset) first moves it into backups/.  Nothing the student may have
# edited is overwritten or deleted without a backup.
#
# NOTE [the workspace's own files]
# The launcher writes only inside the workspace: a folder in it that is a
# link to somewhere else (en/, backups/, .jupyterlab-settings) is refused,
# not followed.  A marker, manifest or progress file it cannot read is moved
# aside as a backup (said once), and the launch carries on.

Example::

    >>> import pathlib, tempfile
    >>> source = pathlib.Path(tempfile.mkdtemp()); (source / "en").mkdir()
    >>> _ = (source / "en" / "01-intro.ipynb").write_text("{}")
    >>> work = pathlib.Path(tempfile.mkdtemp()) / "lessons"
    >>> [(c.name, c.status) for c in sync(source, work, "en")]
    [('01-intro.ipynb', 'added')]
    >>> _ = (work / "en" / "01-intro.ipynb").write_text('{"cells": []}')   # the student's edit
    >>> [(c.name, c.status) for c in sync(source, work, "en")]
    [('01-intro.ipynb', 'edited')]
"""
import dataclasses
import hashlib
import json
import os
import pathlib
import re

from minigrad import progress
from minigrad.tutor import renumbering
from minigrad.settings import LANGUAGES

MANIFEST = ".minigrad-manifest.json"
LOCK = ".minigrad-lock"

# What sync() did to one lesson (Change.status):
ADDED = "added"            # not in the workspace yet: copied
UPDATED = "updated"        # a newer lesson replaced an unedited copy
UNCHANGED = "unchanged"    # the copy is the lesson as shipped
EDITED = "edited"          # the student's copy, kept (the lesson did not change)
KEPT_NEW_SAVED = "kept"    # the student's copy, kept; the newer lesson saved as .new.ipynb


class WorkspaceError(Exception):
    """A workspace the launcher cannot use as it is: `key` names what the launcher says
    (minigrad/tutor/messages.py), `values` fill it in."""

    def __init__(self, key, **values):
        super().__init__(key, values)
        self.key, self.values = key, values


@dataclasses.dataclass(frozen=True)
class Change:
    """One notebook's fate in sync(): its workspace path and what happened to it."""

    path: pathlib.Path
    status: str
    new_version: pathlib.Path | None = None    # where the newer lesson went, for KEPT_NEW_SAVED
    backup: pathlib.Path | None = None         # where an edited .new notebook went before that
    renamed_from: pathlib.Path | None = None   # its name before the lessons were renumbered

    @property
    def name(self):
        return self.path.name


def lesson_folder(workspace, lang, solutions=False):
    """Where the notebooks of `lang` live in `workspace` (solutions one level down)."""
    folder = pathlib.Path(workspace) / lang
    return folder / "solutions" if solutions else folder


def source_notebooks(source, lang, solutions=False):
    """The shipped notebooks of `lang`, sorted: source/<lang>/[solutions/]NN-slug.ipynb."""
    return sorted(lesson_folder(source, lang, solutions).glob("[0-9][0-9]-*.ipynb"))


def sync(source, workspace, lang, solutions=False):
    """Bring `workspace` up to date with the lessons in `source`; returns one Change per lesson.

    Adds lessons the workspace lacks, replaces copies the student never
    edited by newer lessons, keeps every edited copy (saving a newer lesson
    next to it as NN-slug.new.ipynb), and writes the marker and manifest.
    A copy of a lesson that now has another number is renamed first (renumbering.py).
    """
    workspace = pathlib.Path(workspace)
    lessons = source_notebooks(source, lang, solutions)
    if not lessons:
        raise FileNotFoundError(f"no {lang} lessons in {lesson_folder(source, lang, solutions)}")
    target = inside(workspace, lesson_folder(workspace, lang, solutions))
    target.mkdir(parents=True, exist_ok=True)
    write_marker(workspace, lang)
    manifest = read_manifest(workspace)
    moved = renumbering.follow(target, [lesson.name for lesson in lessons], workspace, manifest)
    changes = [_sync_one(lesson, target / lesson.name, workspace, manifest) for lesson in lessons]
    changes = [dataclasses.replace(change, renamed_from=moved.get(change.path))
               for change in changes]
    progress.write_json(workspace / MANIFEST, manifest)
    return changes


def _sync_one(lesson, copy, workspace, manifest):
    key = copy.relative_to(workspace).as_posix()
    shipped = hashlib.sha256(as_copied(lesson)).hexdigest()
    if not copy.exists():
        _copy(lesson, copy, manifest, key)
        return Change(copy, ADDED)
    current = digest(copy)
    if current == shipped:
        manifest[key] = shipped
        return Change(copy, UNCHANGED)
    if manifest.get(key) == current:               # ours, unedited: the lesson moved on
        _copy(lesson, copy, manifest, key)
        return Change(copy, UPDATED)
    new_copy = copy.with_suffix(".new.ipynb")
    if manifest.get(key) == shipped:               # the student's edit of the current lesson
        return Change(copy, EDITED)
    new_key = new_copy.relative_to(workspace).as_posix()
    if new_copy.exists() and digest(new_copy) == shipped:
        manifest[new_key] = shipped
        return Change(copy, KEPT_NEW_SAVED, new_copy)
    if new_copy.exists() and manifest.get(new_key) == shipped:
        return Change(copy, EDITED)                # the student works in the .new notebook
    backup = _back_up_if_edited(new_copy, manifest, new_key)    # the lesson moved on again
    _copy(lesson, new_copy, manifest, new_key)
    return Change(copy, KEPT_NEW_SAVED, new_copy, backup)


def _back_up_if_edited(path, manifest, key, now=None):
    """Move `path` into backups/ unless it is missing or what the launcher wrote there;
    returns the backup, or None."""
    if not path.exists() or manifest.get(key) == digest(path):
        return None
    backups = inside(path.parent, path.parent / "backups")
    return progress.move_to_backup(path, backups, now)


def inside(workspace, path):
    """`path`, when it lies inside `workspace` once links are followed; else WorkspaceError.

    A link inside the workspace (en/ -> /elsewhere) would let the launcher write
    where the student never asked it to: refused, not followed.
    """
    workspace, path = pathlib.Path(workspace), pathlib.Path(path)
    target = path.resolve()
    if not target.is_relative_to(workspace.resolve()):
        raise WorkspaceError("link_outside", path=str(path), target=str(target))
    return path


def find_lesson(source, lang, wanted, solutions=False):
    """The shipped notebook that `wanted` names: a number ("4", "04") or a slug ("04-custom-functions").

    >>> import pathlib, tempfile
    >>> source = pathlib.Path(tempfile.mkdtemp()); (source / "en").mkdir()
    >>> _ = (source / "en" / "04-custom-functions.ipynb").write_text("{}")
    >>> [find_lesson(source, "en", w).name for w in ("4", "04", "custom-functions")]
    ['04-custom-functions.ipynb', '04-custom-functions.ipynb', '04-custom-functions.ipynb']
    """
    wanted = str(wanted).strip().removesuffix(".ipynb")
    lessons = source_notebooks(source, lang, solutions)
    for lesson in lessons:
        number, _, slug = lesson.stem.partition("-")
        if wanted.isdigit() and int(wanted) == int(number) or wanted in (lesson.stem, slug):
            return lesson
    names = ", ".join(lesson.stem for lesson in lessons)
    raise LookupError(f"no lesson {wanted!r}; the lessons are: {names}")


def reset(source, workspace, lang, wanted, solutions=False, now=None):
    """Put the shipped version of one lesson back; returns (restored path, [backups made]).

    The student's copy, when it differs from the shipped lesson, is first
    moved to <lang>/backups/NN-slug.<time>.ipynb, and so is an edited
    NN-slug.new.ipynb; nothing the student edited is ever deleted.
    """
    workspace = pathlib.Path(workspace)
    lesson = find_lesson(source, lang, wanted, solutions)
    copy = inside(workspace, lesson_folder(workspace, lang, solutions)) / lesson.name
    copy.parent.mkdir(parents=True, exist_ok=True)
    write_marker(workspace, lang)
    manifest = read_manifest(workspace)
    backups = []
    if copy.exists() and digest(copy) != hashlib.sha256(as_copied(lesson)).hexdigest():
        backups.append(progress.move_to_backup(copy, inside(workspace, copy.parent / "backups"),
                                               now))
    _copy(lesson, copy, manifest, copy.relative_to(workspace).as_posix())
    new_copy = copy.with_suffix(".new.ipynb")
    new_key = new_copy.relative_to(workspace).as_posix()
    backups.append(_back_up_if_edited(new_copy, manifest, new_key, now))
    if new_copy.exists():                          # ours, unedited: now redundant
        new_copy.unlink()
    manifest.pop(new_key, None)
    progress.write_json(workspace / MANIFEST, manifest)
    return copy, [backup for backup in backups if backup]


def read_marker(workspace):
    """The marker's content ({"lang": ...}), or {} when the folder is not a workspace
    (or the marker cannot be read)."""
    marker = _read_json(pathlib.Path(workspace) / progress.MARKER)
    return marker if _is_marker(marker) else {}


def write_marker(workspace, lang):
    """Mark `workspace` (progress.find_workspace looks for this file) and remember the language."""
    pathlib.Path(workspace).mkdir(parents=True, exist_ok=True)
    progress.write_json(pathlib.Path(workspace) / progress.MARKER,
                        {**read_marker(workspace), "lang": lang})


def read_manifest(workspace):
    """{workspace-relative path: sha256 of what the launcher last wrote there}; {} when the
    file is missing or cannot be read (every notebook that differs then counts as edited)."""
    manifest = _read_json(pathlib.Path(workspace) / MANIFEST)
    return manifest if _is_manifest(manifest) else {}


def _read_json(path):
    """The JSON in `path`; _MISSING when there is no such file, _DAMAGED when it is no JSON."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return _MISSING
    except (OSError, ValueError):
        return _DAMAGED


_MISSING, _DAMAGED = object(), object()


def _is_marker(content):
    return isinstance(content, dict) and content.get("lang", "en") in LANGUAGES


def _is_manifest(content):
    return isinstance(content, dict) and all(isinstance(value, str) for value in content.values())


def set_aside_damaged(workspace, now=None):
    """Move the workspace's files that cannot be read (marker, manifest, progress) aside
    as backups, so the launcher can write new ones; returns [(file name, backup)]."""
    workspace = pathlib.Path(workspace)
    moved = []
    for name, valid in ((progress.MARKER, _is_marker), (MANIFEST, _is_manifest)):
        content = _read_json(workspace / name)
        if content is not _MISSING and not valid(content):
            moved.append((name, progress.move_to_backup(workspace / name, workspace, now,
                                                        ".damaged")))
    if progress.read(workspace)[1]:
        moved.append((progress.FILENAME, progress.move_to_backup(
            workspace / progress.FILENAME, workspace, now, ".damaged")))
    return moved


def lock(workspace):
    """Hold the workspace's lock until this process ends (JupyterLab, once the launcher
    becomes it: the lock's file stays open across exec); returns its file descriptor.

    Raises WorkspaceError("already_running", pid=...) when another launch holds it.
    """
    path = inside(workspace, pathlib.Path(workspace) / LOCK)
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _lock_file(handle)
    except OSError:
        holder = os.read(handle, 100).decode("ascii", "replace").strip()
        os.close(handle)
        raise WorkspaceError("already_running", pid=holder) from None
    os.ftruncate(handle, 0)
    os.write(handle, f"{os.getpid()}\n".encode("ascii"))
    os.set_inheritable(handle, True)
    return handle


def _lock_file(handle):
    if os.name == "nt":
        import msvcrt
        msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


# --- the worked notebooks, where the teacher keeps them out ---------------------------------

HIDE_SOLUTIONS = "MINIGRAD_HIDE_SOLUTIONS"     # =1: no worked notebooks in the workspace


def solutions_hidden(environ=None):
    """Whether the teacher keeps the worked notebooks out of the workspace:
    MINIGRAD_HIDE_SOLUTIONS=1 (setup.py then also leaves them out of the package)."""
    return (os.environ if environ is None else environ).get(HIDE_SOLUTIONS) == "1"


def remove_solutions(workspace):
    """Take the worked notebooks the launcher wrote into `workspace` out again; returns
    (removed, kept).  A copy the student never edited is deleted; an edited one is the
    student's work (see the NOTE above) and stays."""
    workspace = pathlib.Path(workspace)
    manifest = read_manifest(workspace)
    removed, kept = [], []
    for copy in sorted(workspace.glob("*/solutions/*.ipynb")):
        inside(workspace, copy)                    # never deletes through a link out of it
        key = copy.relative_to(workspace).as_posix()
        if manifest.get(key) == digest(copy):
            copy.unlink()
            del manifest[key]
            removed.append(copy)
        else:
            kept.append(copy)
    if removed:
        progress.write_json(workspace / MANIFEST, manifest)
    for folder in {copy.parent for copy in removed}:
        if not any(folder.iterdir()):
            folder.rmdir()
    return removed, kept


def digest(path):
    """sha256 of a file's bytes."""
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def lesson_number(path):
    """The NN of NN-slug.ipynb, as an int (None for other names)."""
    match = re.match(r"(\d+)-", pathlib.Path(path).name)
    return int(match.group(1)) if match else None


def _copy(lesson, destination, manifest, key):
    data = as_copied(lesson)
    progress.write_atomically(destination, data)
    manifest[key] = hashlib.sha256(data).hexdigest()


# NOTE [the kernel's language_info]
# As soon as a notebook's kernel starts, JupyterLab writes the kernel's language_info
# (with the Python version) into the notebook's metadata: a lesson that held only
# {"name": "python"} showed as modified right after it was opened, and closing it
# asked to save.  The shipped lessons keep that short form (they are built on one
# Python and run on many), so the copy in the workspace gets what this Python's
# kernel will report, and opens unmodified.

def as_copied(lesson):
    """The bytes the workspace gets for a shipped notebook (see the NOTE above)."""
    data = pathlib.Path(lesson).read_bytes()
    try:
        notebook = json.loads(data.decode("utf-8"))
        from ipykernel.ipkernel import IPythonKernel    # slow to import, and only in the
    except (ValueError, ImportError):                   # tutor extra: the kernel's words
        return data
    metadata = notebook.get("metadata", {})
    if (metadata.get("kernelspec", {}).get("name") != "python3"
            or metadata.get("language_info") != {"name": "python"}):
        return data
    metadata["language_info"] = dict(IPythonKernel.language_info)
    return (json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False)
            + "\n").encode("utf-8")
