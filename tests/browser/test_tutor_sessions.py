"""The tutor from one session to the next, as a student meets it in Chromium.

Each test starts the real launcher (`python -m minigrad`, what `minigrad-tutor` and
scripts/start-tutor.sh run) on a workspace in a temporary folder, with Jupyter's
own folders private to the test (tests/jupyter_helpers.py):

1. A player outlives the tutor: lesson 01 is run and saved, the tutor stopped and
   started again, the lesson opened: the player is there (its page version,
   minigrad/viz/page_player.py) and plays, and no "model not found" shows.
2. Switching language just works: a launch with --lang zh while the English tutor
   runs copies the Chinese lessons, switches the running JupyterLab's menus to
   Chinese and gives the address of the Chinese course index; after a restart in
   Chinese, no English tab (nor its kernel) comes back next to the Chinese ones.

Screenshots: tests/browser/artifacts/tutor-*.png.
"""
import contextlib
import json
import re
import signal
import subprocess
import sys

import nbformat
import pytest

from minigrad.lessons import INDEX, LESSONS, lesson_path
from minigrad.tutor.jupyterlab import lab_url

from jupyter_helpers import TOKEN, free_port, private_jupyter_environment, start_tutor, stop, \
    wait_for_jupyterlab

from .test_jupyterlab_widgets import RUN_TIMEOUT, assert_no_traceback, run_all_cells, \
    wait_until_all_cells_ran

pytestmark = pytest.mark.browser

WINDOW = {"width": 1280, "height": 800}
LESSON = LESSONS[0]
PAGE_PLAYER = ".minigrad-page-player"
DIRTY = ".lm-TabBar-tab.jp-mod-current.jp-mod-dirty"
STEP_OF = "+document.querySelector('{scope} .minigrad-caption').getAttribute('data-step')"


def launcher(*options):
    return [sys.executable, "-m", "minigrad", *options]


def address(port, path):
    return f"http://127.0.0.1:{port}{path}?token={TOKEN}"


@contextlib.contextmanager
def lab_page(browser, url):
    """A page of JupyterLab at `url`, closed however the test ends (an open page keeps
    JupyterLab's connections, and its shutdown, waiting)."""
    context = browser.new_context(viewport=WINDOW)
    context.set_default_timeout(60_000)
    try:
        page = context.new_page()
        page.goto(url)
        page.locator(".lm-MenuBar").first.wait_for()
        yield page
    finally:
        context.close()


def code_cells(lesson):
    """How many code cells the lesson's worked notebook has (en)."""
    notebook = nbformat.read(lesson_path(lesson, "en", solutions=True), as_version=4)
    return sum(cell.cell_type == "code" for cell in notebook.cells)


def wait_idle(page):
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]',
                           timeout=RUN_TIMEOUT)


def caption_step(page, scope):
    return page.evaluate("""scope => {
        const caption = document.querySelector(scope + ' .minigrad-caption');
        return caption && +caption.getAttribute('data-step');
    }""", scope)


def open_tabs(page, at_least=1):
    """The path of every document tab JupyterLab shows (from each tab's tooltip), once
    `at_least` tabs have one (JupyterLab writes a new tab's tooltip when its document has
    loaded, a moment after the tab appears)."""
    page.wait_for_function(
        r"""n => [...document.querySelectorAll('.lm-DockPanel-tabBar .lm-TabBar-tab')]
                 .filter(tab => /(Path|路径)\s*[:：]/.test(tab.getAttribute('title') || ''))
                 .length >= n""", arg=at_least, timeout=RUN_TIMEOUT)
    titles = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab").evaluate_all(
        "tabs => tabs.map(tab => tab.getAttribute('title') || '')")
    return [match.group(1) for title in titles
            for match in [re.search(r"(?:Path|路径)\s*[:：]\s*(\S+)", title)] if match]


def sessions(port):
    from jupyter_helpers import get
    return [session["path"] for session in json.loads(get(port, "/api/sessions"))]


def test_a_player_shows_and_plays_after_the_tutor_restarts(browser, tmp_path, artifacts):
    notebook = f"en/solutions/{LESSON.slug}.ipynb"
    command = launcher("--lang", "en", "--solutions")
    port = free_port()
    process = start_tutor(command, tmp_path, port)
    try:
        wait_for_jupyterlab(port, process)
        with lab_page(browser, address(port, lab_url("en", notebook))) as page:
            wait_idle(page)
            page.wait_for_timeout(2_000)        # the kernel's language_info has come in by now
            assert not page.locator(DIRTY).count(), "the lesson shows as modified before any edit"
            run_all_cells(page)
            page.locator(".minigrad-player .minigrad-caption").first.wait_for(timeout=RUN_TIMEOUT)
            assert_no_traceback(page)
            assert not page.locator(PAGE_PLAYER).first.is_visible(), (
                "the page player shows next to the live widget")
            # saved once every cell has run: an output that comes after the save marks the
            # notebook modified again
            wait_until_all_cells_ran(page, count=code_cells(LESSON))
            wait_idle(page)
            page.keyboard.press("Control+s")
            page.wait_for_function("selector => !document.querySelector(selector)", arg=DIRTY)
    finally:
        stop(process, signal.SIGTERM)

    process = start_tutor(command, tmp_path, port)
    try:
        wait_for_jupyterlab(port, process)
        with lab_page(browser, address(port, lab_url("en", notebook))) as page:
            player = page.locator(PAGE_PLAYER).first
            player.wait_for(state="visible")
            player.scroll_into_view_if_needed()
            dead = page.get_by_text("model not found").first      # the saved widget output,
            dead.wait_for(state="attached")                        # gone with its kernel...
            assert not dead.is_visible(), "a dead widget shows its error"  # ...kept out of sight
            scope = "#" + player.get_attribute("id")
            assert caption_step(page, scope) == 0
            player.locator(".mg-next").click()
            page.wait_for_function(f"() => {STEP_OF.format(scope=scope)} === 1")
            player.locator(".mg-play").click()
            page.wait_for_function(f"() => {STEP_OF.format(scope=scope)} >= 2")
            player.screenshot(path=str(artifacts / "tutor-restart-player-en.png"))
            page.screenshot(path=str(artifacts / "tutor-restart-page-en.png"))
    finally:
        stop(process, signal.SIGTERM)


def test_switching_language_while_the_tutor_runs_and_after_a_restart(browser, tmp_path,
                                                                     artifacts):
    port = free_port()
    process = start_tutor(launcher("--lang", "en"), tmp_path, port)
    try:
        wait_for_jupyterlab(port, process)
        with lab_page(browser, address(port, "/")) as page:       # the tutor's first page
            page.locator(".jp-RenderedMarkdown", has_text="The course").first.wait_for()
            page.get_by_role("link", name=f"01 · {LESSON.title('en')}").first.click()
            page.locator(".lm-TabBar-tab", has_text=f"{LESSON.slug}.ipynb").first.wait_for()
            wait_idle(page)
            assert set(open_tabs(page, at_least=2)) == {f"en/{INDEX}.ipynb",
                                                  f"en/{LESSON.slug}.ipynb"}
            page.wait_for_timeout(2_000)                # JupyterLab saves its layout

        switch = subprocess.run(
            [*map(str, launcher("--lang", "zh")), "--dir", str(tmp_path / "lessons"),
             "--no-browser"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env=private_jupyter_environment(tmp_path))
        said = switch.stdout + switch.stderr
        assert switch.returncode == 0, said
        url = re.search(r"http://\S+", said).group(0)
        assert lab_url("zh", f"zh/{INDEX}.ipynb") in url, said
        assert (tmp_path / "lessons" / "zh" / f"{LESSON.slug}.ipynb").is_file()
        with lab_page(browser, url) as page:
            page.get_by_role("menuitem", name="文件").first.wait_for()      # File, in Chinese
            page.locator(".jp-RenderedMarkdown", has_text="课程目录").first.wait_for()
            assert open_tabs(page) == [f"zh/{INDEX}.ipynb"], open_tabs(page)
            page.screenshot(path=str(artifacts / "tutor-switched-to-zh.png"))
    finally:
        stop(process, signal.SIGTERM)

    process = start_tutor(launcher(), tmp_path, port)          # the workspace's language now
    try:
        wait_for_jupyterlab(port, process)
        with lab_page(browser, address(port, "/")) as page:
            page.get_by_role("menuitem", name="文件").first.wait_for()
            page.locator(".jp-RenderedMarkdown", has_text="课程目录").first.wait_for()
            wait_idle(page)
            tabs = open_tabs(page)
            assert tabs and all(path.startswith("zh/") for path in tabs), tabs
            assert all(path.startswith("zh/") for path in sessions(port)), sessions(port)
            page.screenshot(path=str(artifacts / "tutor-restarted-in-zh.png"))
    finally:
        output = stop(process, signal.SIGTERM)
    assert "正在启动 JupyterLab" in output
