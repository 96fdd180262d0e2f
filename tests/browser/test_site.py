"""The lesson website (scripts/build-site.sh), opened from files in headless Chromium.

The suite builds lessons 01, 03 and 10 (each has a player; 08 also has formulas) in
both languages, without JupyterLite's lite/ folder, as CI does;
`scripts/build-site.sh` with no arguments builds every lesson the same way.  No
kernel runs behind a page and no page asks the internet for anything: a player
must step on Next and play, the launch buttons must open the students' version
of the same lesson on Binder, Colab and the JupyterLite site, and the language
switch the other language's page of the lesson.  Every page, the index pages
too, in both languages: at most MAX_PAGE_BYTES with all it loads, no script
error, no critical or serious finding of axe-core (from the npm registry), and
at 390 × 844 (a phone) nothing past the right edge.  Screenshots of every page
at 1280 × 800 and 390 × 844: tests/browser/artifacts/site-*.png.
"""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import urllib.parse

import nbformat
import pytest

from minigrad.lessons import LESSONS, LESSONS_DIR, lesson_path

pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parents[2]
WINDOW = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
BUILT = [lesson for lesson in LESSONS if lesson.number in (1, 3, 10)]
CAPTION = ".minigrad-page-player .minigrad-caption"
NEXT = ".minigrad-page-player .mg-next"
PLAY = ".minigrad-page-player .mg-play"
STEP = {"en": "step {k} of", "zh": "第 {k} 步"}
AXE = "axe-core@4.14.1"


def load_site_builder():
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build-site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


site_builder = load_site_builder()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The site of lessons 01 and 03, built by the one command (the JupyterLite part apart)."""
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


def open_page(browser, path, window=WINDOW):
    """A fresh page of `window`'s size on `path` (a phone's: touch, and the page's viewport
    meta tag obeyed), and the list of every address it asks for."""
    phone = window == PHONE
    context = browser.new_context(viewport=window, is_mobile=phone, has_touch=phone)
    context.set_default_timeout(30_000)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    return page, requests


def site_pages(site):
    """Every page of the site: the three index pages and each lesson in each language."""
    return [site / "index.html"] + [site / lang / name for lang in ("en", "zh") for name in
                                    ["index.html"] + [f"{lesson.slug}.html" for lesson in BUILT]]


@pytest.fixture(scope="session")
def axe_script():
    """axe-core's axe.min.js, from the npm registry (`npm pack`, kept in build/site-cache)."""
    folder = site_builder.CACHE / "axe"
    script = folder / "package" / "axe.min.js"
    if not script.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "pack", "--silent", AXE], cwd=folder, check=True,
                       capture_output=True, timeout=600)
        with tarfile.open(next(folder.glob("axe-core-*.tgz"))) as packed:
            packed.extractall(folder, filter="data")
    return script


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
    page.locator(PLAY).first.click()                            # Play, in the browser alone
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
    html = site_builder.render(site_builder.without_widgets(site_builder.execute(notebook)),
                               "en", page_data)
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


def loaded_bytes(requests):
    """The bytes of every file a page asked for (the page itself included), by address."""
    sizes = {}
    for url in requests:
        path = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
        if url.startswith("file:") and path.is_file():
            sizes[url] = path.stat().st_size
    return sizes


def settle(page):
    """Wait until the page has loaded all it loads (MathJax typesets, then its fonts come)."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => !window.MathJax || (MathJax.startup && MathJax.startup.promise)")
    page.evaluate("async () => { if (window.MathJax) await MathJax.startup.promise;"
                  " await document.fonts.ready; }")


def check_with_axe(page, axe_script, name):
    """Run axe-core on the page: fail on a critical or serious finding; the findings, said."""
    page.add_script_tag(path=str(axe_script))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' +
                                                 n.failureSummary)}));
    }""")
    bad = [v for v in found if v["impact"] in ("critical", "serious")]
    if bad:
        pytest.fail(f"{name}: axe-core finds\n" + "\n".join(
            f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
            for v in bad))
    return ", ".join(f"{v['id']} ({v['impact']})" for v in found) or "no finding"


def test_every_page_is_light_runs_without_errors_and_passes_axe(browser, site, axe_script,
                                                                  artifacts):
    """At most MAX_PAGE_BYTES with all a page loads (the widget manager and MathJax were
    6 MB on every player page); no script error (the widget manager called MathJax 2's
    MathJax.Hub.Queue on MathJax 3); no critical or serious axe-core finding."""
    report = []
    for path in site_pages(site):
        page, requests = open_page(browser, path)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and errors.append(
            message.text))
        page.reload()
        settle(page)
        sizes = loaded_bytes(requests)
        name = path.relative_to(site).as_posix()
        total = sum(sizes.values())
        report.append(f"{name}: {total / 1e6:.2f} MB in {len(sizes)} files")
        assert total <= site_builder.MAX_PAGE_BYTES, (name, sorted(sizes.items(),
                                                                    key=lambda kv: -kv[1]))
        assert not errors, (name, errors)
        if page.locator(CAPTION).count():                    # a player: at rest, and playing
            page.locator(NEXT).first.click()
        report.append("   axe: " + check_with_axe(page, axe_script, name))
        page.screenshot(path=str(artifacts / f"site-{name.replace('/', '-')}-1280.png"))
        page.context.close()
    print("\n".join(report))


def test_every_page_fits_a_phone(browser, site, axe_script, artifacts):
    """At 390 × 844 nothing runs past the right edge (a part inside a box that scrolls
    sideways, as a long line of code, counts as inside), no text is cut, axe-core finds
    nothing critical or serious, and a player plays by tapping."""
    for path in site_pages(site):
        page, _ = open_page(browser, path, PHONE)
        settle(page)
        past = page.evaluate("""width => {
            const out = [];
            for (const element of document.body.querySelectorAll('*')) {
                const box = element.getBoundingClientRect();
                if (box.width === 0 || box.height === 0 || box.right <= width + 1) continue;
                let clipped = false;
                for (let a = element.parentElement; a && a !== document.body; a = a.parentElement) {
                    const style = getComputedStyle(a);
                    if (style.overflowX !== 'visible'
                            && a.getBoundingClientRect().right <= width + 1) {
                        clipped = true; break;
                    }
                }
                if (!clipped && getComputedStyle(element).visibility !== 'hidden')
                    out.push(element.tagName + '.' + element.className + ' to '
                             + Math.round(box.right));
            }
            return [document.documentElement.scrollWidth, out.slice(0, 8)];
        }""", PHONE["width"])
        name = path.relative_to(site).as_posix()
        page.screenshot(path=str(artifacts / f"site-{name.replace('/', '-')}-390.png"),
                        full_page=True)
        assert past[0] <= PHONE["width"] and not past[1], (name, past)
        print(f"{name} at 390 px, axe: {check_with_axe(page, axe_script, name)}")
        if page.locator(CAPTION).count():                        # tapping plays it
            page.locator(NEXT).first.tap()
            page.wait_for_function("selector => document.querySelector(selector)"
                                   ".getAttribute('data-step') === '1'", arg=CAPTION)
        page.context.close()
