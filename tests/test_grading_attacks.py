"""Cheating submissions, autograded exactly as docs/teaching.md tells a teacher to.

A course in each language (`minigrad-tutor --nbgrader`): lesson 04 in English, lesson 06
in Chinese, so that every cheat meets both lessons and both languages' feedback once;
`nbgrader generate_assignment`, then one submission per kind of cheat a clever
student would try, the worked lesson, the untouched release, and answers that are
right but kept in a damaged notebook; one `nbgrader autograde` per lesson, then
`nbgrader export`.  The worked lesson scores full marks, the release 0, every
cheat 0 with feedback that says what happened, a damaged notebook's right answers
keep their points; and nothing outside the sandbox changed: the course folder,
the gradebook (no trigger), the installed package, the teacher's progress file,
their home.

Runs once in CI (marker `grading`; a few minutes: some cheats run into the time
limits on purpose).  Needs bubblewrap (scripts/run-tests.sh installs it).
"""
import copy
import csv
import hashlib
import os
import pathlib
import shutil
import sqlite3
import string
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import nbformat
import pytest

import minigrad
from minigrad.lessons import LESSONS as ALL_LESSONS, lesson_path
from minigrad.tutor import cli, grading

pytestmark = pytest.mark.grading

LESSONS = {"04-custom-functions": 4, "06-inplace-and-versions": 6}
ROUNDS = {"en": ["04-custom-functions"], "zh": ["06-inplace-and-versions"]}   # one course each
COURSES = [(lang, slug) for lang, slugs in ROUNDS.items() for slug in slugs]
# one point per exercise: a graded cell checks one
POINTS = {lesson.slug: len(lesson.exercises) for lesson in ALL_LESSONS if lesson.slug in LESSONS}
NAMES = "Exp = Sigmoid = ReLU = MulConstant = AddBroadcast = BatchedMatMul = InplaceReLU"


class Cheat(NamedTuple):
    """Code a cheating student puts in the answer cells (every one, or the first only: a
    cheat that stops the process or loops once is enough), and what the feedback must say:
    a key of grading.MESSAGES or of the checks' messages, or text found in the outputs (or
    one of several: lesson 06's check sees some mistakes first in its own way)."""
    code: str
    where: str = "every"
    says: str = None
    notebook: object = None          # or a function changing the notebook itself


# Where a cheat looks for the grader's files (walking all of /proc and /usr takes too long).
PLACES = '("/home", "/root", "/srv", "/work", "/tmp", "/opt", "/var", "/mnt", os.getcwd() + "/..")'


def dedent(text):
    return textwrap.dedent(text).strip().replace("PLACES", PLACES) + "\n"


CHEATS = {
    # the issue's: one line in an answer cell
    "redefine-check": Cheat("def check(*args, **kwargs):\n    return None\n", says="check_missing"),
    # replace what the graded cell really calls
    "patch-the-checker": Cheat(dedent("""
        import minigrad.exercises as exercises
        from minigrad.exercises import Result
        def passed(exercise_id, *args, **kwargs):
            return Result(exercise_id, "passed", "Correct! Your answer passed every check.")
        exercises.check = exercises._check = exercises.diagnose = passed
        exercises.trial_report = lambda *args, **kwargs: {"cases": []}
        """), says="trial_unreadable"),
    # the graded cell used to raise only where nbgrader set this variable
    "pop-the-environment": Cheat(dedent("""
        import os
        for name in list(os.environ):
            os.environ.pop(name)
        """), says="not_solved"),
    # strip nbgrader's metadata from the locked import cell, define check there
    "strip-metadata": Cheat("", notebook="strip_metadata", says="check_missing"),
    # write the grader's files
    "gradebook-trigger": Cheat(dedent("""
        import os, sqlite3
        for top in PLACES:
            for folder, _, files in os.walk(top):
                if "gradebook.db" in files:
                    db = sqlite3.connect(os.path.join(folder, "gradebook.db"))
                    db.execute("CREATE TRIGGER cheat AFTER UPDATE ON grade BEGIN "
                               "UPDATE grade SET auto_score = 1; END")
                    db.commit()
        """), where="first", says="not_solved"),
    "rewrite-the-package": Cheat(dedent("""
        import pathlib, minigrad.exercises
        folder = pathlib.Path(minigrad.exercises.__file__).parent
        for name in ("__init__.py", "functions.py", "_trial.py"):
            with open(folder / name, "a") as module:
                module.write("\\ncheck = lambda *args, **kwargs: None\\n")
        """), where="first", says="Read-only file system"),
    "write-everywhere": Cheat(dedent("""
        import os, pathlib
        for top in PLACES:
            for folder, _, files in os.walk(top):
                for name in files:
                    if name.endswith((".ipynb", ".db", ".py", ".json", ".csv")):
                        try:
                            pathlib.Path(folder, name).write_text("pwned")
                        except OSError:
                            pass
        for place in (os.path.expanduser("~"), "/tmp", os.environ.get("MINIGRAD_WORKSPACE", "/")):
            try:
                pathlib.Path(place, "pwned").write_text("pwned")
            except OSError:
                pass
        """), where="first", says="not_solved"),
    # use the answers that came with the package, or the teacher's
    "import-the-reference": Cheat(dedent("""
        from minigrad.exercises.functions import _Exp as Exp, _Sigmoid as Sigmoid
        from minigrad.exercises.saving import _InplaceReLU as InplaceReLU
        """), says="ImportError"),
    "read-the-solutions": Cheat(dedent("""
        import glob, json, os
        from minigrad.lessons import LESSONS_DIR
        found = glob.glob(str(LESSONS_DIR / "*" / "solutions" / "*.ipynb"))
        for top in PLACES:
            for folder, _, files in os.walk(top):
                found += [os.path.join(folder, n) for n in files if n.endswith(".ipynb")
                          and os.path.basename(folder) in ("solutions", "source", "03-custom-"
                                                           "functions", "06-inplace-and-versions")
                          and not folder.startswith(os.getcwd())]
        for path in found:
            for cell in json.load(open(path))["cells"]:
                source = "".join(cell["source"])
                if cell["cell_type"] == "code" and source.startswith("class "):
                    exec(source.replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", ""))
        """), where="first", says="not_solved"),
    # look at the checker's own variables from inside the answer
    "stack-inspection": Cheat(dedent("""
        import inspect
        class Peek(Function):
            @staticmethod
            def forward(ctx, *args):
                for frame in inspect.stack():
                    spec = frame.frame.f_locals.get("spec")
                    if callable(spec):
                        with torch.no_grad():
                            return spec(*args).clone()
                return args[0] * 1
            @staticmethod
            def backward(ctx, *grads):
                for frame in inspect.stack():
                    expected = frame.frame.f_locals.get("expected")
                    if isinstance(expected, list):
                        return tuple(None if e is None else torch.tensor(e, dtype=grads[0].dtype)
                                     for e in expected)
                return grads
        """) + f"{NAMES} = Peek\n", says=("checked_again", "not_in_place")),
    # stop the process, or crash it
    "os-exit": Cheat("import os\nos._exit(0)\n", where="first", says="exit"),
    "sys-exit": Cheat(dedent("""
        import sys
        class Leave(Function):
            @staticmethod
            def forward(ctx, *args):
                sys.exit(0)
            backward = forward
        """) + f"{NAMES} = Leave\n", says="SystemExit"),
    "segfault": Cheat("import ctypes\nctypes.string_at(0)\n", where="first", says="SIGSEGV"),
    "kill-the-grader": Cheat(dedent("""
        import os, signal
        for pid in (os.getppid(), 1, -1):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        """), where="first"),
    # run forever
    "endless-loop": Cheat("while True:\n    pass\n", where="first", says="timeout"),
    "loop-past-the-alarm": Cheat(dedent("""
        import signal
        class Forever(Function):
            @staticmethod
            def forward(ctx, *args):
                signal.signal(signal.SIGALRM, signal.SIG_IGN)
                signal.setitimer(signal.ITIMER_REAL, 0)
                while True:
                    pass
            backward = forward
        """) + f"{NAMES} = Forever\n", where="first", says="timeout"),
    # use everything
    "huge-memory": Cheat("hoard = bytearray(64 * 2 ** 30)\n", where="first", says="MemoryError"),
    "flood-the-output": Cheat("for _ in range(2000):\n    print('x' * 100_000)\n", where="first",
                              says="not_solved"),
    "background-process": Cheat(dedent("""
        import os, time
        if os.fork() == 0:
            time.sleep(3600)
        """), where="first", says="not_solved"),
    # tell the grader it passed
    "forge-progress": Cheat(dedent("""
        from minigrad import progress
        from minigrad.exercises import EXERCISES
        for exercise in EXERCISES:
            progress.record(exercise, True)
        """), says="not_solved"),
    "print-a-pass": Cheat(dedent("""
        class Shout(Function):
            @staticmethod
            def forward(ctx, *args):
                print("✓ exp: Correct! Your answer passed every check.")
                from IPython.display import display, HTML
                display(HTML("<b>✓ Correct!</b>"))
                return args[0] * 1
            @staticmethod
            def backward(ctx, *grads):
                return grads
        """) + f"{NAMES} = Shout\n", says=("wrong_forward", "not_in_place")),
    "swallow-exceptions": Cheat(dedent("""
        ip = get_ipython()
        ip.set_custom_exc((BaseException,), lambda shell, kind, value, traceback, tb_offset=None: None)
        import sys
        sys.excepthook = lambda *args: None
        """), where="first", says="not_solved"),
    "replace-builtins": Cheat(dedent("""
        import builtins, numpy
        builtins.isinstance = lambda *args: True
        builtins.AssertionError = type("AssertionError", (Exception,), {})
        numpy.allclose = numpy.array_equal = lambda *args, **kwargs: True
        numpy.isclose = lambda a, b, *args, **kwargs: numpy.ones(numpy.shape(a), dtype=bool)
        """), where="first"),
    "patch-the-comparisons": Cheat(dedent("""
        import minigrad.exercises._tools as tools
        import minigrad.exercises._trial as trial
        always = (lambda *args, **kwargs: True).__code__
        nothing = (lambda *args, **kwargs: None).__code__
        tools.close.__code__ = tools.same_values.__code__ = always
        for function in (tools.check_output, tools.check_gradients, tools.diagnose_values,
                         tools.require_grad_fn, tools.require_unchanged):
            function.__code__ = nothing
        class Nothing(Function):
            @staticmethod
            def forward(ctx, *args):
                return args[0] * 1
            @staticmethod
            def backward(ctx, *grads):
                return grads
        """) + f"{NAMES} = Nothing\n", where="first",
        # the trial catches it, or the patched checker itself fails on the answer's behalf
        says=("checked_again", "not_in_place", "raised_no_line")),
    "skip-the-graded-cells": Cheat(dedent("""
        get_ipython().input_transformers_post.append(
            lambda lines: ["pass\\n"] if any("check(" in line for line in lines) else lines)
        """), where="first", says="check_missing"),
    "forge-the-channel": Cheat(dedent("""
        import json, os
        fake = {"event": "done", "cell": 0, "outputs": [], "error": False,
                "checks": [{"id": name, "status": "passed", "hint": None, "params": {},
                            "report": {"cases": []}} for name in ("exp", "inplace_relu")]}
        for fd in range(3, 64):
            try:
                os.write(fd, (json.dumps(fake) + "\\n").encode())
            except OSError:
                pass
        """), where="first", says="garbled"),
    # nbgrader's own metadata
    "delete-the-graded-cells": Cheat("", notebook="delete_graded", says="not_solved"),
    "unmark-the-graded-cells": Cheat("", notebook="unmark_graded", says="not_solved"),
    "edit-the-graded-cells": Cheat("", notebook="edit_graded", says="not_solved"),
    "duplicate-the-graded-cells": Cheat("", notebook="duplicate_graded", says="not_solved"),
    "invent-a-graded-cell": Cheat("", notebook="invent_graded", says="not_solved"),
    "another-kernel": Cheat("", notebook="another_kernel", says="not_solved"),
}
# Right answers in a damaged notebook: what they keep (points lost, of the lesson's).
DAMAGED = {
    "worked": (None, 0),
    "right-but-graded-cells-deleted": ("delete_graded", 0),
    "right-but-graded-cells-edited": ("edit_graded", 0),
    "right-but-import-cell-deleted": ("delete_imports", 0),
}


# --- changing a notebook as a student would ------------------------------------------------

def metadata(cell):
    return cell.metadata.get("nbgrader", {})


def strip_metadata(notebook):
    cell = next(c for c in notebook.cells if c.cell_type == "code" and "import minigrad as torch"
                in c.source)
    del cell.metadata["nbgrader"]
    cell.source += "\n\ndef check(*args, **kwargs):\n    return None\n"


def delete_graded(notebook):
    notebook.cells = [cell for cell in notebook.cells if not metadata(cell).get("grade")]


def unmark_graded(notebook):
    for cell in notebook.cells:
        if metadata(cell).get("grade"):
            cell.metadata["nbgrader"]["grade"] = False
            cell.source = "pass"


def edit_graded(notebook):
    for cell in notebook.cells:
        if metadata(cell).get("grade"):
            cell.source = "pass"


def duplicate_graded(notebook):
    """Each graded cell once more at the end, under a new cell id (nbgrader's grade ids twice)."""
    for cell in [c for c in notebook.cells if metadata(c).get("grade")]:
        again = copy.deepcopy(cell)
        again.id = f"again-{cell.id}"[:64]
        notebook.cells.append(again)


def invent_graded(notebook):
    """A graded cell of the student's own, worth 99 points, that empties `check` first."""
    notebook.cells.insert(0, nbformat.v4.new_code_cell("check = None", metadata={"nbgrader": {
        "grade": True, "grade_id": "bonus", "points": 99, "locked": False, "solution": False,
        "schema_version": 3}}))


def another_kernel(notebook):
    notebook.metadata["kernelspec"] = {"name": "bash", "display_name": "Bash", "language": "bash"}


def delete_imports(notebook):
    notebook.cells = [cell for cell in notebook.cells
                      if "import minigrad as torch" not in cell.source]


def cheated(released, cheat):
    notebook = copy.deepcopy(released)
    answers = [cell for cell in notebook.cells if metadata(cell).get("solution")]
    for cell in answers[:1] if cheat.where == "first" else answers:
        cell.source = cell.source + "\n\n" + cheat.code if cheat.code else cell.source
    if cheat.notebook:
        globals()[cheat.notebook](notebook)
    return notebook


def answered(released, lang, slug, damage):
    worked = {cell.id: cell.source
              for cell in nbformat.read(lesson_path(LESSONS[slug], lang, solutions=True),
                                        as_version=4).cells}
    notebook = copy.deepcopy(released)
    for cell in notebook.cells:
        if metadata(cell).get("solution"):
            cell.source = worked[cell.id]
    if damage:
        globals()[damage](notebook)
    return notebook


# --- a whole round, as a teacher runs it ---------------------------------------------------

def fingerprint(folder, leave_out=()):
    """{relative path: sha256} of every file under `folder` (caches and `leave_out` aside)."""
    found = {}
    for path in sorted(pathlib.Path(folder).rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and "__pycache__" not in relative and not relative.startswith(leave_out):
            found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


class Round(NamedTuple):
    folder: pathlib.Path
    scores: dict                 # {(student, assignment): score}
    feedback: dict               # {(student, assignment): all the text of the autograded notebook}
    before: dict
    after: dict


def run_round(root, lang):
    """One course, every submission, graded: the Round."""
    folder, home, teacher = root / "course", root / "home", root / "teacher"
    for made in (home, teacher):
        made.mkdir(parents=True)
    assert cli.main(["--nbgrader", str(folder), "--lang", lang]) == 0
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("NBGRADER", "MINIGRAD", "JUPYTER"))}
    environment.update(HOME=str(home), JUPYTER_CONFIG_DIR=str(root / "jupyter-config"),
                       JUPYTER_DATA_DIR=str(root / "jupyter-data"),
                       MINIGRAD_WORKSPACE=str(teacher),     # as a hub's config sets it
                       PATH=os.pathsep.join([os.path.dirname(sys.executable),
                                             environment.get("PATH", "")]))

    def nbgrader(*arguments):
        done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=folder,
                              env=environment, capture_output=True, text=True, timeout=1500)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    for slug in ROUNDS[lang]:
        nbgrader("generate_assignment", slug)
        released = nbformat.read(folder / "release" / slug / f"{slug}.ipynb", as_version=4)
        submissions = {name: cheated(released, cheat) for name, cheat in CHEATS.items()}
        submissions.update({name: answered(released, lang, slug, damage)
                            for name, (damage, _) in DAMAGED.items()})
        submissions["z-released"] = released       # graded after every cheat
        for student, notebook in submissions.items():
            path = folder / "submitted" / student / slug / f"{slug}.ipynb"
            path.parent.mkdir(parents=True)
            nbformat.write(notebook, path)
    own = ("autograded/", "gradebook.db", "feedback/", "grades.csv", ".nbgrader.log")
    before = {"course": fingerprint(folder, own), "home": fingerprint(home),
              "teacher": fingerprint(teacher),
              "package": fingerprint(pathlib.Path(minigrad.__file__).parent)}
    for slug in ROUNDS[lang]:
        nbgrader("autograde", slug)
    nbgrader("export")
    after = {"course": fingerprint(folder, own), "home": fingerprint(home),
             "teacher": fingerprint(teacher),
             "package": fingerprint(pathlib.Path(minigrad.__file__).parent)}
    with open(folder / "grades.csv", encoding="utf-8") as table:
        scores = {(row["student_id"], row["assignment"]): float(row["score"])
                  for row in csv.DictReader(table)}
    feedback = {}
    for path in folder.glob("autograded/*/*/*.ipynb"):
        texts, verdicts = [], []
        for cell in nbformat.read(path, as_version=4).cells:
            for output in cell.get("outputs", []):
                found = [output.get("text", ""), output.get("ename", ""), output.get("evalue", ""),
                         *output.get("traceback", []), output.get("data", {}).get("text/plain", "")]
                texts += found
                verdicts += found if metadata(cell).get("grade") else []
        feedback[path.parts[-3], path.parts[-2]] = Feedback("\n".join(texts), "\n".join(verdicts))
    return Round(folder, scores, feedback, before, after)


class Feedback(NamedTuple):
    text: str          # every output of the autograded notebook
    verdicts: str      # the graded cells' (the grader's words alone)


@pytest.fixture(scope="module")
def rounds(tmp_path_factory):
    """Both languages' rounds, side by side (two courses: two gradebooks)."""
    pytest.importorskip("nbgrader", reason="nbgrader needs Python 3.11 or newer")
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (apt-get install bubblewrap)")
    with ThreadPoolExecutor(2) as pool:
        futures = {lang: pool.submit(run_round, tmp_path_factory.mktemp(lang), lang)
                   for lang in ("en", "zh")}
        return {lang: future.result() for lang, future in futures.items()}


LANGS = ["en", "zh"]


@pytest.mark.parametrize("lang, slug", COURSES)
@pytest.mark.parametrize("student", list(DAMAGED))
def test_right_answers_keep_their_points(rounds, lang, slug, student):
    lost = DAMAGED[student][1]
    assert rounds[lang].scores[student, slug] == POINTS[slug] - lost


@pytest.mark.parametrize("lang, slug", COURSES)
def test_the_untouched_release_scores_nothing(rounds, lang, slug):
    assert rounds[lang].scores["z-released", slug] == 0


def expected_words(key, lang):
    """What the feedback on a cheat says: one of the grader's messages (its fixed part), a
    check's message, or words found as they are (an exception's name)."""
    from minigrad.exercises import _messages
    if key in grading.MESSAGES["en"]:
        return grading.MESSAGES[lang][key].split("{")[0]
    if key in _messages.table():
        template = _messages.table()[key][lang]
        # the message's first fixed words (12 characters, before any placeholder): what the
        # feedback shows of it whatever the placeholders hold
        fixed = next(literal for literal, _, _, _ in string.Formatter().parse(template)
                     if literal.strip())
        return fixed.strip().split("\n")[0][:12]
    return key


@pytest.mark.parametrize("lang, slug", COURSES)
@pytest.mark.parametrize("cheat", list(CHEATS))
def test_a_cheat_scores_nothing_and_is_told_what_happened(rounds, lang, slug, cheat):
    done = rounds[lang]
    assert done.scores[cheat, slug] == 0
    feedback = done.feedback[cheat, slug]
    assert feedback.verdicts.count("NotPassed") >= POINTS[slug]     # each graded cell failed
    for internal in ("Traceback (most recent call last)", "site-packages", "grade_worker",
                     "minigrad/tutor", "minigrad/exercises/_"):
        assert internal not in feedback.verdicts, (cheat, internal)
    says = CHEATS[cheat].says
    if says:
        assert any(expected_words(key, lang) in feedback.text
                   for key in (says if isinstance(says, tuple) else (says,))), \
            (cheat, feedback.verdicts[-1500:])


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_outside_the_sandbox_changed(rounds, lang):
    done = rounds[lang]
    for place in ("course", "home", "teacher", "package"):
        assert done.after[place] == done.before[place], place
    with sqlite3.connect(done.folder / "gradebook.db") as gradebook:
        assert gradebook.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"
                                 ).fetchall() == []
    assert not list(pathlib.Path("/tmp").glob("pwned"))
