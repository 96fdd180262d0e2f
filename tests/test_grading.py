"""The parts of sandboxed grading, one by one (tests/test_grading_attacks.py runs them
together, under nbgrader, against cheating submissions).

The sandbox runs a notebook's cells in a worker process with time limits kept
from outside, goes on after a cell that stops the worker, and (bubblewrap) shows
the notebook nothing but itself, Python and minigrad; the verdict on a graded
cell is made here, from what the worker reported.
"""
import json
import pathlib
import shutil

import nbformat
import pytest
from exercise_answers import ANSWERS

from minigrad.exercises import trial_report
from minigrad.lessons import LESSONS_DIR
from minigrad.tutor import grading, nbgrader as course, sandbox
from minigrad.tutor.sandbox import CellRun, Limits

QUICK = Limits(cell=3, graded=6, start=60, total=120)
SANDBOXES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is not installed"))]
EXP = '''
from minigrad.autograd import Function
from minigrad.exercises import check
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y
'''


def run(cells, tmp_path, kind, limits=QUICK, seeds=None, hidden=()):
    cells = [{"index": index, "source": source, "graded": source.startswith("check(")}
             for index, source in enumerate(cells)]
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    return sandbox.run_notebook(cells, seeds or {"exp": 7}, folder, limits, kind, hidden=hidden)


def text(run):
    return "".join(o.get("text", "") + o.get("ename", "") + o.get("evalue", "")
                   for o in run.outputs)


@pytest.mark.parametrize("kind", SANDBOXES)
def test_the_worker_runs_the_cells_and_reports_each_check(tmp_path, kind):
    runs = run(["print('hello')", "1/0", "6 * 7", EXP, 'check("exp", Exp)'], tmp_path, kind)
    assert text(runs[0]) == "hello\n" and not runs[0].error
    assert runs[1].error and "ZeroDivisionError" in text(runs[1])
    assert runs[2].outputs[0]["data"]["text/plain"] == "42"
    (record,) = runs[4].checks
    assert record["id"] == "exp" and record["status"] == "passed"
    assert record["report"] == trial_report("exp", ANSWERS["exp"], 7)   # what the seed draws


@pytest.mark.parametrize("kind", SANDBOXES)
def test_a_cell_that_stops_the_worker_is_marked_and_the_rest_still_runs(tmp_path, kind):
    runs = run(["x = 1", "while True: pass", "import os; os._exit(3)",
                "import ctypes; ctypes.string_at(0)", "print(x + 1)"], tmp_path, kind)
    assert runs[1].ended == ("timeout", "3")
    assert runs[2].ended == ("exit", "3")
    assert runs[3].ended[0] == "signal" and runs[3].ended[1] == "SIGSEGV"
    assert text(runs[4]) == "2\n" and runs[4].ended is None     # x came from a new worker


def test_the_time_limit_is_kept_from_outside(tmp_path):
    """A cell that turns the checks' own alarm off is stopped all the same."""
    runs = run(["import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
                "signal.setitimer(signal.ITIMER_REAL, 0)\nwhile True: pass", "print(1)"],
               tmp_path, "none")
    assert runs[0].ended == ("timeout", "3") and text(runs[1]) == "1\n"


def test_a_notebook_out_of_time_or_restarts_leaves_the_rest_not_run(tmp_path):
    runs = run(["import os; os._exit(0)"] * 3 + ["print(1)"], tmp_path, "none",
               Limits(cell=3, graded=6, restarts=1))
    assert [runs[i].ended[0] for i in range(4)] == ["exit", "exit", "not_run", "not_run"]


def test_the_worker_sees_none_of_the_graders_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path / "teacher"))
    monkeypatch.setenv("SECRET_TOKEN", "s3cret")
    runs = run(["import os; print(sorted(os.environ))", EXP,
                'from minigrad import progress\nprogress.record("exp", True)'], tmp_path, "none")
    names = json.loads(text(runs[0]).replace("'", '"'))
    assert "SECRET_TOKEN" not in names and "MINIGRAD_WORKSPACE" not in names
    assert not (tmp_path / "teacher").exists()


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_bubblewrap_shows_the_notebook_nothing_but_itself_python_and_minigrad(tmp_path):
    course_folder = tmp_path / "course"
    (course_folder / "source").mkdir(parents=True)
    (course_folder / "gradebook.db").write_text("grades")
    checkout = pathlib.Path(grading.__file__).parents[2]       # its notebooks, solutions...
    probe = (f"import os, pathlib\n"
             f"print(os.path.exists({str(course_folder)!r}), os.path.exists({str(checkout)!r}"
             f" + '/notebooks'), os.path.exists({str(tmp_path / 'submission')!r}))\n"
             f"pathlib.Path('mine.txt').write_text('kept in the sandbox')\n"
             f"try:\n    open({str(tmp_path / 'outside.txt')!r}, 'w')\n"
             f"except OSError as error:\n    print(type(error).__name__)\n"
             f"import minigrad, socket\n"
             f"print(os.access(os.path.dirname(minigrad.__file__), os.W_OK))\n"
             f"try:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n"
             f"except OSError as error:\n    print('no network')\n")
    runs = run([probe], tmp_path, "bwrap", hidden=[course_folder])
    assert text(runs[0]).split() == ["False", "False", "False", "FileNotFoundError", "False",
                                     "no", "network"]
    assert not (tmp_path / "outside.txt").exists()
    assert not (tmp_path / "submission" / "mine.txt").exists()   # the copy's, thrown away


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_a_python_that_lives_in_tmp_stays_visible_in_the_sandbox(tmp_path, monkeypatch):
    """A clone or a virtual environment in /tmp (a contributor's, a CI runner's): the sandbox's
    own empty /tmp must not hide it."""
    import subprocess
    environment = tmp_path / "venv"          # pytest's tmp_path lies in /tmp
    environment.mkdir()
    (environment / "python").write_text("here")
    shown = sandbox._python_folders()
    monkeypatch.setattr(sandbox, "_python_folders", lambda: [*shown, environment])
    (tmp_path / "home").mkdir()
    (tmp_path / "notebook").mkdir()
    command = sandbox._command("bwrap", tmp_path, ())
    worker = command.index("--") + 1
    seen = subprocess.run(command[:worker] + ["/usr/bin/cat", str(environment / "python")],
                          capture_output=True, text=True, timeout=30)
    assert (seen.returncode, seen.stdout) == (0, "here"), seen.stderr


def test_no_bubblewrap_is_refused_with_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(sandbox.SandboxError, match="apt-get install bubblewrap"):
        run(["print(1)"], tmp_path, "bwrap")


def test_check_calls_are_read_from_the_teachers_cell():
    assert grading.check_calls('check("exp", Exp)\ncheck("relu", ReLU)  # two') == ["exp", "relu"]
    assert grading.check_calls("from minigrad.exercises import check\n\ncheck('linear', L)") \
        == ["linear"]
    assert grading.check_calls("check(name, Exp)\nx = (") == []


def test_the_lessons_language_is_read_from_its_first_cell():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'import minigrad\nminigrad.settings.lang = "zh"')])
    assert grading.lesson_language(notebook) == "zh"
    assert grading.lesson_language(nbformat.v4.new_notebook()) == "en"


def test_only_plain_text_and_images_of_the_notebook_reach_the_teacher():
    outputs = [{"output_type": "display_data", "data": {
                   "text/html": "<script>steal()</script>", "text/plain": "shown",
                   "application/javascript": "steal()", "image/png": "iVBORw0KGgo="}},
               {"output_type": "stream", "name": "stdout", "text": "x" * 50_000},
               {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t"]},
               {"output_type": "stream", "name": "other", "text": "dropped"}, "junk", None]
    shown = grading.shown_outputs(outputs)
    assert [output.output_type for output in shown] == ["display_data", "stream", "error"]
    assert set(shown[0].data) == {"text/plain", "image/png"}
    assert len(shown[1].text) < 21_000
    nbformat.validate(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=shown)]))


def verdict(checks, lang="en", ended=None, error=False, outputs=(), exercises=("exp",)):
    run = CellRun(list(outputs), error, checks, ended)
    return grading.verdict_outputs(list(exercises), run, {"exp": 7}, lang)


def right_record():
    return {"id": "exp", "status": "passed", "hint": None, "params": {},
            "report": trial_report("exp", ANSWERS["exp"], 7)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_graded_cell_shows_the_verdict_alone(lang):
    (passed,) = verdict([right_record()], lang)
    assert passed.output_type == "display_data" and passed.data["text/plain"].startswith("✓ exp")
    forged = right_record()
    forged["report"]["cases"][0]["forward"]["values"][0] += 1
    (failed,) = verdict([forged], lang)
    assert failed.output_type == "error" and failed.ename == "NotPassed"
    assert failed.evalue.startswith("Checked once" if lang == "en" else "用新的输入")
    (not_solved,) = verdict([{"id": "exp", "status": "not_solved"}], lang)
    assert not_solved.output_type == "error"
    (hinted,) = verdict([{"id": "exp", "status": "failed", "hint": "forgot_grad_output",
                          "params": {"input": 0}}], lang)
    assert "grad_output" in hinted.evalue
    (missing,) = verdict([], lang)
    assert missing.evalue.startswith(grading.say(lang, "check_missing")[:10])
    (stopped,) = verdict([right_record()], lang, ended=("timeout", "20"))
    assert grading.say(lang, "timeout", detail="20") in stopped.evalue
    (raised,) = verdict([right_record()], lang, error=True,
                        outputs=[{"output_type": "error", "ename": "AssertionError", "evalue": ""}])
    assert raised.output_type == "error" and "AssertionError" in raised.evalue


def test_a_record_that_is_not_a_checks_is_no_pass():
    for record in ({"id": "exp", "status": "passed"}, {"id": "exp", "status": "failed",
                                                       "hint": "no_such", "params": {}},
                   {"id": "exp", "status": "failed", "hint": "raised", "params": "x"}, "junk"):
        (output,) = verdict([record])
        assert output.output_type == "error"


def test_the_course_configuration_grades_in_the_sandbox(tmp_path):
    course.write_course(LESSONS_DIR, tmp_path / "course", "zh")
    written = (tmp_path / "course" / course.CONFIG).read_text()
    config = {}
    exec(written, {"get_config": lambda: _Config(config)})    # noqa: S102 — the file is ours
    assert config["CourseDirectory.course_id"] == "minigrad-zh"
    assert config["Autograde.autograde_preprocessors"][0] == \
        "minigrad.tutor.grading.SandboxedGrading"
    assert config["OverwriteCells.add_missing_cells"] is True
    assert config["SandboxedGrading.sandbox"] == "bwrap"


class _Config:
    """Enough of traitlets' config object to read nbgrader_config.py's assignments."""

    def __init__(self, found, prefix=""):
        object.__setattr__(self, "found", found)
        object.__setattr__(self, "prefix", prefix)

    def __getattr__(self, name):
        return _Config(self.found, f"{self.prefix}{name}.")

    def __setattr__(self, name, value):
        self.found[f"{self.prefix}{name}"] = value


def test_a_graded_cell_of_the_teachers_own_asserts_scores_by_its_error():
    run = CellRun([{"output_type": "error", "ename": "AssertionError", "evalue": "too big"}],
                  True, [])
    (failed,) = grading.verdict_outputs([], run, {}, "en", name="bonus")
    assert failed.output_type == "error" and "AssertionError: too big" in failed.evalue
    assert failed.traceback == ["✗ bonus: The cell raised AssertionError: too big."]
    (passed,) = grading.verdict_outputs([], CellRun([], False, []), {}, "zh", name="bonus")
    assert passed.output_type == "display_data" and passed.data["text/plain"].startswith("✓ bonus")


def test_a_notebook_out_of_time_says_so_rather_than_blaming_a_cell(tmp_path):
    runs = run(["import time; time.sleep(30)", "print(1)"], tmp_path, "none",
               Limits(cell=60, graded=60, total=5))
    assert runs[0].ended == runs[1].ended == ("not_run", "")     # not a cell's time limit
