"""An nbgrader course directory of the lessons: `minigrad-tutor --nbgrader DIR [--lang zh]`.

nbgrader (https://nbgrader.readthedocs.io) grades from an instructor's version
of each assignment, kept in `source/<assignment>/`: the notebook with every
answer between `### BEGIN SOLUTION` and `### END SOLUTION`, and cell metadata
that says which cells are answers, which are graded (with points) and which
are locked.  The student notebooks already carry that metadata
(scripts/build-lessons.py writes it); here each stub gets its worked answer
back, between the markers, and the course directory is written::

    DIR/nbgrader_config.py
    DIR/source/04-custom-functions/04-custom-functions.ipynb   (each lesson with exercises)

Then nbgrader's own commands run in DIR (docs/teaching.md, "Grading with
nbgrader"): `nbgrader generate_assignment 04-custom-functions` releases the
student version, `nbgrader autograde 04-custom-functions` grades what was
submitted, `nbgrader export` writes grades.csv.  A graded cell is the
lesson's `check("exp", Exp)`: while nbgrader grades, a check that does not
pass raises, so the cell scores nothing (minigrad.exercises).

A file already in DIR is never overwritten: it may hold the teacher's
changes (points, hidden tests); `write_course` says which it kept.
"""
import pathlib
import re

import nbformat

from minigrad.lessons import YOUR_CODE_HERE

CONFIG = "nbgrader_config.py"
CONFIG_TEXT = '''\
# nbgrader's settings for minigrad's lessons, written by `minigrad-tutor --nbgrader`.
# Run nbgrader in this folder; docs/teaching.md ("Grading with nbgrader") has the commands.
c = get_config()  # noqa: F821 (nbgrader defines it)

# One course per language: the two can share a hub's exchange (and a student's home folder,
# with c.Exchange.path_includes_course = True) without their assignments meeting.
c.CourseDirectory.course_id = "minigrad-{lang}"
# The stub that replaces an answer in the released notebook, as minigrad's student notebooks have it.
c.ClearSolutions.code_stub = {{"python": "{stub}\\nraise NotImplementedError()"}}

# Autograde puts back the teacher's cells (their nbgrader flags, deleted locked cells), then
# runs each submission in a sandbox (bubblewrap) and scores its checks from outside it:
# minigrad's steps, in nbgrader's own lists (minigrad.tutor.grading).
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "minigrad.tutor.grading.RestoreCells",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.Autograde.autograde_preprocessors = [
    "minigrad.tutor.grading.SandboxedGrading",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# A graded cell a student deleted comes back, and is run and scored.
c.OverwriteCells.add_missing_cells = True
# Seconds a cell may run (a check gives the answer 5 s more, twice); "none" runs without
# a sandbox (only inside a container made for grading: docs/teaching.md).
c.SandboxedGrading.sandbox = "bwrap"
c.SandboxedGrading.cell_timeout = 10
c.SandboxedGrading.cell_timeouts = {{"16-capstone": 30}}
'''
STUB = re.compile(r"^([ \t]*)(?:" + "|".join(map(re.escape, YOUR_CODE_HERE.values()))
                  + r")\n\1raise NotImplementedError\(\)$", re.MULTILINE)
ADDED, UNCHANGED, KEPT = "added", "unchanged", "kept"


def marked_answer(student, worked):
    """The worked cell's code with each answer between nbgrader's markers, at the place and
    indentation of the student cell's stub.

    >>> student = "def double(x):\\n    # YOUR CODE HERE\\n    raise NotImplementedError()"
    >>> print(marked_answer(student, "def double(x):\\n    return 2 * x"))
    def double(x):
        ### BEGIN SOLUTION
        return 2 * x
        ### END SOLUTION
    """
    pieces = STUB.split(student)         # given code, indent, given code, indent, ..., given code
    given, indents = pieces[0::2], pieces[1::2]
    pattern = "(.*?)".join(re.escape(text) for text in given)
    match = re.fullmatch(pattern, worked, re.DOTALL)
    if match is None:
        raise ValueError(f"the worked cell is not this student cell with its stubs answered:\n"
                         f"{student}\n---\n{worked}")
    marked = given[0]
    for answer, indent, after in zip(match.groups(), indents, given[1:]):
        marked += f"{indent}### BEGIN SOLUTION\n{answer}\n{indent}### END SOLUTION{after}"
    return marked


def is_graded(notebook):
    return any(cell.metadata.get("nbgrader", {}).get("grade") for cell in notebook.cells)


def source_notebook(student_path, worked_path):
    """The instructor's version of one lesson: the student notebook, answers marked in."""
    notebook = nbformat.read(student_path, as_version=4)
    worked = {cell.id: cell for cell in nbformat.read(worked_path, as_version=4).cells}
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = marked_answer(cell.source, worked[cell.id].source)
    return notebook


def write_course(lessons_dir, folder, lang):
    """Write the course directory `folder` of the `lang` lessons in `lessons_dir` (which holds
    <lang>/NN-slug.ipynb and <lang>/solutions/); returns [(path, ADDED, UNCHANGED or KEPT)]."""
    folder = pathlib.Path(folder)
    lessons = pathlib.Path(lessons_dir) / lang
    config = CONFIG_TEXT.format(lang=lang, stub=YOUR_CODE_HERE[lang])
    written = [_write_new(folder / CONFIG, config)]
    for student in sorted(lessons.glob("[0-9][0-9]-*.ipynb")):
        worked = lessons / "solutions" / student.name
        if not worked.exists():                   # the course index: nothing to grade
            continue
        notebook = source_notebook(student, worked)
        if is_graded(notebook):
            path = folder / "source" / student.stem / student.name
            written.append(_write_new(path, nbformat.writes(notebook) + "\n"))
    return written


def _write_new(path, text):
    if path.exists():
        return path, UNCHANGED if path.read_text(encoding="utf-8") == text else KEPT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path, ADDED
