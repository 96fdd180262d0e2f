"""The player where students and readers meet it, in headless Chromium.

1. With no kernel: a notebook executed with its widget state saved, turned
   into HTML by nbconvert, opened from a file.  The widget manager of that
   page (@jupyter-widgets/html-manager) comes from the npm registry through
   `npm pack`, as the lesson website's does (scripts/build-site.py, cached in
   build/site-cache), never from a CDN; the page must step on Next, show the
   engine's source with the line of the step, and play, in both languages.
2. On a laptop: each worked lesson with a player, run in JupyterLab at
   1280 × 800 with the file browser open.  Every player's output must be at
   most MAX_HEIGHT px tall and draw nothing past the window's right edge
   (what a clipping window hides does not count).
"""
import json
import shutil

import nbclient
import nbformat
import pytest

from minigrad.lessons import LESSONS, lesson_path

from .test_jupyterlab_widgets import open_and_run
from .test_site import site_builder

pytestmark = pytest.mark.browser

MAX_HEIGHT = 760             # px: a 1280 × 800 window minus the browser's own bars
WINDOW = {"width": 1280, "height": 800}
CAPTION = ".minigrad-player .minigrad-caption"     # the widget's (not the page player's)
NEXT = '.minigrad-player button[title="Next"]:visible'


@pytest.fixture(scope="session")
def html_manager():
    """A folder holding require.js and the html-manager's dist/ (and MathJax), as a page next
    to it finds them (its fonts load relative to the page): the lesson website's static/."""
    if shutil.which("npm") is None:
        pytest.skip("no npm: the page's widget manager comes from the npm registry "
                    "(apt-get install npm)")
    return site_builder.npm_assets()


def static_page(folder, html_manager, lang):
    """A notebook with a player, executed with its widget state, as an HTML file."""
    from nbconvert import HTMLExporter
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in (
        f"import minigrad as torch\nimport minigrad.viz\nminigrad.settings.lang = {lang!r}",
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "w = torch.tensor([3.0, -1.0], requires_grad=True)\n"
        "with minigrad.viz.record() as trace:\n"
        "    y = (x * w).exp().sum()\n"
        "    y.backward()",
        "minigrad.viz.animate(trace, names={'x': x, 'w': w, 'y': y})")]
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.store_widget_state = True
    client.execute()
    assert "application/vnd.jupyter.widget-state+json" in notebook.metadata["widgets"]
    for item in html_manager.iterdir():
        if not (folder / item.name).exists():
            (folder / item.name).symlink_to(item)
    exporter = HTMLExporter(template_name="lab", mathjax_url="", require_js_url="require.js",
                            widget_renderer_url="@jupyter-widgets/html-manager/dist/"
                                                "embed-amd.js")
    body, _ = exporter.from_notebook_node(notebook)
    assert "cdn.jsdelivr" not in body.split("embed-amd.js")[0].rsplit("<script", 1)[-1]
    path = folder / f"player-{lang}.html"
    path.write_text(body, encoding="utf-8")
    return path


SOURCE_LABEL = {"en": "Source", "zh": "源码"}


def shown_source_line(page):
    """The line number the source view highlights now (None: none shown)."""
    return page.evaluate("""() => {
        const shown = [...document.querySelectorAll('.minigrad-player .minigrad-source .mg-line')]
            .filter(line => getComputedStyle(line.parentElement).opacity === '1');
        return shown.length === 1 ? +shown[0].getAttribute('data-line') : null;
    }""")


def caption_state(page):
    return page.evaluate("""selector => {
        const caption = document.querySelector(selector);
        return caption && [caption.getAttribute('data-step'), caption.textContent];
    }""", CAPTION)


@pytest.mark.parametrize("lang, words", [("en", "step {k} of"), ("zh", "第 {k} 步")])
def test_a_saved_page_plays_without_a_kernel(browser, html_manager, tmp_path, artifacts, lang,
                                             words):
    path = static_page(tmp_path, html_manager, lang)
    context = browser.new_context(viewport=WINDOW)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_selector(CAPTION, timeout=30_000)
    first = caption_state(page)
    assert first[0] == "0" and words.format(k=1) in first[1]
    page.locator(NEXT).click()
    page.wait_for_function("""([selector, step]) => {
        const caption = document.querySelector(selector);
        return caption && caption.getAttribute('data-step') !== step;
    }""", arg=[CAPTION, first[0]], timeout=10_000)
    second = caption_state(page)
    assert second[0] == "1" and words.format(k=2) in second[1] and second[1] != first[1]
    shown = page.evaluate("""() => [...document.querySelectorAll(
        '.minigrad-player .minigrad-graph g[class^=mg-t]')]
        .filter(g => getComputedStyle(g).opacity === '1').length""")
    assert shown > 0, "no piece of the graph is shown at step 2"
    assert not page.locator(".minigrad-page-player").is_visible(), (
        "the page player shows next to the widget the page's widget manager drew")
    # the engine's source beside the graph, in the browser alone: the line moves with the step
    page.locator(f'.mg-side-toggle button:text-is("{SOURCE_LABEL[lang]}")').click()
    page.locator(".minigrad-player .minigrad-source").wait_for(state="visible")
    lines = [shown_source_line(page)]
    for _ in range(4):
        if len(set(lines)) > 1:
            break
        page.locator(NEXT).click()
        page.wait_for_timeout(300)
        lines.append(shown_source_line(page))
    assert None not in lines and len(set(lines)) > 1, lines
    page.screenshot(path=str(artifacts / f"static-page-source-{lang}.png"), full_page=True)
    page.locator(".minigrad-player .widget-play button").first.click()    # Play, browser alone
    page.wait_for_function("""selector => +document.querySelector(selector)
        .getAttribute('data-step') >= 3""", arg=CAPTION, timeout=10_000)
    page.screenshot(path=str(artifacts / f"static-page-{lang}.png"), full_page=True)
    assert not [url for url in requests if url.startswith("http")], requests
    context.close()


def measure_players(page):
    """[(height, rightmost x)] of each player's output: every element's box, cut by the
    boxes of the elements around it that clip their content."""
    return page.evaluate("""() => [...document.querySelectorAll('.jp-OutputArea-output')]
        .filter(output => output.querySelector('.minigrad-player')).map(output => {
            const box = output.getBoundingClientRect();
            let right = box.right;
            for (const element of output.querySelectorAll('*')) {
                let r = element.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) continue;
                let [left, top, rightEdge, bottom] = [r.left, r.top, r.right, r.bottom];
                for (let a = element.parentElement; a && a !== output; a = a.parentElement) {
                    const style = getComputedStyle(a);
                    if (style.overflow !== 'visible' || style.overflowX !== 'visible') {
                        const c = a.getBoundingClientRect();
                        left = Math.max(left, c.left); rightEdge = Math.min(rightEdge, c.right);
                        top = Math.max(top, c.top); bottom = Math.min(bottom, c.bottom);
                    }
                }
                if (rightEdge > left && bottom > top) right = Math.max(right, rightEdge);
            }
            return [box.height, right];
        })""")


PLAYER_LESSONS = [lesson for lesson in LESSONS
                  if "viz.animate(" in lesson_path(lesson, "en", solutions=True).read_text(
                      encoding="utf-8")]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", PLAYER_LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_player_fits_a_laptop_window(browser, jupyter_lab, artifacts, lesson,
                                                  lang, request):
    name = f"{lesson.slug}-{lang}.ipynb"
    worked = nbformat.read(lesson_path(lesson, lang, solutions=True), as_version=4)
    for cell in worked.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(worked, jupyter_lab.root / name)
    context = browser.new_context(viewport=WINDOW)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        open_and_run(page, jupyter_lab, name, workspace=f"fit-{lesson.slug}-{lang}",
                     expect=CAPTION, cells=sum(c.cell_type == "code" for c in worked.cells))
        sidebar = page.locator("#jp-left-stack")
        if not sidebar.is_visible():
            page.click('.jp-SideBar.jp-mod-left [data-id="filebrowser"]')
        assert page.locator(".jp-FileBrowser").is_visible(), "the file browser is not open"
        page.wait_for_timeout(500)
        sizes = measure_players(page)
        print(f"{lesson.slug} ({lang}): players' [height, rightmost x] = "
              f"{json.dumps([[round(h), round(r)] for h, r in sizes])}")
        for _ in range(3):       # the notebook lays its cells out again as it scrolls
            page.locator(".minigrad-player").first.evaluate(
                "player => player.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(700)
        page.screenshot(path=str(artifacts / f"fit-{lesson.slug}-{lang}.png"))
        assert sizes, "no player on the page"
        for height, right in sizes:
            assert height <= MAX_HEIGHT, f"a player is {height:.0f} px tall"
            assert right <= WINDOW["width"], f"a player draws up to x = {right:.0f}"
    finally:
        context.close()
        jupyter_lab.shutdown_kernels()


LESSON_16 = next(lesson for lesson in PLAYER_LESSONS if lesson.slug.startswith("16-"))


def test_the_whole_graph_of_the_capstone_stays_legible_and_pans(browser, jupyter_lab,
                                                                  artifacts):
    """Lesson 16's graph is too big for the window: "whole graph" shows it no smaller than
    labels of MIN_LABEL px, and the window scrolls to every part of it."""
    from minigrad.viz.layout import FONT_SIZE
    from minigrad.viz.player import MIN_LABEL
    name = f"whole-{LESSON_16.slug}.ipynb"
    worked = nbformat.read(lesson_path(LESSON_16, "en", solutions=True), as_version=4)
    for cell in worked.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(worked, jupyter_lab.root / name)
    context = browser.new_context(viewport=WINDOW)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        open_and_run(page, jupyter_lab, name, workspace="whole-graph", expect=CAPTION,
                     cells=sum(c.cell_type == "code" for c in worked.cells))
        player = page.locator(".minigrad-player").first
        player.evaluate("player => player.scrollIntoView({block: 'start'})")
        player.get_by_role("radio", name="whole graph").or_(
            player.locator('button:text-is("whole graph")')).first.click()
        page.wait_for_timeout(500)
        view = page.evaluate("""() => {
            const view = document.querySelector('.minigrad-player .mg-view');
            const svg = view.querySelector('svg.minigrad-graph');
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            view.scrollLeft = view.scrollWidth; view.scrollTop = view.scrollHeight;
            const right = svg.getBoundingClientRect().right, inside = view.getBoundingClientRect();
            return {scale, wide: view.scrollWidth > view.clientWidth,
                    tall: view.scrollHeight > view.clientHeight,
                    reaches: Math.abs(right - (inside.left + view.clientWidth)) < 2};
        }""")
        smallest = view["scale"] * min(FONT_SIZE.values())
        print(f"whole graph of lesson 16: scale {view['scale']:.2f}, smallest label "
              f"{smallest:.1f} px, scrolls {view['wide']}/{view['tall']}")
        assert smallest >= MIN_LABEL - 0.05, view
        assert view["wide"] or view["tall"], "the graph is cut but the window does not scroll"
        assert view["reaches"], "scrolled to the end, the graph's right edge is not in view"
        player.screenshot(path=str(artifacts / "whole-graph-16-capstone-en.png"))
    finally:
        context.close()
        jupyter_lab.shutdown_kernels()
