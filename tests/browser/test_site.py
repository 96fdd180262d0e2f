"""The lesson website (scripts/build-site.sh), opened from files in headless Chromium.

The suite builds lessons 01 and 02 (each has a player) in both languages, without
JupyterLite's lite/ folder, as CI does; `scripts/build-site.sh` with no
arguments builds every lesson the same way.  No kernel runs behind a page and
no page asks the internet for anything: a player must step on Next and play,
the launch buttons must open the students' version of the same lesson on
Binder, Colab and the JupyterLite site, and the language switch the other
language's page of the lesson.
"""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import urllib.parse

import nbformat
import pytest

from minigrad.lessons import LESSONS, LESSONS_DIR, lesson_path

pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parents[2]
WINDOW = {"width": 1280, "height": 800}
BUILT = LESSONS[:2]
CAPTION = ".minigrad-caption"
NEXT = '.minigrad-player button[title="Next"]:visible'
STEP = {"en": "step {k} of", "zh": "第 {k} 步"}


def load_site_builder():
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build-site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


site_builder = load_site_builder()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The site of lessons 01 and 02, built by the one command (the JupyterLite part apart)."""
    if shutil.which("npm") is None:
        pytest.skip("no npm: the site's widget manager comes from the npm registry "
                    "(apt-get install npm)")
    output = tmp_path_factory.mktemp("site") / "site"
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("MINIGRAD_WORKSPACE", "NBGRADER_EXECUTION")}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build-site.py"),
                           "--lessons", ",".join(str(lesson.number) for lesson in BUILT),
                           "--skip-lite", str(output)], env=environment,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return output


def open_page(browser, path):
    """A fresh page at 1280 × 800 on `path`, and the list of every address it asks for."""
    context = browser.new_context(viewport=WINDOW)
    context.set_default_timeout(30_000)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    return page, requests


def step_of(page):
    return page.evaluate("""selector => {
        const caption = document.querySelector(selector);
        return caption && [caption.getAttribute('data-step'), caption.textContent];
    }""", CAPTION)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lesson_page_plays_with_no_kernel_and_launches_the_same_lesson(
        browser, site, artifacts, lang):
    lesson, other = BUILT[0], {"en": "zh", "zh": "en"}[lang]
    page, requests = open_page(browser, site / lang / f"{lesson.slug}.html")
    page.wait_for_selector(CAPTION)
    assert page.evaluate("document.documentElement.lang") == lang
    first = step_of(page)
    assert first[0] == "0" and STEP[lang].format(k=1) in first[1]
    page.locator(NEXT).first.click()
    page.wait_for_function("""([selector, step]) =>
        document.querySelector(selector).getAttribute('data-step') !== step""",
                           arg=[CAPTION, first[0]])
    second = step_of(page)
    assert second[0] == "1" and STEP[lang].format(k=2) in second[1], second
    page.locator(".widget-play button").first.click()          # Play, in the browser alone
    page.wait_for_function("selector => +document.querySelector(selector).getAttribute("
                           "'data-step') >= 2", arg=CAPTION)
    page.screenshot(path=str(artifacts / f"site-{lang}.png"))

    buttons = {link.get_attribute("data-launch"): link.get_attribute("href")
               for link in page.locator(".site-launch a").all()}
    student_notebook = f"notebooks/{lang}/{lesson.slug}.ipynb"
    assert (ROOT / student_notebook).is_file()
    binder = urllib.parse.urlparse(buttons["binder"])
    assert binder.netloc == "mybinder.org" and binder.path.endswith("/HEAD")
    opens = urllib.parse.urlparse(urllib.parse.parse_qs(binder.query)["urlpath"][0])
    assert urllib.parse.parse_qs(opens.query)["next"] == [f"lab/tree/{student_notebook}"]
    assert buttons["colab"].startswith("https://colab.research.google.com/github/")
    assert buttons["colab"].endswith(f"/blob/main/{student_notebook}")
    assert buttons["lite"] == f"../lite/lab/index.html?path={lang}/{lesson.slug}.ipynb"
    # build-lite.sh keeps the lessons where they are in notebooks/ (tests/test_lite.py)
    assert buttons["lite"].endswith(lesson_path(lesson, lang).relative_to(LESSONS_DIR).as_posix())

    assert page.locator(".site-next").get_attribute("href") == f"{BUILT[1].slug}.html"
    page.locator(".site-switch").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/{other}/{lesson.slug}.html")
    assert page.evaluate("document.documentElement.lang") == other
    page.wait_for_selector(CAPTION)
    assert not [url for url in requests if not url.startswith("file:")], requests
    page.context.close()


def test_the_index_lists_the_lessons_in_both_languages(browser, site):
    page, requests = open_page(browser, site / "index.html")
    links = page.evaluate("[...document.querySelectorAll('.site-lesson-list a')]"
                          ".map(a => [a.getAttribute('href'), a.textContent])")
    assert links == [[f"{lang}/{lesson.slug}.html", lesson.title(lang)]
                     for lang in ("en", "zh") for lesson in BUILT]
    for href, _ in links:
        assert (site / href).is_file()
    page.locator(".site-course[lang=zh] h2 a").click()
    page.wait_for_load_state()
    assert page.url.endswith("/zh/index.html")
    page.locator(".site-switch").click()
    page.wait_for_load_state()
    assert page.url.endswith("/en/index.html")
    assert not [url for url in requests if not url.startswith("file:")], requests
    page.context.close()


def test_a_thirty_layer_mlp_step_plays_from_a_page_of_a_few_megabytes(browser, site, artifacts):
    """benchmarks/animation_size.py's step (305 frames; 37 MB when each frame was drawn
    whole), recorded in a notebook and put on a page of the site."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in (
        f"import sys\nsys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
        "import animation_size\nimport minigrad.viz",
        "minigrad.viz.animate(animation_size.mlp_trace(layers=30))")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    page_data = site_builder.lesson_page(BUILT[0], "en", BUILT, "../lite")
    html = site_builder.render(site_builder.execute(notebook), "en", page_data)
    path = site / "en" / "mlp-30-layers.html"
    path.write_text(html, encoding="utf-8")
    size = path.stat().st_size
    print(f"30-layer MLP page: {size / 1e6:.2f} MB")
    assert size < 5e6
    page, requests = open_page(browser, path)
    page.wait_for_selector(CAPTION)
    assert "of 305" in step_of(page)[1]
    page.locator(NEXT).first.click()
    page.wait_for_function("selector => document.querySelector(selector)"
                           ".getAttribute('data-step') === '1'", arg=CAPTION)
    page.screenshot(path=str(artifacts / "site-mlp-30-layers.png"))
    assert not [url for url in requests if not url.startswith("file:")], requests
    page.context.close()
