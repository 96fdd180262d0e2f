"""As a student gets it: build the wheel, install it with its `tutor` extra into a fresh
virtual environment, and start `minigrad-tutor` until JupyterLab answers.

This is the one test that sees what `pip install "minigrad-tutor[tutor]"` really
delivers: the lessons inside the package, the console script, and the extra's
dependencies being enough to run JupyterLab.  It takes about a minute with
pip's cache warm (it installs JupyterLab), and runs by default
(`-m "not venv"` skips it).
"""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tarfile
import zipfile

import nbformat
import pytest

from minigrad.lessons import INDEX, LESSONS, LESSONS_DIR, list_lessons

from jupyter_helpers import (copy_project, free_port, get, make_venv, pip_install,
                             private_jupyter_environment, run_python, start_tutor, stop,
                             wait_for_jupyterlab)
from test_lessons import builder

pytestmark = [pytest.mark.venv,
              pytest.mark.skipif(sys.platform == "win32", reason="the launcher test is POSIX-only")]

INDEXES = [f"{lang}/{INDEX}.ipynb" for lang in ("en", "zh")]      # the course index of each
SHIPPED = sorted([path.relative_to(LESSONS_DIR).as_posix() for lang in ("en", "zh")
                  for solutions in (False, True) for path in list_lessons(lang, solutions)]
                 + INDEXES)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """minigrad's wheel, built (pip wheel, with build isolation) from a copy of the working tree."""
    folder = tmp_path_factory.mktemp("wheel")
    source = copy_project(folder / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(folder / "dist"), str(source)], check=True)
    [built] = (folder / "dist").glob("minigrad_tutor-*.whl")
    return built


def missing_lessons(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    return [name for name in SHIPPED if f"minigrad/lessons/{name}" not in names]


def test_the_wheel_holds_the_lessons_and_the_console_script(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    [metadata] = [name for name in names if name.endswith(".dist-info/METADATA")]
    assert "\nName: minigrad-tutor\n" in zipfile.ZipFile(wheel).read(metadata).decode()
    assert len(SHIPPED) == 4 * len(LESSONS) + len(INDEXES), (      # student and worked, en and zh
        "the lessons are not built (scripts/build-lessons.py)")
    assert not missing_lessons(wheel), f"lessons left out of the wheel: {missing_lessons(wheel)}"
    assert "minigrad/tutor/cli.py" in names
    [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    assert "minigrad-tutor = minigrad.tutor.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_wheel_starts_jupyterlab_on_the_course_index(wheel, tmp_path):
    python = make_venv(tmp_path / "venv")
    pip_install(python, f"{wheel}[tutor]", cwd=tmp_path)

    installed = json.loads(run_python(python, (
        "import json, minigrad, minigrad.lessons as l;"
        "print(json.dumps([minigrad.__file__, [p.relative_to(l.LESSONS_DIR).as_posix()"
        " for p in sorted(l.LESSONS_DIR.rglob('*.ipynb'))]]))"), cwd=tmp_path))
    assert pathlib.Path(installed[0]).is_relative_to(tmp_path / "venv")     # not the source tree
    assert installed[1] == SHIPPED
    listed = subprocess.run([python.parent / "minigrad-tutor", "--list", "--lang", "zh"],
                            capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert listed.splitlines()[0] == "01  张量与计算图  [graph_edges、jacobian]"     # a Chinese list
    assert len(listed.splitlines()) == len(LESSONS) == (len(SHIPPED) - len(INDEXES)) // 4

    port = free_port()
    process = start_tutor([python.parent / "minigrad-tutor", "--lang", "zh"], tmp_path, port)
    try:
        wait_for_jupyterlab(port, process)
        first = f"zh/{INDEX}.ipynb"
        assert json.loads(get(port, f"/api/contents/{first}?content=0"))["type"] == "notebook"
        assert b"JupyterLab" in get(port, f"/lab/tree/{first}")
    finally:
        output = stop(process, signal.SIGINT)         # Ctrl+C, as a student stops it
    assert process.returncode in (0, -signal.SIGINT), output
    assert "正在启动 JupyterLab" in output and f"/lab/workspaces/minigrad-zh/tree/{first}" in output
    assert (tmp_path / "lessons" / first).exists()


def test_a_wheel_built_from_the_sdist_holds_the_lessons(tmp_path):
    """The sdist carries notebooks/ (setup.py lists them as sources), so a wheel built from it,
    as a package index's builders do, ships the lessons as well."""
    source = copy_project(tmp_path / "source")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                    "--outdir", str(tmp_path / "sdist"), str(source)],
                   check=True, capture_output=True)
    [sdist] = (tmp_path / "sdist").glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"notebooks/{name}" for name in SHIPPED} <= names
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(tmp_path / "dist"), str(sdist)],
                   check=True)
    [built] = (tmp_path / "dist").glob("*.whl")
    assert not missing_lessons(built), f"lessons left out of the wheel: {missing_lessons(built)}"


def git_repository_of_the_tree(folder):
    """A git repository whose branch main holds this tree, as GitHub would."""
    copy_project(folder)
    for command in (["init", "--quiet", "--initial-branch", "main"], ["add", "--all"],
                    ["-c", "user.name=minigrad", "-c", "user.email=minigrad@example.org",
                     "commit", "--quiet", "--message", "the tree"]):
        subprocess.run(["git", *command], cwd=folder, check=True, capture_output=True)
    return folder


def test_a_lesson_opened_outside_a_clone_installs_minigrad_in_its_first_cell(wheel, tmp_path):
    """As in Colab: a kernel with numpy and ipywidgets but no minigrad runs lesson 01 as
    downloaded.  Its first cell's %pip installs minigrad-tutor, and every cell runs.  Until
    minigrad-tutor is on PyPI the cell installs it from the repository on GitHub: git fetches
    it from a repository of this tree instead (url.<here>.insteadOf); once it is, from PyPI:
    pip finds this wheel instead (PIP_FIND_LINKS)."""
    python = make_venv(tmp_path / "venv")
    pip_install(python, "ipykernel", "nbclient", "numpy", "ipywidgets", cwd=tmp_path)
    assert subprocess.run([str(python), "-c", "import minigrad"], cwd=tmp_path,
                          capture_output=True).returncode, "minigrad is there before the lesson runs"
    lesson = tmp_path / "lesson.ipynb"
    shutil.copyfile(list_lessons("zh")[0], lesson)
    notebook = nbformat.read(lesson, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(
        "import minigrad, sys; print(minigrad.__file__, minigrad.settings.lang)"))
    nbformat.write(notebook, lesson)
    if builder.on_pypi():
        where = {"PIP_FIND_LINKS": str(wheel.parent), "PIP_NO_INDEX": "1"}
    else:
        if shutil.which("git") is None:
            pytest.skip("no git: the first cell installs minigrad-tutor from its repository")
        here = git_repository_of_the_tree(tmp_path / "repository")
        where = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.{here.as_uri()}.insteadOf",
                 "GIT_CONFIG_VALUE_0": f"https://github.com/{builder.repository()}"}
    environment = private_jupyter_environment(
        tmp_path, PATH=f"{python.parent}{os.pathsep}{os.environ['PATH']}", **where)
    result = subprocess.run([str(python), "-m", "jupyter", "execute", "--inplace", str(lesson)],
                            env=environment, cwd=tmp_path, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    cells = nbformat.read(lesson, as_version=4).cells
    assert not [o for c in cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]
    installed, lang = cells[-1].outputs[0]["text"].split()
    assert pathlib.Path(installed).resolve().is_relative_to((tmp_path / "venv").resolve())
    assert lang == "zh"
