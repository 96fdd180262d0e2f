"""The JupyterLite site (scripts/build-lite.sh): built as CI builds it, then read.

The site must hold every lesson in both languages, exactly as in notebooks/,
minigrad-tutor's wheel with piplite's index naming it, ipywidgets for the
players at the version of the widget extension the site carries, and piplite
must understand the `%pip` line of each notebook's first cell (else that line
silently installs nothing).  Running the lessons in a browser needs Pyodide
itself: tests/browser/test_lite.py does that where a local copy is given.
The build needs pip's index (the wheel's build requirements, ipywidgets).
"""
import asyncio
import concurrent.futures
import importlib.util
import json
import os
import pathlib
import subprocess
import zipfile
from importlib.metadata import version

import nbformat
import pytest

from minigrad.lessons import LESSONS, LESSONS_DIR, list_lessons

from test_lessons import run_first_code_cell

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD_LITE = ROOT / "scripts" / "build-lite.sh"

pytestmark = pytest.mark.lite


def build_site(output, **environment):
    return subprocess.run(["bash", str(BUILD_LITE), str(output)], capture_output=True, text=True,
                          env={**os.environ, **environment}, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    output = tmp_path_factory.mktemp("lite") / "site"
    result = build_site(output)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "JupyterLite site in" in result.stdout
    return output


def piplite_index(site):
    return json.loads((site / "pypi" / "all.json").read_text(encoding="utf-8"))


def test_the_site_holds_every_lesson_in_both_languages(site):
    for lang in ("en", "zh"):
        for solutions in (False, True):
            shipped = list_lessons(lang, solutions)
            assert [path.stem for path in shipped] == [lesson.slug for lesson in LESSONS]
            for path in shipped:
                copy = site / "files" / path.relative_to(LESSONS_DIR)
                assert nbformat.read(copy, as_version=4) == nbformat.read(path, as_version=4)
    assert not (site / "files" / "sources").exists()


def test_the_site_bundles_minigrad_tutor_for_piplite(site):
    [wheel] = (site / "pypi").glob("minigrad_tutor-*-py3-none-any.whl")
    release = piplite_index(site)["minigrad-tutor"]["releases"]
    assert [entry["filename"] for entries in release.values() for entry in entries] == [wheel.name]
    names = zipfile.ZipFile(wheel).namelist()
    assert "minigrad/__init__.py" in names and "minigrad/lessons/zh/01-tensors-and-the-graph.ipynb" in names
    [metadata] = [name for name in names if name.endswith(".dist-info/METADATA")]
    requires = [line for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert any("ipywidgets" in line and "emscripten" in line for line in requires), requires


def test_the_players_widgets_match_the_sites_widget_extension(site):
    """The site carries the widget extension of this environment's jupyterlab_widgets, and
    piplite installs that same jupyterlab_widgets with ipywidgets 8 in the browser."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    loaded = {entry["name"] for entry in config["federated_extensions"]}
    assert loaded == {"@jupyter-widgets/jupyterlab-manager", "@jupyterlite/pyodide-kernel-extension"}
    index = piplite_index(site)
    assert list(index["jupyterlab-widgets"]["releases"]) == [version("jupyterlab_widgets")]
    assert list(index["ipywidgets"]["releases"]) == [version("ipywidgets")]
    assert version("ipywidgets").startswith("8.")


def load_piplite_cli(site):
    """piplite's `%pip` parser, from the wheel the site's Pyodide kernel installs."""
    [wheel] = (site / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" /
               "pypi").glob("piplite-*.whl")
    folder = site.parent / "piplite"
    zipfile.ZipFile(wheel).extract("piplite/cli.py", folder)
    spec = importlib.util.spec_from_file_location("piplite_cli", folder / "piplite" / "cli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_coroutine(coroutine):
    """Its result, from a thread of its own: the browser tests' Playwright, when it ran
    first in this process, keeps an event loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_piplite_installs_minigrad_tutor_from_the_first_cells_pip_line(site):
    """The %pip line the first cell runs in Pyodide (sys.platform "emscripten"), without
    minigrad, through piplite's own parser."""
    cli = load_piplite_cli(site)
    for lang in ("en", "zh"):
        notebook = nbformat.read(site / "files" / lang / f"{LESSONS[0].slug}.ipynb", as_version=4)
        [(magic, line)], _ = run_first_code_cell(notebook, missing=True, platform="emscripten")
        assert magic == "pip"
        code = run_coroutine(cli.get_transformed_code(line.split()))
        assert code.strip() == """await __import__("piplite").install(**{'requirements': ['minigrad-tutor']})"""


def test_a_folder_that_is_not_a_site_is_never_overwritten(tmp_path):
    notes = tmp_path / "my-notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("keep me")
    result = build_site(notes)
    assert result.returncode == 2 and "neither empty nor a JupyterLite site" in result.stderr
    assert (notes / "todo.txt").read_text() == "keep me"


def test_a_local_pyodide_goes_into_the_site(tmp_path):
    """MINIGRAD_PYODIDE_DIR (a folder with pyodide.mjs and its lock file) becomes the site's
    Pyodide, so the site needs no CDN; a folder without pyodide.mjs is refused."""
    pyodide = tmp_path / "pyodide"
    pyodide.mkdir()
    result = build_site(tmp_path / "refused", MINIGRAD_PYODIDE_DIR=str(pyodide))
    assert result.returncode == 2 and "holds no pyodide.mjs" in result.stderr
    (pyodide / "pyodide.mjs").write_text("export const loadPyodide = null;\n")
    (pyodide / "pyodide-lock.json").write_text('{"info": {}, "packages": {}}\n')
    result = build_site(tmp_path / "site", MINIGRAD_PYODIDE_DIR=str(pyodide))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    config = json.loads((tmp_path / "site" / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert (tmp_path / "site" / "static" / "pyodide" / "pyodide-lock.json").is_file()


def test_a_site_built_with_the_solutions_hidden_holds_no_answer(tmp_path):
    """--hide-solutions (or MINIGRAD_HIDE_SOLUTIONS=1): no worked notebook in the site or in
    the wheel piplite installs, and no line of an answer in any of the site's files."""
    from test_site_build import answer_lines, page_text
    output = tmp_path / "site"
    result = subprocess.run(["bash", str(BUILD_LITE), "--hide-solutions", str(output)],
                            capture_output=True, text=True, timeout=600,
                            env={key: value for key, value in os.environ.items()
                                 if key != "MINIGRAD_HIDE_SOLUTIONS"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert not list(output.rglob("solutions"))
    [wheel] = (output / "pypi").glob("minigrad_tutor-*-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "minigrad/lessons/en/03-custom-functions.ipynb" in names
    assert not [name for name in names if "/solutions/" in name]
    lines = set().union(*(answer_lines(lesson, lang) for lesson in LESSONS if lesson.exercises
                          for lang in ("en", "zh")))
    given = "\n".join(cell.source for lang in ("en", "zh") for path in list_lessons(lang)
                      for cell in nbformat.read(path, as_version=4).cells)
    lines = {line for line in lines if line not in given}    # a later lesson may give one
    for path in output.rglob("*"):
        if path.is_file() and path.suffix in (".ipynb", ".json", ".html"):
            text = page_text(path.read_text(encoding="utf-8", errors="replace"))
            assert not [line for line in lines if line in text], path
