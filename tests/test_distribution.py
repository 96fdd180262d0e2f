"""What a student reads about getting minigrad: the distribution's name and the repository's links.

On PyPI, `minigrad` is another project, so every install instruction, message
and extra must say `minigrad-tutor` (the import name stays `minigrad`): a
wrong `pip install minigrad` looks right and installs someone else's engine.
These tests read every text file of the repository (docs, messages, scripts,
lesson sources and notebooks) for install commands that name `minigrad`, and
every Binder and Colab link for the repository pyproject.toml names.
"""
import os
import pathlib
import re

import pytest

try:
    import tomllib
except ModuleNotFoundError:        # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOT_OURS = {".git", ".venv", ".oracle-venv", "build", "dist", "__pycache__", ".hypothesis",
            ".pytest_cache", ".ipynb_checkpoints", "minigrad-lessons", "artifacts"}
TEXT_SUFFIXES = {".py", ".md", ".sh", ".toml", ".txt", ".ipynb", ".json", ".cfg", ".yml", ".yaml", ""}

# `pip install [options] minigrad...`, also `%pip`, `pip3`, `python -m pip`; quoted, escaped in JSON or not
WRONG_INSTALL = re.compile(r"""pip3?\s+install(?:\s+-[-\w]+)*\s+(?:\\?["'])?minigrad(?![-\w])""")
# an extra asked of the wrong name: minigrad[cuda], "minigrad[tutor]"
WRONG_EXTRA = re.compile(r"(?<![-\w./])minigrad\[")
LESSON_LINK = re.compile(r"(?:mybinder\.org/v2/gh|colab\.research\.google\.com/github)/([\w.-]+/[\w.-]+)")


def text_files():
    """Every text file of the project (not virtual environments, builds or caches), but this one."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if name not in NOT_OURS and not name.endswith(".egg-info")]
        found += [pathlib.Path(folder, name) for name in files
                  if pathlib.Path(name).suffix in TEXT_SUFFIXES]
    return sorted(path for path in found if path != pathlib.Path(__file__))


def wrong_install_lines(text):
    return [line.strip() for line in text.splitlines()
            if WRONG_INSTALL.search(line) or WRONG_EXTRA.search(line)]


def test_the_distribution_is_minigrad_tutor_and_its_extras_say_so():
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]
    assert project["name"] == "minigrad-tutor"
    assert project["scripts"]["minigrad-tutor"] == "minigrad.tutor.cli:main"
    own = [requirement for extra in project["optional-dependencies"].values()
           for requirement in extra if requirement.startswith("minigrad")]
    assert own and all(re.fullmatch(r"minigrad-tutor\[[\w,]+\]", r) for r in own), own


@pytest.mark.parametrize("line", [
    'pip install "minigrad[cuda]"', "pip install minigrad", "%pip install -q minigrad",
    'python -m pip install --quiet \\"minigrad[widgets]\\"', "pip3 install 'minigrad>=0.1'",
    'tutor = ["minigrad[widgets]", "jupyterlab"]', "Installing minigrad[test] into .venv"])
def test_a_wrong_name_is_found(line):
    assert wrong_install_lines(line) == [line]


@pytest.mark.parametrize("line", [
    'pip install "minigrad-tutor[cuda]"', "%pip install --quiet minigrad-tutor",
    'pip install -e ".[tutor]"', "python -m pip install --no-cache-dir .",
    "pip install cairosvg pillow", "import minigrad  # pip install minigrad-tutor"])
def test_a_right_name_passes(line):
    assert wrong_install_lines(line) == []


def test_no_instruction_or_message_installs_pypis_other_minigrad():
    files = text_files()
    assert len(files) > 100 and ROOT / "minigrad" / "tutor" / "messages.py" in files
    wrong = {str(path.relative_to(ROOT)): lines for path in files
             if (lines := wrong_install_lines(path.read_text(encoding="utf-8", errors="replace")))}
    assert not wrong, f"install minigrad-tutor, not minigrad (another project on PyPI): {wrong}"


def test_every_binder_and_colab_link_opens_the_repository_of_pyproject():
    """Links that open the lessons all name the one repository named in pyproject.toml."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        url = tomllib.load(file)["project"]["urls"]["Repository"]
    repository = url.removeprefix("https://github.com/").rstrip("/")
    linked = {}
    for path in text_files():
        for name in LESSON_LINK.findall(path.read_text(encoding="utf-8", errors="replace")):
            linked.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    assert repository in linked and "README.md" in linked[repository]
    others = {name: where for name, where in linked.items() if name != repository}
    assert not others, f"links to another repository than {repository}: {others}"
