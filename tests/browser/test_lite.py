"""The lessons in JupyterLite, end to end: JupyterLab and Python (Pyodide) in the browser.

A student opens a lesson of the site scripts/build-lite.sh makes, runs all its
cells, and the first cell installs minigrad-tutor from the site (piplite);
the graph drawing and the player appear, and check() gives its verdicts.

Pyodide, and numpy built for it, load from Pyodide's CDN on a real visit; no
package registry carries a Pyodide build of numpy, so these tests run only
where a Pyodide distribution is at hand: MINIGRAD_PYODIDE_DIR names the folder
of an unpacked Pyodide release (the version jupyterlite-pyodide-kernel
expects: `jupyterlite_pyodide_kernel.constants.PYODIDE_VERSION`), which goes
into the site, and they skip otherwise.  Screenshots go to
tests/browser/artifacts/ (ignored by git).
"""
import functools
import http.server
import os
import pathlib
import subprocess
import threading

import nbformat
import pytest

from minigrad.lessons import LESSONS, LESSONS_DIR

from .test_jupyterlab_widgets import FRAME, assert_no_traceback, output_texts, run_all_cells

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYODIDE_DIR = os.environ.get("MINIGRAD_PYODIDE_DIR")
RUN_TIMEOUT = 480_000        # ms: Pyodide starts in the page, piplite installs minigrad-tutor,
                             # every cell runs (cells wait, queued, for the kernel to start)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not PYODIDE_DIR, reason=(
        "MINIGRAD_PYODIDE_DIR is not set: these tests run the Lite site on a local Pyodide "
        "distribution (no package registry carries Pyodide's numpy); set it to the folder of "
        "an unpacked Pyodide release")),
]


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A static server, as GitHub Pages is, with the types Pyodide's files need."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory, chromium_path):
    """The Lite site with the local Pyodide, served on a free port; yields its address."""
    site = tmp_path_factory.mktemp("lite") / "site"
    result = subprocess.run(["bash", str(ROOT / "scripts" / "build-lite.sh"), str(site)],
                            capture_output=True, text=True, timeout=900,
                            env={**os.environ, "MINIGRAD_PYODIDE_DIR": PYODIDE_DIR})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture
def lite_page(browser, artifacts, request):
    """A fresh page at 1280x800 (a page has its own in-browser storage: no state is shared)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    page = context.new_page()
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        shot = artifacts / f"FAILED-{request.node.name}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"browser test failed: screenshot {shot}")
    context.close()


def open_and_run(page, site, notebook):
    """Open `notebook` in the Lite site, clear any stored outputs, run all cells to the end."""
    code_cells = sum(cell.cell_type == "code"
                     for cell in nbformat.read(LESSONS_DIR / notebook, as_version=4).cells)
    page.goto(f"{site}/lab/index.html?path={notebook}")
    page.wait_for_function(        # JupyterLab attaches the cells to the page a few at a time
        "count => document.querySelectorAll('.jp-CodeCell').length === count", arg=code_cells,
        timeout=60_000)
    page.click(".jp-NotebookPanel .jp-Notebook")
    page.click('.lm-MenuBar-itemLabel:text-is("Edit")')
    page.click('.lm-Menu-item:has(.lm-Menu-itemLabel:text-is("Clear Outputs of All Cells"))')
    run_all_cells(page)
    try:
        page.wait_for_function(
            r"""() => {
                const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                return prompts.length > 0 && prompts.every(p => /\[\d+\]/.test(p.textContent));
            }""", timeout=RUN_TIMEOUT)
    except Exception as error:
        kernel = page.locator(".jp-StatusBar-Widget").all_inner_texts()
        pytest.fail(f"the cells did not all run: {error}\nstatus bar: {kernel}\n"
                    f"outputs:\n{output_texts(page)}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lesson_01_installs_minigrad_from_the_site_and_shows_the_graph_and_player(
        lite_page, lite_site, artifacts, lang):
    open_and_run(lite_page, lite_site, f"{lang}/01-tensors-and-the-graph.ipynb")
    assert_no_traceback(lite_page)
    lite_page.locator(".jp-RenderedSVG img").first.wait_for()          # minigrad.viz.graph
    lite_page.locator(FRAME).first.wait_for()                          # minigrad.viz.animate
    lite_page.screenshot(path=str(artifacts / f"lite-01-{lang}.png"))


def test_lesson_03s_checks_pass_the_worked_answers_under_pyodide(lite_page, lite_site, artifacts):
    lesson = LESSONS[2]
    open_and_run(lite_page, lite_site, f"en/solutions/{lesson.slug}.ipynb")
    texts = lite_page.locator(".jp-OutputArea-output").all_inner_texts()
    verdicts = [text for text in texts if text.startswith(("✓", "✗", "○"))]
    assert len(verdicts) == len(lesson.exercises), texts
    assert all(text.startswith("✓") for text in verdicts), verdicts
    lite_page.screenshot(path=str(artifacts / "lite-03-solutions-en.png"))
