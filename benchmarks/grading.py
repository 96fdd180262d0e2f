"""How long a class takes to grade: nbgrader's sandboxed autograde of N copies of lesson 03.

    python benchmarks/grading.py                        # 300 submissions, English
    python benchmarks/grading.py --students 30 --lang zh --keep /tmp/course

Makes a course as docs/teaching.md says (`minigrad-tutor --nbgrader`, `nbgrader
generate_assignment 04-custom-functions`), then N submissions in turn: the worked
lesson, the untouched release, an Exp that forgets grad_output, and (with --loop)
one whose Exp cell never ends.  It times one `nbgrader autograde` of them all (the
wall clock, and the CPU time of nbgrader and every sandbox), checks the scores in
grades.csv, and prints seconds per submission.  Needs bubblewrap and nbgrader.
"""
import argparse
import copy
import csv
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat

from minigrad.lessons import lesson_path
from minigrad.tutor import cli

SLUG = "04-custom-functions"


def nbgrader(folder, environment, *arguments):
    done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=folder,
                          env=environment, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stdout[-3000:] + done.stderr[-3000:])


def submissions(released, lang):
    """(name, notebook, points expected) of each kind of submission, in turn."""
    worked = {cell.id: cell.source for cell in
              nbformat.read(lesson_path(SLUG, lang, solutions=True), as_version=4).cells}
    answered = copy.deepcopy(released)
    for cell in answered.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = worked[cell.id]
    mistaken = copy.deepcopy(answered)
    exp = next(cell for cell in mistaken.cells if cell.source.startswith("class Exp("))
    exp.source = exp.source.replace("return grad_output * result", "return result")
    looping = copy.deepcopy(answered)
    exp = next(cell for cell in looping.cells if cell.source.startswith("class Exp("))
    exp.source += "\n\nwhile True:\n    pass\n"
    return {"worked": (answered, 5), "released": (released, 0), "mistaken": (mistaken, 4),
            "loop": (looping, 4)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--lang", default="en", choices=("en", "zh"))
    parser.add_argument("--loop", action="store_true", help="one submission loops forever")
    parser.add_argument("--keep", type=pathlib.Path, help="make the course here, and keep it")
    parser.add_argument("--sandbox", default="bwrap", choices=("bwrap", "none"),
                        help="none: no bubblewrap (its processes' CPU time is counted whole: "
                             "bubblewrap's own reaper may leave some uncounted)")
    options = parser.parse_args(argv)
    root = options.keep or pathlib.Path(tempfile.mkdtemp(prefix="minigrad-grading-"))
    folder = root / "course"
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("NBGRADER", "MINIGRAD", "JUPYTER"))}
    environment.update(JUPYTER_CONFIG_DIR=str(root / "jupyter"),
                       PATH=os.pathsep.join([os.path.dirname(sys.executable),
                                             environment.get("PATH", "")]))
    try:
        cli.main(["--nbgrader", str(folder), "--lang", options.lang])
        config = folder / "nbgrader_config.py"
        config.write_text(config.read_text().replace(
            'sandbox = "bwrap"', f'sandbox = "{options.sandbox}"'))
        nbgrader(folder, environment, "generate_assignment", SLUG)
        released = nbformat.read(folder / "release" / SLUG / f"{SLUG}.ipynb", as_version=4)
        kinds = submissions(released, options.lang)
        turn = ["worked", "released", "mistaken"]
        expected = {}
        for number in range(options.students):
            kind = "loop" if options.loop and number == 0 else turn[number % len(turn)]
            student = f"student-{number:03d}"
            path = folder / "submitted" / student / SLUG / f"{SLUG}.ipynb"
            path.parent.mkdir(parents=True)
            nbformat.write(kinds[kind][0], path)
            expected[student] = kinds[kind][1]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        nbgrader(folder, environment, "autograde", SLUG)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        nbgrader(folder, environment, "export")
        with open(folder / "grades.csv", encoding="utf-8") as table:
            scores = {row["student_id"]: float(row["score"]) for row in csv.DictReader(table)}
        wrong = {s: (scores.get(s), points) for s, points in expected.items()
                 if scores.get(s) != points}
        print(f"nbgrader autograde {SLUG}: {options.students} submissions in {wall:.0f} s "
              f"({wall / options.students:.2f} s each; CPU {cpu:.0f} s, "
              f"{cpu / options.students:.2f} s each) on {os.cpu_count()} cores, load "
              f"{os.getloadavg()[0]:.1f}")
        print("scores as expected" if not wrong else f"unexpected scores: {wrong}")
        return 0 if not wrong else 1
    finally:
        if options.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
