"""minigrad's widgets in a real JupyterLab, driven by headless Chromium.

What a student does, end to end: open a notebook in JupyterLab, run all its
cells, see the graph drawing and the animation widget, press Next and Play
and watch the highlighted node move.  Only a browser can catch what the
browserless widget tests cannot: the JupyterLab widget manager missing, an
SVG that does not render, buttons whose clicks never reach the kernel.

The widget's DOM contract (minigrad.viz.animate): a visible
`button[title="Next"]` (one per step, only the next one shown), an ipywidgets
Play, the graph drawn once (`svg.minigrad-graph`), and the caption of the step
shown, `<div class="minigrad-caption" data-step="k" data-node=... data-name=...>`
(the node highlighted at that step).
Screenshots are saved to tests/browser/artifacts/ (ignored by git).
"""
import base64
import re
import time
import urllib.parse

import nbformat
import pytest

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000      # ms: the kernel starts, imports minigrad, runs three cells
STEP_TIMEOUT = 15_000     # ms: a click reaches the kernel and the new frame comes back
MAX_NEXT_CLICKS = 12      # Next may stay on one node for a few steps (started, finished ...)
CJK = re.compile(r"[\u4e00-\u9fff]")

SETUP = """\
import minigrad as torch
import minigrad.viz
minigrad.settings.lang = {lang!r}"""

FORWARD_AND_BACKWARD = """\
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = (x * w).exp().sum()
    y.backward()
minigrad.viz.graph(y, names={"x": x, "w": w, "y": y})"""

ANIMATION = "minigrad.viz.animate(trace)"

FRAME = ".jp-OutputArea-output .minigrad-player .minigrad-caption"
WIDGET = ".jp-OutputArea-output:has(.minigrad-player)"
NEXT = '.minigrad-player button[title="Next"]:visible'
ERROR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
RAISED = re.compile(r"^\w*(Error|Exception)\b", re.MULTILINE)    # "SyntaxError: ..." (no traceback)


def write_notebook(root, name, lang):
    """The lesson under test: setup, a recorded backward with its graph, the animation."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source)
                      for source in (SETUP.format(lang=lang), FORWARD_AND_BACKWARD, ANIMATION)]
    nbformat.write(notebook, root / name)
    return name


def open_and_run(page, lab, notebook, workspace, expect=FRAME, cells=3):
    """Open `notebook` in its own JupyterLab workspace, run all cells, wait for the widget
    (`expect`, a selector) and for its `cells` code cells to have run."""
    kernel = lab.start_kernel_for(notebook)
    page.goto(lab.url(f"lab/workspaces/{workspace}/tree/{notebook}"))
    try:
        page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]',
                               timeout=RUN_TIMEOUT)
    except Exception as error:
        pytest.fail(f"the notebook's kernel never became idle: {error}\n"
                    f"JupyterLab log:\n{lab.log_tail()}")
    run_all_cells(page)
    # one session of the notebook, the page's (on a busy machine JupyterLab may replace a
    # kernel it found slow to answer; the cells below then run in the new one)
    sessions = [s["kernel"]["id"] for s in lab.api("sessions") if s["path"] == notebook]
    assert len(sessions) == 1, f"the notebook has sessions {sessions} (its first kernel: {kernel})"
    try:        # the widget, or a traceback: whichever comes first
        page.wait_for_selector(f"{expect}, {ERROR_OUTPUT}", timeout=RUN_TIMEOUT)
    except Exception as error:
        pytest.fail(f"no player caption appeared after running all cells: {error}\n"
                    f"cell outputs:\n{output_texts(page)}\nJupyterLab log:\n{lab.log_tail()}")
    assert_no_traceback(page)
    wait_until_all_cells_ran(page, count=cells)


def run_all_cells(page, attempts=3):
    """Run > Run All Cells, as a student would; again if no cell started.

    Just after the page loads, the menu item can still be disabled (the notebook
    is not yet JupyterLab's current widget), so a click may do nothing.
    """
    for attempt in range(1, attempts + 1):
        answer_dialog(page)
        page.click(".jp-NotebookPanel .jp-Notebook")
        page.click('.lm-MenuBar-itemLabel:text-is("Run")')
        item = page.locator('.lm-Menu-item:has(.lm-Menu-itemLabel:text-is("Run All Cells"))')
        item.wait_for()
        state = item.get_attribute("class")
        item.click()
        try:
            page.wait_for_function(
                r"""() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
                         .some(p => /\[(\*|\d+)\]/.test(p.textContent))""", timeout=5_000)
            return
        except Exception:
            prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
            print(f"Run All Cells, attempt {attempt}: no cell started (menu item {state!r}, "
                  f"prompts {prompts})")
            page.keyboard.press("Escape")
    pytest.fail(f"Run > Run All Cells started no cell in {attempts} attempts")


def answer_dialog(page):
    """If JupyterLab shows a dialog (on a busy machine, e.g. "Select Kernel" when the page
    lost its kernel for a moment), print what it says and take its default answer, as a
    student would; it would block every click below."""
    dialog = page.locator(".jp-Dialog")
    if dialog.count() and dialog.first.is_visible():
        print(f"JupyterLab asked: {dialog.first.inner_text()!r}; answered with its default")
        dialog.first.locator(".jp-Dialog-button.jp-mod-accept").first.click()
        dialog.first.wait_for(state="detached")


# all `count` code cells have run: each prompt shows its execution count ("[3]:"), none is
# queued or running ("[*]:")
EVERY_CELL_RAN = r"""count => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
    return prompts.length === count && prompts.every(p => /\[\d+\]/.test(p.textContent));
}"""


def wait_until_all_cells_ran(page, count):
    """Every one of the `count` code cells has run (EVERY_CELL_RAN)."""
    page.wait_for_function(EVERY_CELL_RAN, arg=count, timeout=RUN_TIMEOUT)


def output_texts(page):
    """The text of every cell output, for failure messages."""
    return "\n---\n".join(page.locator(".jp-OutputArea-output").all_inner_texts())


def assert_no_traceback(page):
    """No cell output is an error (JupyterLab shows tracebacks as stderr outputs).  A
    warning is not one, even anomaly mode's, which names an error and shows a traceback of
    the forward call ("Error detected in LogBackward0. Traceback of forward call ...")."""
    errors = [text for text in page.locator(ERROR_OUTPUT).all_inner_texts()
              if "Traceback (most recent call last)" in text or RAISED.search(text)]
    assert not errors, "a cell raised:\n" + "\n---\n".join(errors)


def static_graph_svg(page):
    """The SVG of minigrad.viz.graph's output (JupyterLab shows image/svg+xml in an <img>)."""
    image = page.locator(".jp-RenderedSVG img").first
    image.wait_for(timeout=STEP_TIMEOUT)
    source = image.get_attribute("src")
    header, _, data = source.partition(",")
    assert header.startswith("data:image/svg+xml"), header
    if header.endswith(";base64"):
        return base64.b64decode(data).decode("utf-8")
    return urllib.parse.unquote(data)


def frame_state(page):
    """(data-step, highlighted node id, its name) of the frame on screen."""
    return page.evaluate(
        """selector => {
            const frame = document.querySelector(selector);
            if (!frame) return null;
            return [frame.getAttribute('data-step'), frame.getAttribute('data-node'),
                    frame.getAttribute('data-name')];
        }""", FRAME)


def wait_for_frame_change(page, before, what):
    """Wait until the frame's step differs from `before`'s; fail with both states if not."""
    try:
        page.wait_for_function(
            """([selector, step]) => {
                const frame = document.querySelector(selector);
                return frame && frame.getAttribute('data-step') !== step;
            }""", arg=[FRAME, before[0]], timeout=STEP_TIMEOUT)
    except Exception:
        pytest.fail(f"{what}: the frame stayed at step {before[0]} "
                    f"(highlighted {before[2]!r}) for {STEP_TIMEOUT / 1000:.0f} s")
    return frame_state(page)


def assert_numbering_and_one_caption(page, where):
    """The slider's readout is the caption's "step k" (both from 1); the caption is
    shown once."""
    step = int(frame_state(page)[0])
    readout = page.locator(f"{WIDGET} .widget-readout").first.text_content().strip()
    assert readout == str(step + 1), f"slider shows {readout}, frame is step {step + 1}"
    widget_text = page.locator(WIDGET).text_content()
    assert widget_text.count(where.format(k=step + 1)) == 1, widget_text


def assert_play_button_named_and_visible(page, tooltip):
    """ipywidgets 8 shows no description beside Play: it has a tooltip and a visible icon."""
    play = page.evaluate(
        """selector => {
            const play = document.querySelector(selector);
            const button = play.querySelector('button');
            const icon = button.querySelector('i');
            const box = (icon || button).getBoundingClientRect();
            const glyph = icon ? getComputedStyle(icon, '::before').content : 'none';
            return [play.getAttribute('title') || button.getAttribute('title'),
                    box.width, box.height, glyph];
        }""", f"{WIDGET} .widget-play")
    assert play[0] == tooltip, f"the Play button's tooltip is {play[0]!r}"
    assert play[1] > 4 and play[2] > 4 and play[3] not in ("none", "", "normal"), (
        f"the Play button's icon is not visible: {play}")


def screenshot(page, folder, name):
    """Save the widget and the whole page; print where."""
    path = folder / name
    page.locator(WIDGET).screenshot(path=str(path))
    page.screenshot(path=str(path.with_name(path.stem + "-page.png")))
    print(f"screenshot: {path}")
    return path


def test_widget_steps_with_next_and_play(page, jupyter_lab, artifacts):
    notebook = write_notebook(jupyter_lab.root, "animate_en.ipynb", lang="en")
    open_and_run(page, jupyter_lab, notebook, workspace="next-and-play")
    assert_no_traceback(page)

    drawing = static_graph_svg(page)
    assert "<svg" in drawing and "ExpBackward0" in drawing and "MulBackward0" in drawing

    widget = page.locator(WIDGET)
    assert not CJK.search(widget.text_content()), "the English widget shows Chinese text"
    first = frame_state(page)
    assert first[0] is not None, "the frame has no data-step"
    assert_numbering_and_one_caption(page, "step {k} of")
    assert_play_button_named_and_visible(page, "Play")
    screenshot(page, artifacts, "en-0-first-frame.png")

    # Next: one click moves one step; a few clicks move the highlight to another node.
    state, clicks = first, 0
    while clicks < MAX_NEXT_CLICKS:
        page.click(NEXT)
        clicks += 1
        new_state = wait_for_frame_change(page, state, f"Next click {clicks}")
        assert int(new_state[0]) == int(state[0]) + 1, (state, new_state)
        state = new_state
        if state[1] is not None and state[1] != first[1]:
            break
    assert state[1] is not None and state[1] != first[1], (
        f"{clicks} Next clicks never highlighted another node than {first[2]!r}")
    assert_numbering_and_one_caption(page, "step {k} of")
    screenshot(page, artifacts, "en-1-after-next.png")

    # Play: the animation advances on its own, the highlight moves on.
    before_play = state
    page.locator(".widget-play button").first.click()
    moved = wait_for_frame_change(page, before_play, "Play")
    deadline = time.monotonic() + STEP_TIMEOUT / 1000
    while moved[1] == before_play[1] and time.monotonic() < deadline:
        time.sleep(0.2)
        moved = frame_state(page)
    assert moved[1] != before_play[1], (
        f"Play never highlighted another node than {before_play[2]!r}")
    screenshot(page, artifacts, "en-2-playing.png")
    assert_no_traceback(page)


def test_widget_speaks_chinese(page, jupyter_lab, artifacts):
    notebook = write_notebook(jupyter_lab.root, "animate_zh.ipynb", lang="zh")
    open_and_run(page, jupyter_lab, notebook, workspace="chinese")
    assert_no_traceback(page)

    widget = page.locator(WIDGET)
    assert CJK.search(widget.text_content()), (
        "with minigrad.settings.lang = 'zh' the widget shows no Chinese text:\n"
        + widget.text_content())
    next_button = page.locator(NEXT)
    assert next_button.count() == 1, "the Chinese widget shows no button with tooltip 'Next'"
    before = frame_state(page)
    next_button.click()
    after = wait_for_frame_change(page, before, "Next (zh)")
    assert int(after[0]) == int(before[0]) + 1
    assert_numbering_and_one_caption(page, "第 {k} 步")
    assert_play_button_named_and_visible(page, "播放")
    screenshot(page, artifacts, "zh-after-next.png")
