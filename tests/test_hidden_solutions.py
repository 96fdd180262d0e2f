"""MINIGRAD_HIDE_SOLUTIONS=1 (or minigrad-tutor --hide-solutions): the worked notebooks stay
out of the student's workspace, out of the package built for a class, and out of Binder's
checkout; what a student edited is never deleted."""
import os
import pathlib
import re
import runpy
import shutil
import stat
import subprocess
import sys
import zipfile

import nbformat
import pytest
import setuptools

from minigrad.lessons import LESSONS
from minigrad.tutor import cli, workspace

from jupyter_helpers import copy_project

ROOT = pathlib.Path(__file__).resolve().parent.parent


def write_lesson(folder, slug, text):
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)]),
                   folder / f"{slug}.ipynb")


@pytest.fixture
def source(tmp_path):
    """Shipped lessons, with their worked versions, in both languages."""
    for lang in ("en", "zh"):
        for slug in ("01-one", "02-two"):
            write_lesson(tmp_path / "shipped" / lang, slug, f"{lang} {slug}")
            write_lesson(tmp_path / "shipped" / lang / "solutions", slug, f"worked {slug}")
    return tmp_path / "shipped"


@pytest.fixture
def launch(monkeypatch):
    calls = []
    monkeypatch.setattr(cli, "_run", lambda command, environment: calls.append(command) or 0)
    monkeypatch.delenv(workspace.HIDE_SOLUTIONS, raising=False)
    return calls


def run(capsys, source, *argv):
    code = cli.main(list(argv), source=source)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_switch_keeps_the_worked_notebooks_out_and_takes_back_unedited_copies(
        tmp_path, source, launch, capsys, monkeypatch):
    work = tmp_path / "work"
    run(capsys, source, "--dir", str(work), "--lang", "en", "--solutions")
    run(capsys, source, "--dir", str(work), "--lang", "zh", "--solutions")
    edited = work / "en" / "solutions" / "02-two.ipynb"
    edited.write_text(edited.read_text(encoding="utf-8").replace("worked", "my notes on"),
                      encoding="utf-8")

    monkeypatch.setenv("MINIGRAD_HIDE_SOLUTIONS", "1")
    code, out = run(capsys, source, "--dir", str(work), "--lang", "en")
    assert code == 0 and "2 taken out" not in out and "3 taken out of the workspace" in out
    assert sorted(path.relative_to(work).as_posix() for path in work.rglob("*.ipynb")) == [
        "en/01-one.ipynb", "en/02-two.ipynb", "en/solutions/02-two.ipynb"]
    assert "my notes on" in edited.read_text(encoding="utf-8")       # the student's, kept
    assert "en/solutions/02-two.ipynb: you edited it" in out
    assert not (work / "zh" / "solutions").exists()

    code, out = run(capsys, source, "--dir", str(work), "--lang", "zh", "--solutions")
    assert code == 1 and "隐藏了参考答案" in out and not (work / "zh" / "solutions").exists()
    assert len(launch) == 3                       # the refused launch started nothing


def test_the_launcher_option_is_the_same_switch(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    code, out = run(capsys, source, "--dir", str(work), "--lang", "en", "--hide-solutions",
                    "--solutions")
    assert code == 1 and "hidden in this course" in out and not work.exists()
    run(capsys, source, "--dir", str(work), "--lang", "en", "--solutions")
    code, out = run(capsys, source, "--dir", str(work), "--lang", "en", "--hide-solutions")
    assert code == 0 and not (work / "en" / "solutions").exists()
    assert workspace.solutions_hidden({"MINIGRAD_HIDE_SOLUTIONS": "1"})
    assert not workspace.solutions_hidden({"MINIGRAD_HIDE_SOLUTIONS": "0"})


def test_a_package_built_without_them_says_so(tmp_path, source, launch, capsys):
    for folder in source.glob("*/solutions"):
        shutil.rmtree(folder)
    code, out = run(capsys, source, "--dir", str(tmp_path / "work"), "--lang", "en",
                    "--solutions")
    assert code == 1 and "not installed here" in out
    code, out = run(capsys, source, "--nbgrader", str(tmp_path / "course"), "--lang", "zh")
    assert code == 1 and "没有安装参考答案" in out and not (tmp_path / "course").exists()


def test_the_package_built_for_a_class_carries_no_worked_notebooks(monkeypatch):
    monkeypatch.setattr(setuptools, "setup", lambda **arguments: None)
    build = runpy.run_path(str(ROOT / "setup.py"))
    shipped = [path.as_posix() for path in build["lesson_notebooks"]()]
    assert any("/solutions/" in path for path in shipped)
    monkeypatch.setenv("MINIGRAD_HIDE_SOLUTIONS", "1")
    hidden = [path.as_posix() for path in build["lesson_notebooks"]()]
    assert hidden == [path for path in shipped if "/solutions/" not in path] and hidden


def build_wheel(source, folder, hidden):
    """`pip wheel` of `source` into `folder`, as a clone builds it (in place, reusing build/)."""
    environment = {**os.environ, "MINIGRAD_HIDE_SOLUTIONS": "1" if hidden else "0"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(folder), str(source)],
                   env=environment, check=True, capture_output=True)
    [wheel] = pathlib.Path(folder).glob("minigrad_tutor-*.whl")
    return zipfile.ZipFile(wheel).namelist()


def test_a_wheel_holds_the_tree_as_it_is_not_what_an_earlier_build_left(tmp_path):
    """Three builds in one clone: all lessons, hidden solutions, all again.  Each wheel holds
    its own build's lessons, and no module deleted since the build before."""
    source = copy_project(tmp_path / "source")
    leftover = source / "minigrad" / "leftover.py"
    leftover.write_text("# deleted before the next build\n")
    builds = []
    for number, hidden in enumerate((False, True, False)):
        builds.append(build_wheel(source, tmp_path / f"dist-{number}", hidden))
        leftover.unlink(missing_ok=True)
    assert (source / "build" / "lib" / "minigrad").is_dir()    # a later build found it there
    worked = [[name for name in names if re.fullmatch(r"minigrad/lessons/(en|zh)/solutions/"
                                                      r"\d\d-[\w-]+\.ipynb", name)]
              for names in builds]
    lessons = [[name for name in names if re.fullmatch(r"minigrad/lessons/(en|zh)/\d\d-[\w-]+"
                                                       r"\.ipynb", name)] for names in builds]
    per_language = len(LESSONS)           # each lesson in en and zh, and the two indexes
    assert [len(names) for names in worked] == [2 * per_language, 0, 2 * per_language]
    assert [len(names) for names in lessons] == [2 * per_language + 2] * 3
    assert ["minigrad/leftover.py" in names for names in builds] == [True, False, False]


def test_binder_postbuild_takes_them_out_of_the_checkout(tmp_path):
    """postBuild run as repo2docker runs it, with a `python` and a `jupyter` that only note
    their calls."""
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "binder", checkout / "binder")
    for lang in ("en", "zh"):
        write_lesson(checkout / "notebooks" / lang, "01-one", "lesson")
        write_lesson(checkout / "notebooks" / lang / "solutions", "01-one", "worked")
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("python", "jupyter"):
        tool = tools / name
        tool.write_text('#!/bin/sh\necho "MINIGRAD_HIDE_SOLUTIONS=$MINIGRAD_HIDE_SOLUTIONS $*" '
                        '>> "$CALLS"\n')
        tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    environment = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
                   "CALLS": str(tmp_path / "calls.txt")}
    environment.pop("MINIGRAD_HIDE_SOLUTIONS", None)
    subprocess.run(["bash", "binder/postBuild"], cwd=checkout, env=environment, check=True)
    assert (checkout / "notebooks" / "en" / "solutions").is_dir()         # shown by default
    text = (ROOT / "binder" / "postBuild").read_text()
    (checkout / "binder" / "postBuild").write_text(
        text.replace("${MINIGRAD_HIDE_SOLUTIONS:-0}", "${MINIGRAD_HIDE_SOLUTIONS:-1}"))
    subprocess.run(["bash", "binder/postBuild"], cwd=checkout, env=environment, check=True)
    assert not list(checkout.glob("notebooks/*/solutions"))
    assert (checkout / "notebooks" / "zh" / "01-one.ipynb").is_file()
    calls = (tmp_path / "calls.txt").read_text().splitlines()
    assert "MINIGRAD_HIDE_SOLUTIONS=1 -m pip install --no-cache-dir ." in calls


@pytest.mark.parametrize("lang, hidden", [("en", "teacher has hidden"), ("zh", "老师")])
def test_a_lesson_that_points_to_the_solutions_says_what_to_do_where_they_are_hidden(lang, hidden):
    """A student of a class whose solutions are hidden is not sent to look for them."""
    pointing = []
    for path in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown" and "minigrad-tutor --solutions" in cell.source:
                pointing.append(path.name)
                assert hidden in cell.source, f"{path.name} promises solutions a class may hide"
    assert pointing                          # lesson 01 tells how to reach them
