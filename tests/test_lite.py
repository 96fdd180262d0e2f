"""The JupyterLite site (scripts/build-lite.sh): built as CI builds it, then read.

The site must hold every lesson in both languages, exactly as in notebooks/, the Pyodide it
runs on (scripts/lite-pyodide.py: Pyodide 0.27.7's own files, checked against its lock),
and for piplite minigrad-tutor's wheel with the pinned ipywidgets, whose JupyterLab
extension the site carries; everything a lesson installs must be found in the site itself,
and piplite must understand the `%pip` line of each notebook's first cell (else that line
silently installs nothing).  tests/browser/test_lite.py runs every lesson in it.
The first build needs the package registries (PyPI, npm); Pyodide is kept in
~/.cache/minigrad-tutor after that.
"""
import asyncio
import concurrent.futures
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import zipfile
import re
import shutil

import nbformat
import pytest

from minigrad.lessons import LESSONS, LESSONS_DIR, list_lessons

from test_lessons import run_first_code_cell

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD_LITE = ROOT / "scripts" / "build-lite.sh"
spec = importlib.util.spec_from_file_location("lite_pyodide", ROOT / "scripts" / "lite-pyodide.py")
lite_pyodide = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lite_pyodide)

pytestmark = pytest.mark.lite


def skip_without_pyodide():
    """Skip where Pyodide can be had from nowhere: no npm (its core is on the npm
    registry), no Pyodide assembled before, no MINIGRAD_PYODIDE_DIR."""
    if not (shutil.which("npm") or os.environ.get("MINIGRAD_PYODIDE_DIR")
            or lite_pyodide.cache_folder().is_dir()):
        pytest.skip("no npm: the JupyterLite site's Pyodide comes from the npm registry "
                    "(apt-get install npm; scripts/run-tests.sh does so when it runs as root)")


def build_site(output, **environment):
    return subprocess.run(["bash", str(BUILD_LITE), str(output)], capture_output=True, text=True,
                          env={**os.environ, **environment}, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    skip_without_pyodide()
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
    """The site carries the widget extension of the pinned jupyterlab_widgets, and piplite
    installs that same jupyterlab_widgets with ipywidgets 8 in the browser."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    loaded = {entry["name"] for entry in config["federated_extensions"]}
    assert loaded == {"@jupyter-widgets/jupyterlab-manager", "@jupyterlite/pyodide-kernel-extension"}
    pins = dict(spec.split("==") for spec in lite_pyodide.WHEELS)
    index = piplite_index(site)
    assert list(index["jupyterlab-widgets"]["releases"]) == [pins["jupyterlab_widgets"]]
    assert list(index["ipywidgets"]["releases"]) == [pins["ipywidgets"]]
    assert pins["ipywidgets"].startswith("8.")
    [wheel] = (site / "pypi").glob("jupyterlab_widgets-*.whl")
    [package] = [name for name in zipfile.ZipFile(wheel).namelist()
                 if name.endswith("labextensions/@jupyter-widgets/jupyterlab-manager/package.json")]
    shipped = site / "extensions" / "@jupyter-widgets" / "jupyterlab-manager" / "package.json"
    assert json.loads(shipped.read_text()) == json.loads(zipfile.ZipFile(wheel).read(package))


def kernel_settings(site):
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    return config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]


def test_the_site_carries_pyodide_and_never_asks_pypi(site):
    """Pyodide 0.27.7 is in the site, each file the one its official lock names; what the
    kernel loads as it starts is there; piplite may not fall back to PyPI."""
    settings = kernel_settings(site)
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.js"
    assert settings["disablePyPIFallback"] is True
    pyodide = site / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    official = json.loads((lite_pyodide.cache_folder() / "official-lock.json").read_text())
    assert lock["info"] == official["info"] and lock["info"]["version"] == "0.27.7"
    for name, entry in lock["packages"].items():
        assert entry == official["packages"][name]
        assert lite_pyodide.sha256(pyodide / entry["file_name"]) == entry["sha256"]
    for name, digest in lite_pyodide.CORE.items():
        if name != "pyodide-lock.json":
            assert lite_pyodide.sha256(pyodide / name) == digest
    assert set(settings["loadPyodideOptions"]["packages"]) <= set(lock["packages"])
    files = {path.name for path in pyodide.iterdir()}
    assert files == {entry["file_name"] for entry in lock["packages"].values()} | set(lite_pyodide.CORE)
    assert {"numpy", "matplotlib", "ipython", "micropip"} <= set(lock["packages"])


def requirement_names(wheel):
    """The names a wheel requires in the browser (markers: Python 3.12 on emscripten)."""
    [metadata] = [name for name in zipfile.ZipFile(wheel).namelist()
                  if name.endswith(".dist-info/METADATA")]
    names = []
    for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines():
        if line.startswith("Requires-Dist:") and "extra ==" not in line:
            requirement, _, marker = line.removeprefix("Requires-Dist:").partition(";")
            if "sys_platform" in marker and "emscripten" not in marker:
                continue
            names.append(re.match(r"\s*([A-Za-z0-9_.-]+)", requirement).group(1))
    return names


def test_everything_a_lesson_installs_is_in_the_site(site):
    """minigrad-tutor and what it needs in the browser, and what that needs, down to the
    end, is in the site's piplite indexes or its Pyodide: a student's browser never needs
    a package index (the kernel installs comm itself as it starts)."""
    def key(name):
        return re.sub(r"[-_.]+", "-", name).lower()
    wheels = {key(name): pathlib.Path(entry["url"]).name
              for name, package in piplite_index(site).items()
              for entries in package["releases"].values() for entry in entries}
    kernel_pypi = site / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    kernels = json.loads((kernel_pypi / "all.json").read_text(encoding="utf-8"))
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    todo, seen = ["minigrad-tutor", "comm"], set()
    while todo:
        name = key(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        if name in wheels:
            todo += requirement_names(site / "pypi" / wheels[name])
        elif name in lock["packages"]:
            todo += lock["packages"][name]["depends"]
        else:
            assert name in {key(k) for k in kernels}, f"{name} is nowhere in the site"
    assert {"numpy", "ipywidgets", "comm", "traitlets", "jupyterlab-widgets"} <= seen


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


def local_pyodide(folder):
    """A folder laid out as an unpacked Pyodide release (the core, the official lock, the
    packages), made from the cache."""
    cache = lite_pyodide.cache_folder()
    shutil.copytree(cache / "pyodide", folder)
    shutil.copyfile(cache / "official-lock.json", folder / "pyodide-lock.json")
    return folder


def test_a_local_pyodide_is_checked_like_the_registries(site, tmp_path):
    """MINIGRAD_PYODIDE_DIR: its files are taken, each checked against the pinned sha256;
    a file that is not the one pinned is refused, and nothing is kept."""
    local = local_pyodide(tmp_path / "pyodide")
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
                   "MINIGRAD_PYODIDE_DIR": str(local)}
    numpy_wheel = next(local.glob("numpy-*.whl"))
    data = bytearray(numpy_wheel.read_bytes())
    data[len(data) // 2] ^= 1                       # one bit changed
    numpy_wheel.write_bytes(bytes(data))
    script = [sys.executable, str(ROOT / "scripts" / "lite-pyodide.py")]
    refused = subprocess.run(script, capture_output=True, text=True, env=environment, timeout=600)
    assert refused.returncode != 0 and "numpy-" in refused.stderr and "sha256" in refused.stderr
    assert not list((tmp_path / "cache" / "minigrad-tutor").glob("pyodide-*"))
    shutil.copyfile(lite_pyodide.cache_folder() / "pyodide" / numpy_wheel.name, numpy_wheel)
    taken = subprocess.run(script, capture_output=True, text=True, env=environment, timeout=600)
    assert taken.returncode == 0, taken.stderr
    folder = pathlib.Path(taken.stdout.strip())
    assert folder.parent == tmp_path / "cache" / "minigrad-tutor"
    assert sorted(p.name for p in (folder / "pyodide").iterdir()) == sorted(
        p.name for p in (lite_pyodide.cache_folder() / "pyodide").iterdir())
    (folder / "pyodide" / "extra.js").write_text("// not Pyodide's")
    with pytest.raises(lite_pyodide.Refused, match="unexpected"):
        lite_pyodide.verify(folder)


def test_a_site_built_with_the_solutions_hidden_holds_no_answer(tmp_path):
    """--hide-solutions (or MINIGRAD_HIDE_SOLUTIONS=1): no worked notebook in the site or in
    the wheel piplite installs, and no line of an answer in any of the site's files."""
    from test_site_build import answer_lines, page_text
    skip_without_pyodide()
    output = tmp_path / "site"
    result = subprocess.run(["bash", str(BUILD_LITE), "--hide-solutions", str(output)],
                            capture_output=True, text=True, timeout=600,
                            env={key: value for key, value in os.environ.items()
                                 if key != "MINIGRAD_HIDE_SOLUTIONS"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert not list(output.rglob("solutions"))
    [wheel] = (output / "pypi").glob("minigrad_tutor-*-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "minigrad/lessons/en/04-custom-functions.ipynb" in names
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
