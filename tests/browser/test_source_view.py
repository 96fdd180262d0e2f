"""The engine's own source beside the graph, in a lesson's player in JupyterLab.

Lesson 03's worked notebook runs at 1280 × 800 with the file browser open; the
student presses "Source" (源码), and the player shows `run_backward` with one
line highlighted (`<g class="mg-line" data-line=..>`, shown by the step's CSS), the
line that did the step, never the narration call that tells of it;
Next moves the highlight to another line of the loop, kept inside the window,
and the player still fits the laptop's window.  Screenshots in both languages go
to tests/browser/artifacts/source-view-{en,zh}-*.png.
"""
import inspect

import nbformat
import pytest

from minigrad.core import graph as engine
from minigrad.lessons import LESSONS, lesson_path

from .test_jupyterlab_widgets import frame_state, open_and_run, wait_for_frame_change
from .test_player_pages import CAPTION, MAX_HEIGHT, NEXT, WINDOW, measure_players

pytestmark = pytest.mark.browser

LESSON = next(lesson for lesson in LESSONS if lesson.slug.startswith("03-"))
SOURCE = ".minigrad-player .minigrad-source"


def highlight(page):
    """(line number, its text, whether the line is inside the source window) of the
    highlighted line shown now, or None."""
    return page.evaluate("""selector => {
        const shown = [...document.querySelectorAll(selector + ' .mg-line')].filter(line =>
            getComputedStyle(line.parentElement).opacity === '1');
        if (shown.length !== 1) return shown.length ? 'several' : null;
        const line = shown[0], box = line.getBoundingClientRect();
        const frame = document.querySelector('.minigrad-player .mg-source')
            .getBoundingClientRect();
        const listing = [...document.querySelectorAll(selector + ' .mg-listing')].find(g =>
            getComputedStyle(g.parentElement).opacity === '1');
        const number = +line.getAttribute('data-line');
        const row = [...listing.querySelectorAll('text')].find(t =>
            +t.firstElementChild?.textContent === number);
        return [number, row ? row.textContent.trim() : null,
                box.top >= frame.top && box.bottom <= frame.bottom && box.height > 0];
    }""", SOURCE)


@pytest.mark.parametrize("lang, label", [("en", "Source"), ("zh", "源码")])
def test_a_lesson_player_shows_the_engine_loop_with_the_line_of_each_step(
        browser, jupyter_lab, artifacts, lang, label):
    name = f"source-{LESSON.slug}-{lang}.ipynb"
    worked = nbformat.read(lesson_path(LESSON, lang, solutions=True), as_version=4)
    for cell in worked.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(worked, jupyter_lab.root / name)
    context = browser.new_context(viewport=WINDOW)
    context.set_default_timeout(30_000)
    page = context.new_page()
    loop, first = inspect.getsourcelines(engine.run_backward)
    try:
        open_and_run(page, jupyter_lab, name, workspace=f"source-{lang}", expect=CAPTION,
                     cells=sum(c.cell_type == "code" for c in worked.cells))
        if not page.locator("#jp-left-stack").is_visible():
            page.click('.jp-SideBar.jp-mod-left [data-id="filebrowser"]')
        player = page.locator(".minigrad-player").first
        player.evaluate("player => player.scrollIntoView({block: 'start'})")
        assert not page.locator(SOURCE).first.is_visible(), "the source shows before asked"
        player.locator(f'.mg-side-toggle button:text-is("{label}")').click()
        page.locator(SOURCE).first.wait_for(state="visible")
        assert not player.locator(".minigrad-panel").is_visible()
        page.wait_for_timeout(500)              # the listing slides to its line
        seen, state = [], frame_state(page)
        for clicks in range(8):
            shown = highlight(page)
            assert shown and shown != "several", f"step {state[0]}: highlighted {shown!r}"
            number, text, inside = shown
            assert text.split(None, 1)[1] == loop[number - first].strip(), (number, text)
            assert not text.split(None, 1)[1].startswith("narration."), (
                f"step {state[0]}: the highlight is on the narration, not the line it tells of")
            assert inside, f"step {state[0]}: line {number} is outside the window"
            seen.append(number)
            if clicks == 1:
                player.screenshot(path=str(artifacts / f"source-view-{lang}-player.png"))
            if len(set(seen)) >= 3:
                break
            page.locator(NEXT).first.click()
            state = wait_for_frame_change(page, state, f"Next click {clicks + 1}")
            page.wait_for_timeout(400)
        assert len(set(seen)) >= 3, f"the highlight stayed on lines {seen}"
        sizes = measure_players(page)
        page.screenshot(path=str(artifacts / f"source-view-{lang}-page.png"))
        for height, right in sizes:
            assert height <= MAX_HEIGHT, f"with the source shown a player is {height:.0f} px"
            assert right <= WINDOW["width"], f"with the source a player draws to x = {right:.0f}"
    finally:
        context.close()
        jupyter_lab.shutdown_kernels()
