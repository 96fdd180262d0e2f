"""Every lesson in JupyterLite, end to end: JupyterLab and Python (Pyodide) in the browser.

A student opens a lesson of the site scripts/build-lite.sh makes and runs all its cells:
the first cell installs minigrad-tutor from the site (piplite), every cell runs, the
players step, check() gives its verdicts.  Here that happens for every lesson, in both
languages, in the student's version (every check "not solved yet") and the worked one
(every check ✓), on the Pyodide the site carries (scripts/lite-pyodide.py), in a browser
that knows no host but this machine: what works here works with no network.  A kernel
that dies (Pyodide says so on the console only) fails the test at once.  The browser's
32-bit Pyodide also runs tests/integer_dtypes.py, to find integer dtypes that follow
numpy's platform int instead of PyTorch's int64.

The site is built once per run; its Pyodide comes from ~/.cache/minigrad-tutor after the
first build.  Each notebook has a browser profile, a page and a kernel of its own, as on
a student's first visit; two notebooks run at a time (a CI machine has two cores).
Screenshots of a failure go to tests/browser/artifacts/ (ignored by git).
"""
import functools
import http.server
import os
import pathlib
import re
import subprocess
import threading
import time

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from minigrad.lessons import LESSONS, LESSONS_DIR

from .conftest import CHROMIUM_ARGS, find_chromium
from .test_jupyterlab_widgets import assert_no_traceback, output_texts, run_all_cells

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 240            # s: Pyodide starts in the page, piplite installs minigrad-tutor,
                             # every cell runs (cells wait, queued, for the kernel to start)
STEP_TIMEOUT = 30_000        # ms: a click on Next reaches the kernel and the new frame comes back
CHECK_CALL = re.compile(r"""\bcheck\(\s*["']([a-z0-9_]+)["']""")
FATAL = "Pyodide has suffered a fatal error"

pytestmark = pytest.mark.browser


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """A static server, as GitHub Pages is, with the types Pyodide's files need."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory, chromium_path):
    """The Lite site, built as a teacher builds it, served on a free port; yields its address."""
    from test_lite import skip_without_pyodide
    skip_without_pyodide()
    site = tmp_path_factory.mktemp("lite") / "site"
    result = subprocess.run(["bash", str(ROOT / "scripts" / "build-lite.sh"), str(site)],
                            capture_output=True, text=True, timeout=900)
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


class Offline:
    """A browser with no network but this machine: every other host name is unknown to it.
    Each notebook gets a profile of its own (a window of its own: a page behind another
    one is not drawn); `left_the_site` lists the requests that went elsewhere."""

    def __init__(self, browser, site):
        self.site, self.left_the_site = site, []
        self.browser = browser.browser_type.launch(
            executable_path=find_chromium(), headless=True,
            args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])

    def new_page(self):
        profile = self.browser.new_context(viewport={"width": 1280, "height": 800})
        profile.set_default_timeout(30_000)
        profile.on("request", self.remember)
        return profile.new_page()

    def remember(self, request):
        if not request.url.startswith((self.site + "/", "data:", "blob:")):
            self.left_the_site.append(request.url)


@pytest.fixture(scope="module")
def offline(browser, lite_site):
    cut_off = Offline(browser, lite_site)
    yield cut_off
    cut_off.browser.close()


class Run:
    """A notebook of the site opened in a page of its own (with a kernel of its own) and run
    to the end, as a student runs it: Run > Run All Cells."""

    def __init__(self, profile, site, notebook):
        self.notebook, self.site = notebook, site
        self.source = nbformat.read(LESSONS_DIR / notebook, as_version=4)
        self.code = [cell.source for cell in self.source.cells if cell.cell_type == "code"]
        self.page = profile.new_page()          # a profile of its own
        self.console_errors = []
        self.page.on("console", lambda message: message.type == "error"
                     and self.console_errors.append(message.text))
        self.page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        self.started = self.seconds = None

    def start(self):
        """Open the notebook, clear any stored outputs, Run All Cells."""
        page, self.started = self.page, time.monotonic()
        page.goto(f"{self.site}/lab/index.html?path={self.notebook}")
        page.wait_for_function(     # JupyterLab makes the cells' nodes a few at a time
            "count => document.querySelectorAll('.jp-CodeCell').length === count",
            arg=len(self.code), timeout=60_000)
        page.click(".jp-NotebookPanel .jp-Notebook")
        page.click('.lm-MenuBar-itemLabel:text-is("Edit")')
        page.click('.lm-Menu-item:has(.lm-Menu-itemLabel:text-is("Clear Outputs of All Cells"))')
        run_all_cells(page)

    def finished(self):
        """Whether every cell has run; fails if Pyodide died (it says so on the console only:
        the cells just stay queued)."""
        fatal = [text for text in self.console_errors if FATAL in text]
        assert not fatal, f"{self.notebook}: the kernel died:\n" + "\n".join(self.console_errors[-6:])
        # the prompts in the page, not a count of all code cells (in JupyterLite, waiting for
        # every code cell to be in the page and run never ended)
        if self.seconds is None and self.page.evaluate(r"""() => {
                const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                return prompts.length > 0 && prompts.every(p => /\[\d+\]/.test(p.textContent));
            }"""):
            self.seconds = time.monotonic() - self.started
        return self.seconds is not None

    def outputs(self):
        """The text of every output, the cells out of view included (JupyterLab hides them)."""
        return self.page.evaluate(
            "() => [...document.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent)")

    def verdicts(self):
        """The text of every check()'s output, in order."""
        return [text.strip() for text in self.outputs() if text.strip().startswith(("✓", "✗", "○"))]

    def player_cells(self):
        """The notebook indices of the cells that show a player."""
        return [index for index, cell in enumerate(self.source.cells)
                if cell.cell_type == "code" and "viz.animate(" in cell.source]

    def step_each_player(self):
        """Click Next on every player and see its frame move (the click reached the kernel,
        the new frame came back); returns how many stepped.  JupyterLab draws only the cells
        in view (the others stay in the page, hidden), so each player's cell is first made
        the active cell with the keyboard, as a student moves through a notebook (J, K):
        JupyterLab brings the active cell into view."""
        players = self.player_cells()
        for index in players:
            self.go_to_cell(index)
            self.step(index)
        return len(players)

    ACTIVE = """() => {
        const cell = document.querySelector('.jp-NotebookPanel .jp-Cell.jp-mod-active');
        return cell === null ? null : Number(cell.getAttribute('data-windowed-list-index'));
    }"""

    # the notebook's scrolling element (JupyterLab draws only the cells in its view)
    SCROLL_TO_TOP = """() => document.querySelectorAll(
        '.jp-NotebookPanel .jp-WindowedPanel-outer, .jp-NotebookPanel .jp-Notebook')
        .forEach(element => { element.scrollTop = 0; })"""

    def activate_a_cell_in_view(self):
        """Click the prompt of a cell in view (command mode: the keys go to the notebook);
        when JupyterLab shows no cell there (it had not drawn the cells of the part scrolled
        to while the page was in the background), go back to the top, and again."""
        page = self.page
        page.bring_to_front()
        for attempt in range(3):
            try:
                page.locator(".jp-NotebookPanel .jp-Cell .jp-InputPrompt:visible").first.click(
                    timeout=10_000)
                # the click makes a cell active once JupyterLab has drawn the cells around it
                page.wait_for_function(f"() => ({self.ACTIVE})() !== null", timeout=10_000)
                return
            except PlaywrightTimeout:
                print(f"{self.notebook}: no cell in view to click, attempt {attempt + 1}")
                page.evaluate(self.SCROLL_TO_TOP)
                page.wait_for_timeout(1_000)
        pytest.fail(f"{self.notebook}: JupyterLab showed no cell to click, even at the top")

    def go_to_cell(self, index):
        """Make cell `index` the active cell, in view: a cell in view made active, then J or
        K until it is `index`."""
        page = self.page
        self.activate_a_cell_in_view()
        for _ in range(3 * len(self.source.cells)):
            active = page.evaluate(self.ACTIVE)
            if active is None:      # JupyterLab redrew the cells without it: start again
                self.activate_a_cell_in_view()
                continue
            if active == index:
                break
            page.keyboard.press("j" if active < index else "k")
            page.wait_for_function(f"active => ({self.ACTIVE})() !== active", arg=active,
                                   timeout=5_000)
        assert page.evaluate(self.ACTIVE) == index, (self.notebook, index)

    # the widget's frame (the cell also holds a page player, hidden, for pages with no kernel)
    CAPTION = " .minigrad-player .minigrad-caption"

    def step(self, index):
        """Next on the player of cell `index` (the active cell, in view)."""
        cell = f'.jp-CodeCell[data-windowed-list-index="{index}"]'
        before = self.page.evaluate(
            "cell => document.querySelector(cell + CAPTION).getAttribute('data-step')"
            .replace("CAPTION", repr(self.CAPTION)), cell)
        self.page.locator(f'{cell} .minigrad-player button[title="Next"]:visible').first.click()
        try:
            self.page.wait_for_function(
                """([cell, step]) => document.querySelector(cell + CAPTION)
                                     .getAttribute('data-step') !== step"""
                .replace("CAPTION", repr(self.CAPTION)),
                arg=[cell, before], timeout=STEP_TIMEOUT)
        except PlaywrightTimeout:
            pytest.fail(f"{self.notebook}, the player of cell {index}: Next left the frame at "
                        f"step {before}")

    def check(self, solutions, expected_text):
        """No cell raised; every check gave the version's verdict; the lesson's sign of a
        browser fix is there; every player steps."""
        assert_no_traceback(self.page)
        checks = sum(len(CHECK_CALL.findall(cell)) for cell in self.code)
        found = self.verdicts()
        assert len(found) == checks, (self.notebook, found)
        mark = "✓" if solutions else "○"
        assert all(text.startswith(mark) for text in found), (self.notebook, found)
        if expected_text:
            assert any(expected_text in text for text in self.outputs()), (
                f"{self.notebook} never shows {expected_text!r}")
        players = self.step_each_player()
        return f"{self.notebook}: ran in {self.seconds:.1f} s, {checks} checks, {players} players"


def outside_images(notebooks):
    """The images the notebooks' Markdown shows from elsewhere (the Colab badge): a browser
    with no network shows them broken, and nothing else."""
    text = "\n".join(cell.source for notebook in notebooks
                     for cell in nbformat.read(LESSONS_DIR / notebook, as_version=4).cells
                     if cell.cell_type == "markdown")
    return set(re.findall(r"!\[[^\]]*\]\((https?://[^)\s]+)\)", text))


# What shows that a fix for the browser works, in the lesson's output in Pyodide
IN_PYODIDE = {
    "03": "recursive_visits:   RecursionError",    # the browser's stack holds Python's limit
    "15": "256×256:",                               # the timing is scaled down in the browser
}


# The students' versions (every check "not solved yet") run in the browser for the first
# lesson: the lessons whose code takes another path in Pyodide (IN_PYODIDE) take it in their
# worked versions too.  Each lesson's worked notebooks run in both languages;
# MINIGRAD_LITE_EVERY_VERSION=1 runs the students' versions of every lesson too (about twice
# the time: CI keeps to its 30 minutes without it).
STUDENT_VERSIONS_IN = {"01"}


def versions_of(lesson):
    """(lang, solutions) of the notebooks a lesson's test runs, worked ones first."""
    every = os.environ.get("MINIGRAD_LITE_EVERY_VERSION") == "1"
    students = every or lesson.slug[:2] in STUDENT_VERSIONS_IN
    return [(lang, True) for lang in ("en", "zh")] + (
        [(lang, False) for lang in ("en", "zh")] if students else [])


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_runs_in_pyodide(offline, lite_site, artifacts, lesson):
    """The lesson's worked notebooks in both languages (and its students' versions, see
    versions_of), two at a time (the two cores of a CI machine), each in its own page and
    kernel."""
    versions = versions_of(lesson)
    offline.left_the_site.clear()
    for pair in (versions[k:k + 2] for k in range(0, len(versions), 2)):
        runs = {(lang, solutions): Run(offline, lite_site, notebook_of(lesson, lang, solutions))
                for lang, solutions in pair}
        try:
            for run in runs.values():
                run.start()
            deadline = time.monotonic() + RUN_TIMEOUT
            while not all([run.finished() for run in runs.values()]):
                if time.monotonic() > deadline:
                    late = [run.notebook for run in runs.values() if not run.finished()]
                    pytest.fail(f"not all cells ran in {RUN_TIMEOUT} s: {late}\n" + "\n".join(
                        f"{run.notebook}:\n{output_texts(run.page)}" for run in runs.values()))
                next(iter(runs.values())).page.wait_for_timeout(250)
            for (lang, solutions), run in runs.items():
                print(run.check(solutions, IN_PYODIDE.get(lesson.slug[:2])))
        except BaseException:
            for run in runs.values():
                shot = artifacts / f"FAILED-lite-{run.notebook.replace('/', '-')}.png"
                run.page.screenshot(path=str(shot))
                print(f"screenshot {shot}; console errors of {run.notebook}:\n"
                      + "\n".join(run.console_errors[-10:]))
            raise
        finally:
            for run in runs.values():
                run.page.context.close()
    notebooks = [notebook_of(lesson, lang, solutions) for lang, solutions in versions]
    assert set(offline.left_the_site) <= outside_images(notebooks), offline.left_the_site


def notebook_of(lesson, lang, solutions):
    return f"{lang}/{'solutions/' if solutions else ''}{lesson.slug}.ipynb"


def test_integer_dtypes_in_pyodide_are_pytorchs(offline, lite_site):
    """tests/integer_dtypes.py in the site's REPL: on the browser's 32-bit Pyodide, numpy's
    own integer is int32, and minigrad's integer results and indices are still PyTorch's
    (int64), and the ops that take indices take them."""
    import json
    import urllib.parse

    import integer_dtypes
    import torch
    source = pathlib.Path(integer_dtypes.__file__).read_text(encoding="utf-8")
    code = ["%pip install minigrad-tutor",
            source + "\nimport json, minigrad\nprint('ANSWERS' + json.dumps(describe_all(minigrad)))"]
    page = offline.new_page()
    try:
        page.goto(f"{lite_site}/repl/index.html?kernel=python&"
                  + urllib.parse.urlencode([("code", lines) for lines in code]))
        answers = page.wait_for_function(
            """() => [...document.querySelectorAll('.jp-OutputArea-output')]
                     .map(o => o.textContent).find(text => text.startsWith('ANSWERS'))""",
            timeout=RUN_TIMEOUT * 1000).json_value()
    finally:
        page.context.close()
    in_pyodide = json.loads(answers.removeprefix("ANSWERS"))
    pytorchs = integer_dtypes.describe_all(torch)
    assert {e: (in_pyodide[e], pytorchs[e]) for e in pytorchs if in_pyodide[e] != pytorchs[e]} == {}


def test_each_lesson_runs_its_worked_notebooks_in_both_languages(monkeypatch):
    monkeypatch.delenv("MINIGRAD_LITE_EVERY_VERSION", raising=False)
    for lesson in LESSONS:
        versions = versions_of(lesson)
        assert versions[:2] == [("en", True), ("zh", True)]
        assert len(versions) == (4 if lesson.slug[:2] in STUDENT_VERSIONS_IN else 2)
    monkeypatch.setenv("MINIGRAD_LITE_EVERY_VERSION", "1")
    assert all(len(versions_of(lesson)) == 4 for lesson in LESSONS)
