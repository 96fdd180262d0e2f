"""One build step on top of pyproject.toml: the wheel carries the lesson notebooks.

The notebooks are kept once, in notebooks/{en,zh} (scripts/build-lessons.py
writes them).  Building the wheel copies them into the package as
minigrad/lessons/{en,zh}, where `minigrad.lessons` finds them once
installed; the sdist carries them as notebooks/.  An editable install copies
nothing: `minigrad.lessons` reads the clone's notebooks/ folder itself.  A build
starts from an empty <build>/lib/minigrad, so nothing an earlier build left there
(worked notebooks, deleted modules) goes into the wheel.
"""
import os
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
LANGS = ("en", "zh")


def lesson_notebooks():
    """notebooks/<lang>/NN-slug.ipynb and notebooks/<lang>/solutions/NN-slug.ipynb, relative;
    without the solutions where MINIGRAD_HIDE_SOLUTIONS=1 (a class's image, docs/teaching.md)."""
    hidden = os.environ.get("MINIGRAD_HIDE_SOLUTIONS") == "1"
    folders = ("",) if hidden else ("", "solutions")
    found = [path.relative_to(ROOT) for lang in LANGS for folder in folders
             for path in sorted((ROOT / "notebooks" / lang / folder).glob("[0-9][0-9]-*.ipynb"))]
    if not found:
        raise SystemExit("no lesson notebooks in notebooks/en or notebooks/zh: "
                         "run scripts/build-lessons.py first")
    return found


class BuildPyWithLessons(build_py):
    """build_py, then the notebooks copied to <build>/minigrad/lessons/<lang>/."""

    def run(self):
        if not self.editable_mode:
            self.forget_earlier_builds()
        super().run()
        if self.editable_mode:
            return
        for notebook in lesson_notebooks():
            target = pathlib.Path(self.build_lib, "minigrad", "lessons",
                                  *notebook.parts[1:])         # notebooks/en/x -> en/x
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / notebook, target)

    def forget_earlier_builds(self):
        """Take out the copy of the packages an earlier build left in <build>/lib (`pip wheel .`
        reuses the clone's build/): its lessons were copied with or without the solutions,
        its modules may since be deleted.  The wheel then holds the tree as it is now."""
        for top in sorted({package.split(".")[0] for package in self.packages or ()}):
            shutil.rmtree(pathlib.Path(self.build_lib, top), ignore_errors=True)

    def get_source_files(self):
        """What the sdist must hold to build the wheel again: the notebooks too."""
        return super().get_source_files() + [path.as_posix() for path in lesson_notebooks()]


setup(cmdclass={"build_py": BuildPyWithLessons})
