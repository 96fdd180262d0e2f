"""binder/ builds the image a Binder (or a teacher's JupyterHub) runs: checked offline.

Nothing here needs Docker or the network beyond pip's index:
- `repo2docker --no-build --debug` prints the Dockerfile it would build, and
  we check its steps (Python from runtime.txt, graphviz from apt.txt, the
  pinned requirements, postBuild);
- the pins agree with the versions in repo2docker's own base environment,
  so installing them cannot replace the JupyterLab/ipywidgets that the
  image's front end was built with;
- a fresh virtual environment made from the same requirements, with
  binder/postBuild run in a copy of the repository, executes the first
  lesson in both languages, as Binder's kernel would.
"""
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
import urllib.parse

import nbformat
import pytest

from jupyter_helpers import ROOT, copy_project, make_venv, pip_install, private_jupyter_environment

BINDER = ROOT / "binder"
needs_repo2docker = pytest.mark.skipif(importlib.util.find_spec("repo2docker") is None,
                                       reason="jupyter-repo2docker is not installed (the test extra has it)")


def pins():
    """{normalized name: version} of binder/requirements.txt; every line must be pinned with ==."""
    found = {}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, separator, version = line.partition("==")
            assert separator and version, f"not pinned: {line!r}"
            found[normalize(name)] = version
    return found


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def python_version():
    match = re.fullmatch(r"python-(\d+\.\d+)", (BINDER / "runtime.txt").read_text().strip())
    assert match, "binder/runtime.txt must read python-X.Y"
    return match.group(1)


def dockerfile_steps(text):
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    steps, current = [], ""
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        current += line.rstrip("\\") + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            if current.strip():
                steps.append(" ".join(current.split()))
            current = ""
    return steps


@needs_repo2docker
def test_repo2docker_would_install_python_graphviz_the_pins_and_run_postbuild():
    result = subprocess.run(
        [sys.executable, "-m", "repo2docker", "--no-build", "--debug",
         "--user-id", "1000", "--user-name", "jovyan", str(ROOT)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert f"python={python_version()}" in result.stderr
    steps = dockerfile_steps(result.stdout)

    def index(pattern):
        matches = [i for i, step in enumerate(steps) if re.search(pattern, step)]
        assert matches, f"no step matches {pattern!r} in:\n" + "\n".join(steps)
        return matches[0]

    apt = index(r"^RUN apt-get .*install .*\bgraphviz\b")
    pip = index(r'^RUN \S*pip install --no-cache-dir -r "?binder/requirements.txt')
    copy = index(r"^COPY .*src/ \$\{REPO_DIR\}/")
    post_build = index(r"^RUN \./binder/postBuild$")
    assert apt < pip < copy < post_build
    assert os.access(BINDER / "postBuild", os.X_OK)


@needs_repo2docker
def test_pins_are_repo2docker_base_versions():
    """JupyterLab 4 and ipywidgets 8, exactly as repo2docker's base environment has them."""
    from repo2docker.buildpacks import conda
    lock = pathlib.Path(conda.__file__).parent / f"environment.py-{python_version()}-linux-64.lock"
    base = {}
    for line in lock.read_text().splitlines():
        if line.startswith("https://"):
            filename = line.split("#")[0].rsplit("/", 1)[1].removesuffix(".conda").removesuffix(".tar.bz2")
            name, version, _build = filename.rsplit("-", 2)
            base[normalize(name)] = version
    pinned = pins()
    assert pinned["jupyterlab"].startswith("4.") and pinned["ipywidgets"].startswith("8.")
    shared = sorted(set(pinned) & set(base))
    assert {"jupyterlab", "ipywidgets", "ipykernel", "jupyterlab-widgets"} <= set(shared)
    differ = {name: (pinned[name], base[name]) for name in shared if pinned[name] != base[name]}
    assert not differ, f"binder/requirements.txt differs from repo2docker's base (pin, base): {differ}"


def test_readme_binder_links_open_lessons_that_exist():
    """Each link opens a notebook, through minigrad/lab-language/<lang> (JupyterLab's menus in
    that language) or straight: urlpath=lab/tree/<notebook> or ...?next=lab/tree/<notebook>."""
    urlpaths = re.findall(r"https://mybinder\.org/v2/gh/[^)\s\"]+\?urlpath=([^)\s\"]+)",
                          (ROOT / "README.md").read_text(encoding="utf-8"))
    links = [re.search(r"lab/tree/(.+)$", urllib.parse.unquote(urlpath)).group(1)
             for urlpath in urlpaths]
    for urlpath, link in zip(urlpaths, links):
        lang = pathlib.PurePosixPath(link).parent.name
        assert urllib.parse.unquote(urlpath).startswith(f"minigrad/lab-language/{lang}?next="), urlpath
    assert {pathlib.PurePosixPath(link).parent.name for link in links} >= {"en", "zh"}, links
    for link in links:
        assert (ROOT / link).is_file(), f"README's Binder link opens a missing notebook: {link}"


PROBE = """import json, sys, minigrad
from minigrad import progress
print(json.dumps({"prefix": sys.prefix, "minigrad": minigrad.__file__,
                  "workspace": str(progress.find_workspace())}))"""


@pytest.mark.venv
def test_pinned_requirements_and_postbuild_run_the_first_lesson(tmp_path):
    repository = copy_project(tmp_path / "repo")
    python = make_venv(tmp_path / "venv")
    pip_install(python, "-r", repository / "binder" / "requirements.txt")
    environment = private_jupyter_environment(tmp_path, PATH=f"{python.parent}{os.pathsep}{os.environ['PATH']}")
    subprocess.run(["bash", "binder/postBuild"], cwd=repository, env=environment, check=True)
    assert not list(repository.glob("*.egg-info")) and not (repository / "build").exists()

    notebooks = []
    for lang in ("en", "zh"):
        lesson = sorted((repository / "notebooks" / lang).glob("01-*.ipynb"))[0]
        notebook = nbformat.read(lesson, as_version=4)
        notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
        nbformat.write(notebook, lesson.with_name("probe-" + lesson.name))
        notebooks.append(lesson.with_name("probe-" + lesson.name))
    subprocess.run([str(python), "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                    "--inplace", "--ExecutePreprocessor.timeout=300", *map(str, notebooks)],
                   env=environment, check=True, capture_output=True)

    for path in notebooks:
        cells = nbformat.read(path, as_version=4).cells
        assert not [o for c in cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        probe = json.loads(cells[-1].outputs[0]["text"])
        assert pathlib.Path(probe["prefix"]).resolve() == (tmp_path / "venv").resolve()
        # postBuild installed minigrad into the environment, not as a link to the checkout
        assert pathlib.Path(probe["minigrad"]).resolve().is_relative_to((tmp_path / "venv").resolve())
        assert pathlib.Path(probe["workspace"]).resolve() == repository.resolve()  # progress is kept
