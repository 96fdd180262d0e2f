"""The student's lesson workspace: copy the lessons in, never overwrite their work.

A workspace is a folder (default ``./minigrad-lessons``) laid out as::

    .minigrad-workspace        marker: {"lang": "en"}  (see minigrad.progress)
    .minigrad-manifest.json    sha256 of every notebook the launcher last wrote
    minigrad-progress.json     which exercises passed (written by check())
    en/01-tensors-and-the-graph.ipynb ...       the student's copies
    en/solutions/01-tensors-and-the-graph.ipynb ...
    en/backups/03-custom-functions.20261121-100211.ipynb   (made by --reset)

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
# work as well.

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
import datetime
import hashlib
import json
import os
import pathlib
import re
import tempfile

from minigrad import progress

MANIFEST = ".minigrad-manifest.json"

# What sync() did to one lesson (Change.status):
ADDED = "added"            # not in the workspace yet: copied
UPDATED = "updated"        # a newer lesson replaced an unedited copy
UNCHANGED = "unchanged"    # the copy is the lesson as shipped
EDITED = "edited"          # the student's copy, kept (the lesson did not change)
KEPT_NEW_SAVED = "kept"    # the student's copy, kept; the newer lesson saved as .new.ipynb


@dataclasses.dataclass(frozen=True)
class Change:
    """One notebook's fate in sync(): its workspace path and what happened to it."""

    path: pathlib.Path
    status: str
    new_version: pathlib.Path | None = None    # where the newer lesson went, for KEPT_NEW_SAVED

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
    """
    workspace = pathlib.Path(workspace)
    lessons = source_notebooks(source, lang, solutions)
    if not lessons:
        raise FileNotFoundError(f"no {lang} lessons in {lesson_folder(source, lang, solutions)}")
    target = lesson_folder(workspace, lang, solutions)
    target.mkdir(parents=True, exist_ok=True)
    write_marker(workspace, lang)
    manifest = read_manifest(workspace)
    changes = [_sync_one(lesson, target / lesson.name, workspace, manifest) for lesson in lessons]
    _write_json(workspace / MANIFEST, manifest)
    return changes


def _sync_one(lesson, copy, workspace, manifest):
    key = copy.relative_to(workspace).as_posix()
    shipped = digest(lesson)
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
    _copy(lesson, new_copy, manifest, new_copy.relative_to(workspace).as_posix())
    return Change(copy, KEPT_NEW_SAVED, new_copy)


def find_lesson(source, lang, wanted, solutions=False):
    """The shipped notebook that `wanted` names: a number ("3", "03") or a slug ("03-custom-functions").

    >>> import pathlib, tempfile
    >>> source = pathlib.Path(tempfile.mkdtemp()); (source / "en").mkdir()
    >>> _ = (source / "en" / "03-custom-functions.ipynb").write_text("{}")
    >>> [find_lesson(source, "en", w).name for w in ("3", "03", "custom-functions")]
    ['03-custom-functions.ipynb', '03-custom-functions.ipynb', '03-custom-functions.ipynb']
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
    """Put the shipped version of one lesson back; returns (restored path, backup path or None).

    The student's copy, when it differs from the shipped lesson, is first
    moved to <lang>/backups/NN-slug.<time>.ipynb; nothing is ever deleted.
    """
    workspace = pathlib.Path(workspace)
    lesson = find_lesson(source, lang, wanted, solutions)
    copy = lesson_folder(workspace, lang, solutions) / lesson.name
    copy.parent.mkdir(parents=True, exist_ok=True)
    write_marker(workspace, lang)
    manifest = read_manifest(workspace)
    backup = None
    if copy.exists() and digest(copy) != digest(lesson):
        stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
        backup = copy.parent / "backups" / f"{lesson.stem}.{stamp}.ipynb"
        backup.parent.mkdir(exist_ok=True)
        os.replace(copy, backup)
    _copy(lesson, copy, manifest, copy.relative_to(workspace).as_posix())
    new_copy = copy.with_suffix(".new.ipynb")
    if new_copy.exists():                          # the .new file was ours; it is now redundant
        new_copy.unlink()
        manifest.pop(new_copy.relative_to(workspace).as_posix(), None)
    _write_json(workspace / MANIFEST, manifest)
    return copy, backup


def read_marker(workspace):
    """The marker's content ({"lang": ...}), or {} when the folder is not a workspace."""
    try:
        return json.loads((pathlib.Path(workspace) / progress.MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_marker(workspace, lang):
    """Mark `workspace` (progress.find_workspace looks for this file) and remember the language."""
    pathlib.Path(workspace).mkdir(parents=True, exist_ok=True)
    _write_json(pathlib.Path(workspace) / progress.MARKER, {**read_marker(workspace), "lang": lang})


def read_manifest(workspace):
    """{workspace-relative path: sha256 of what the launcher last wrote there}."""
    try:
        return json.loads((pathlib.Path(workspace) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def digest(path):
    """sha256 of a file's bytes."""
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def lesson_number(path):
    """The NN of NN-slug.ipynb, as an int (None for other names)."""
    match = re.match(r"(\d+)-", pathlib.Path(path).name)
    return int(match.group(1)) if match else None


def _copy(lesson, destination, manifest, key):
    data = lesson.read_bytes()
    _write_atomically(destination, data)
    manifest[key] = hashlib.sha256(data).hexdigest()


def _write_json(path, content):
    text = json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    _write_atomically(path, text.encode("utf-8"))


def _write_atomically(path, data):
    """Write through a temporary file and os.replace: an interrupted run leaves no half file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)                 # mkstemp makes 0600; a copied lesson is a plain file
        os.replace(temporary, path)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise
