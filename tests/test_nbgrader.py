"""nbgrader: the student notebooks' metadata, the course directory, and a whole grading round.

The student notebooks carry nbgrader's cell metadata (scripts/build-lessons.py);
`minigrad-tutor --nbgrader DIR` writes a course directory from them; nbgrader
(from PyPI, in the test extra) then releases, autogrades and exports lesson 04
as docs/teaching.md tells a teacher to: the worked answers score full marks, the
untouched notebook zero, one typical mistake loses that exercise's point only.
"""
import copy
import csv
import os
import re
import subprocess
import sys

import pathlib

import nbformat
import pytest

from minigrad.lessons import LESSONS, YOUR_CODE_HERE, lesson_path
from minigrad.tutor import cli, nbgrader as course

SOURCES = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "sources"
MARKER = re.compile(r"^\s*### (BEGIN|END) SOLUTION$")
GRADED_LESSONS = [lesson for lesson in LESSONS if lesson.exercises]


def read(path):
    return nbformat.read(path, as_version=4)


def metadata(cell):
    return cell.metadata.get("nbgrader", {})


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_student_notebooks_say_which_cells_are_answers_checks_and_lesson(lesson, lang):
    notebook = read(lesson_path(lesson, lang))
    graded = {metadata(cell)["grade_id"]: cell for cell in notebook.cells if metadata(cell)["grade"]}
    assert sorted(graded) == sorted(lesson.exercises)
    for exercise, cell in graded.items():
        assert cell.cell_type == "code" and metadata(cell)["points"] > 0
        assert re.search(rf'^check\("{exercise}", .*\)$', cell.source, re.MULTILINE)
    for cell in notebook.cells:
        answer = cell.cell_type == "code" and YOUR_CODE_HERE[lang] in cell.source
        assert metadata(cell)["solution"] == answer
        assert metadata(cell)["locked"] == (not answer), cell.source   # the lesson, and checks
        assert metadata(cell)["schema_version"] == 3
    ids = [metadata(cell)["grade_id"] for cell in notebook.cells]
    assert len(ids) == len(set(ids))
    worked = read(lesson_path(lesson, lang, solutions=True))
    assert not any("nbgrader" in cell.metadata for cell in worked.cells)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", GRADED_LESSONS, ids=lambda lesson: lesson.slug)
def test_the_instructor_version_is_the_worked_lesson_with_answers_marked(lesson, lang):
    """Without its markers its code is the worked notebook's; with nbgrader's stubs in place
    of the marked answers (as generate_assignment writes them) it is the student notebook."""
    pytest.importorskip("nbgrader", reason="nbgrader needs Python 3.11 or newer")
    from nbgrader.preprocessors import ClearSolutions
    student, worked = lesson_path(lesson, lang), lesson_path(lesson, lang, solutions=True)
    source = course.source_notebook(student, worked)
    unmarked = ["\n".join(line for line in cell.source.split("\n") if not MARKER.match(line))
                for cell in source.cells if cell.cell_type == "code"]
    assert unmarked == [cell.source for cell in read(worked).cells if cell.cell_type == "code"]
    stub = {"python": f"{YOUR_CODE_HERE[lang]}\nraise NotImplementedError()"}  # the course's
    released, _ = ClearSolutions(code_stub=stub).preprocess(copy.deepcopy(source), {})
    assert [cell.source for cell in released.cells] == [cell.source for cell in read(student).cells]
    marked = sum(cell.source.count("### BEGIN SOLUTION") for cell in source.cells)
    blocks = (SOURCES / f"{lesson.slug}.py").read_text(encoding="utf-8")
    assert marked == blocks.count("### BEGIN SOLUTION") > 0


def test_a_worked_cell_that_does_not_fit_its_stub_is_refused():
    student = "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()\ny = f(1)"
    assert course.marked_answer(student, "def f(x):\n    return x\ny = f(1)").count("###") == 2
    with pytest.raises(ValueError, match="not this student cell"):
        course.marked_answer(student, "def g(x):\n    return x\ny = g(1)")


def test_the_command_writes_a_course_and_keeps_a_teachers_changes(tmp_path, capsys):
    folder = tmp_path / "course"
    assert cli.main(["--nbgrader", str(folder), "--lang", "zh"]) == 0
    said = capsys.readouterr().out
    assert f"共 {len(GRADED_LESSONS)} 份作业" in said and "nbgrader generate_assignment" in said
    assignments = sorted(path.name for path in (folder / "source").iterdir())
    assert assignments == [lesson.slug for lesson in GRADED_LESSONS]
    notebook = folder / "source" / "04-custom-functions" / "04-custom-functions.ipynb"
    assert any('minigrad.settings.lang = "zh"' in cell.source for cell in read(notebook).cells)
    assert "c.CourseDirectory.course_id" in (folder / "nbgrader_config.py").read_text()
    changed = read(notebook)
    graded = next(cell for cell in changed.cells if metadata(cell).get("grade"))
    graded.metadata["nbgrader"]["points"] = 3
    nbformat.write(changed, notebook)
    assert cli.main(["--nbgrader", str(folder), "--lang", "zh"]) == 0
    said = capsys.readouterr().out
    assert re.search(r"已保留 .*04-custom-functions\.ipynb", said) and "已添加" not in said
    assert metadata(read(notebook).cells[graded_index(changed)])["points"] == 3


def test_a_course_kept_from_an_older_minigrad_is_said_to_grade_unsandboxed(tmp_path, capsys):
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / "nbgrader_config.py").write_text('c = get_config()\nc.CourseDirectory.course_id = '
                                               '"minigrad"\n')
    assert cli.main(["--nbgrader", str(folder), "--lang", "en"]) == 0
    said = capsys.readouterr()
    assert "grades without the sandbox" in said.err and "Delete it" in said.err
    (folder / "nbgrader_config.py").unlink()
    assert cli.main(["--nbgrader", str(folder), "--lang", "en"]) == 0
    assert "sandbox" not in capsys.readouterr().err


def graded_index(notebook):
    return next(i for i, cell in enumerate(notebook.cells) if metadata(cell).get("grade"))


@pytest.mark.notebooks
@pytest.mark.parametrize("lesson", GRADED_LESSONS, ids=lambda lesson: lesson.slug)
def test_every_worked_lesson_scores_full_marks_where_nbgrader_grades(lesson):
    """The worked notebook run as nbgrader's autograder runs it (NBGRADER_EXECUTION set):
    nbgrader gives a graded cell nothing for an error and for any text on stderr."""
    from nbclient import NotebookClient
    graded = {cell.id for cell in read(lesson_path(lesson, "en")).cells
              if metadata(cell).get("grade")}
    notebook = read(lesson_path(lesson, "en", solutions=True))
    environment = {key: value for key, value in os.environ.items() if key != "MINIGRAD_WORKSPACE"}
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                   record_timing=False).execute(env={**environment,
                                                     "NBGRADER_EXECUTION": "autograde"})
    scored = [cell for cell in notebook.cells if cell.id in graded]
    assert len(scored) == len(lesson.exercises)
    for cell in scored:
        assert [output.output_type for output in cell.outputs] == ["display_data"], cell.outputs
        assert cell.outputs[0].data["text/plain"].startswith("✓ ")


# --- a whole round of nbgrader, as docs/teaching.md gives it ----------------------------

def nbgrader(folder, *arguments):
    """Run `nbgrader ...` in the course folder, with no configuration but the course's own."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("NBGRADER", "MINIGRAD_WORKSPACE"))}
    environment.update(JUPYTER_CONFIG_DIR=str(folder.parent / "jupyter-config"),
                       MINIGRAD_LANG="en",         # nbgrader runs `alembic` from PATH
                       PATH=os.pathsep.join([os.path.dirname(sys.executable),
                                             environment.get("PATH", "")]))
    done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=folder,
                          env=environment, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


def submit(folder, student, notebook):
    path = folder / "submitted" / student / "04-custom-functions" / "04-custom-functions.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(notebook, path)


def test_nbgrader_releases_autogrades_and_exports_lesson_04(tmp_path):
    pytest.importorskip("nbgrader", reason="nbgrader needs Python 3.11 or newer")
    folder = tmp_path / "course"
    assert cli.main(["--nbgrader", str(folder), "--lang", "en"]) == 0
    nbgrader(folder, "generate_assignment", "04-custom-functions")
    released = read(folder / "release" / "04-custom-functions" / "04-custom-functions.ipynb")
    student = read(lesson_path(4, "en"))
    assert [cell.source for cell in released.cells] == [cell.source for cell in student.cells]

    worked = {cell.id: cell.source for cell in read(lesson_path(4, "en", solutions=True)).cells}
    answered = copy.deepcopy(released)
    for cell in answered.cells:
        if metadata(cell).get("solution"):
            cell.source = worked[cell.id]
    mistaken = copy.deepcopy(answered)         # the commonest mistake: forgetting grad_output
    exp = next(cell for cell in mistaken.cells if cell.source.startswith("class Exp("))
    assert "return grad_output * result" in exp.source
    exp.source = exp.source.replace("return grad_output * result", "return result")
    submit(folder, "worked", answered)
    submit(folder, "untouched", released)
    submit(folder, "forgot-grad-output", mistaken)

    log = nbgrader(folder, "autograde", "04-custom-functions")
    assert "cannot be converted to a float" not in log     # a passed check is no score
    nbgrader(folder, "export")
    with open(folder / "grades.csv", encoding="utf-8") as table:
        scores = {row["student_id"]: (float(row["score"]), float(row["max_score"]))
                  for row in csv.DictReader(table)}
    points = len(LESSONS[3].exercises)
    assert scores == {"worked": (points, points), "untouched": (0, points),
                      "forgot-grad-output": (points - 1, points)}
    graded = read(folder / "autograded" / "forgot-grad-output" / "04-custom-functions" /
                  "04-custom-functions.ipynb")
    errors = [output for cell in graded.cells for output in cell.get("outputs", [])
              if output.output_type == "error"]
    assert [error.ename for error in errors] == ["NotPassed"]
    assert "grad_output" in errors[0].evalue           # the hint reaches the feedback


@pytest.mark.grading
def test_both_languages_share_a_hubs_exchange(tmp_path):
    """docs/teaching.md's hub round: two courses, one exchange, the same assignment name;
    release, fetch, submit and collect keep the languages apart."""
    pytest.importorskip("nbgrader", reason="nbgrader needs Python 3.11 or newer")
    config, exchange, home = tmp_path / "jupyter", tmp_path / "exchange", tmp_path / "student"
    for folder in (config, exchange, home):
        folder.mkdir()
    (config / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\n"
        "c.Exchange.path_includes_course = True\n")
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("NBGRADER", "MINIGRAD", "JUPYTER"))}
    environment.update(JUPYTER_CONFIG_DIR=str(config), JUPYTER_DATA_DIR=str(tmp_path / "data"),
                       PATH=os.pathsep.join([os.path.dirname(sys.executable),
                                             environment.get("PATH", "")]))

    def run(folder, *arguments):
        done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=folder,
                              env=environment, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assignment = "04-custom-functions"
    for lang in ("en", "zh"):
        folder = tmp_path / f"minigrad-{lang}"
        assert cli.main(["--nbgrader", str(folder), "--lang", lang]) == 0
        run(folder, "generate_assignment", assignment)
        run(folder, "release_assignment", assignment)
    for lang in ("en", "zh"):
        run(home, "fetch_assignment", assignment, "--course", f"minigrad-{lang}")
        run(home, "submit", assignment, "--course", f"minigrad-{lang}")
    for lang in ("en", "zh"):
        fetched = read(home / f"minigrad-{lang}" / assignment / f"{assignment}.ipynb")
        assert any(f'minigrad.settings.lang = "{lang}"' in cell.source for cell in fetched.cells)
        folder = tmp_path / f"minigrad-{lang}"
        run(folder, "collect", assignment)
        [collected] = folder.glob(f"submitted/*/{assignment}/{assignment}.ipynb")
        assert read(collected).cells == fetched.cells
