"""Lessons that changed number: a student's copy follows its lesson to the new name.

A lesson's file is NN-slug.ipynb, and the number is its place in the course.
When the course is put in a new order, `03-custom-functions.ipynb` becomes
`04-custom-functions.ipynb`; a workspace made before holds the old name,
maybe with the student's answers in it.  Before the launcher brings the
workspace up to date, each such copy (and its NN-slug.new.ipynb) is renamed
to the lesson's new number, with its manifest entry: the student finds their
work where the course index now links, and it is treated as it always was
(kept if edited, replaced if not).

    >>> import pathlib, tempfile
    >>> work = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (work / "03-custom-functions.ipynb").write_text("my answers")
    >>> manifest = {}
    >>> moved = follow(work, ["04-custom-functions.ipynb"], work, manifest)
    >>> [(new.name, old.name) for new, old in moved.items()]
    [('04-custom-functions.ipynb', '03-custom-functions.ipynb')]
    >>> (work / "04-custom-functions.ipynb").read_text()
    'my answers'
"""
import pathlib
import re

NUMBERED = re.compile(r"^(\d\d)-(.+)\.ipynb$")


def follow(folder, names, workspace, manifest):
    """Rename, in `folder`, the copy of each lesson in `names` (NN-slug.ipynb as shipped)
    that the folder holds under another number; returns {new path: old path}.

    A lesson is followed only when its new name is free and exactly one old copy exists."""
    folder = pathlib.Path(folder)
    moved = {}
    for name in names:
        match = NUMBERED.match(name)
        target = folder / name
        if not match or target.exists():
            continue
        older = list(folder.glob(f"[0-9][0-9]-{match.group(2)}.ipynb"))
        if len(older) != 1:
            continue
        old = older[0]
        for source, destination in ((old, target),
                                    (old.with_suffix(".new.ipynb"), target.with_suffix(".new.ipynb"))):
            if source.exists() and not destination.exists():
                _rename(source, destination, workspace, manifest)
        moved[target] = old
    return moved


def _rename(source, destination, workspace, manifest):
    source.rename(destination)
    old_key = source.relative_to(workspace).as_posix()
    if old_key in manifest:
        manifest[destination.relative_to(workspace).as_posix()] = manifest.pop(old_key)
