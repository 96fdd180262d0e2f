#!/usr/bin/env python3
"""Build the lesson website: every lesson in both languages, with players that play.

    scripts/build-site.sh                          # the whole site, in build/site
    scripts/build-site.sh --lessons 1,2 OUTPUT     # some lessons (what the tests build)
    python3 -m http.server -d build/site 8000      # then open http://localhost:8000

For each lesson and language, the worked notebook
(notebooks/<lang>/solutions/NN-slug.ipynb) runs in a fresh kernel (with
--hide-solutions, or MINIGRAD_HIDE_SOLUTIONS=1, the page is the students'
notebook with those outputs, its exercises unsolved, and lite/ holds no worked
notebook); each player leaves in its output the player as a page shows it
(minigrad/viz/page_player.py: its frames, captions and controls, played by a
few lines of JavaScript), which the page keeps, and its widget, which the page
leaves out: so a page loads no widget manager (3.6 MB) and plays with no
kernel.  nbconvert's lab template,
extended by the theme in scripts/site/ (a bar with the lesson list and the
language switch, the launch buttons, previous / next), turns it into
<lang>/NN-slug.html.  Then the index pages (index.html, en/index.html,
zh/index.html) and static/: the site's CSS, JupyterLab's (shared by every page,
so a browser loads it once) and, for the pages with formulas only, MathJax,
from the npm registry (`npm pack`, pinned in NPM_PACKAGES) into a cache
(build/site-cache), so that a page loads nothing from the internet.
tests/browser/test_site.py weighs each page (at most MAX_PAGE_BYTES with all it
loads), and runs axe-core on it.
Unless told otherwise, scripts/build-lite.sh puts the JupyterLite site into
lite/, where the JupyterLite buttons point.

Why nbconvert and not Jupyter Book: see docs/teaching.md ("The lesson website").
"""
import argparse
import functools
import html
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

import jinja2
import nbformat
from nbclient.exceptions import CellExecutionError

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))                 # this checkout's minigrad: LESSONS, the notebooks
from minigrad.lessons import LESSONS, YOUR_CODE_HERE, lesson_path  # noqa: E402

THEME = ROOT / "scripts" / "site"
TEMPLATE = "minigrad-site"                    # scripts/site/minigrad-site: the lesson pages
LANGS = ("en", "zh")
CACHE = ROOT / "build" / "site-cache"
NPM_PACKAGES = ("@jupyter-widgets/html-manager@1.0.15", "requirejs@2.3.7", "mathjax@3.2.2")
EXECUTE_TIMEOUT = 300                         # seconds per cell
MAX_PAGE_BYTES = 2_000_000                    # a page and everything it loads
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MATH = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[")     # $x$, $$x$$, \(x\), \[x\]

WORDS = {
    "en": {"name": "English", "lessons": "Lessons", "run": "Run this lesson:",
           "worked": "This page is the worked lesson, answers included; the buttons open the "
                     "exercise version for you to solve.",
           "course": "minigrad · PyTorch's autograd, small enough to read",
           "intro": "These lessons open up PyTorch's autograd with minigrad, a copy small "
                    "enough to read. Each page is a worked lesson whose animations play right "
                    "here; the buttons at the top of a lesson open it on Binder, Colab or "
                    "JupyterLite (Python in your browser) for you to do the exercises.",
           "exercises": "Exercises: ", "binder": "a JupyterLab on mybinder.org (free; starts in "
           "about a minute)", "colab": "Google Colab (a Google account)",
           "lite": "JupyterLite: Python in your browser, nothing to install",
           "unsolved": "The exercises on this page are left for you: the buttons open the lesson "
                       "for you to solve them.",
           "intro_unsolved": "Twelve lessons open up PyTorch's autograd with minigrad, a copy small "
                             "enough to read. Each page is a lesson whose animations play right "
                             "here, its exercises left for you; the buttons at the top of a lesson "
                             "open it on Binder, Colab or JupyterLite (Python in your browser) for "
                             "you to do them."},
    "zh": {"name": "中文", "lessons": "全部课程", "run": "运行这一讲：",
           "worked": "本页是附参考答案的讲解版；点按钮打开练习版，自己动手完成练习。",
           "course": "minigrad · 读得懂的 PyTorch autograd",
           "intro": "这门课用 minigrad（一个小到能读懂的 autograd 副本）带你拆开 "
                    "PyTorch 的 autograd。每一页都是附参考答案的讲解版，动画在页面上就能直接播放；"
                    "想自己做练习，就点课程页顶部的按钮，在 Binder、Colab 或 JupyterLite"
                    "（Python 直接在浏览器里运行）中打开。",
           "exercises": "练习：", "binder": "mybinder.org 上的 JupyterLab（免费，约一分钟启动）",
           "colab": "Google Colab（需要 Google 账号）",
           "lite": "JupyterLite：Python 在浏览器里运行，无需安装",
           "unsolved": "本页的练习留给你完成：点按钮打开这一讲，自己动手完成练习。",
           "intro_unsolved": "这门课共十二讲，用 minigrad（一个小到能读懂的 autograd 副本）带你拆开 "
                             "PyTorch 的 autograd。每一页都是一讲课程，动画在页面上就能直接播放，练习留给你完成；"
                             "点课程页顶部的按钮，就能在 Binder、Colab 或 JupyterLite"
                             "（Python 直接在浏览器里运行）中打开它，自己动手做练习。"},
}
NOTEBOOK_LINK = re.compile(r'href="(?:\.\./|solutions/)?(\d\d-[\w-]+)\.ipynb"')


def load_lesson_builder():
    """scripts/build-lessons.py: it makes the Binder and Colab links (the repository is named
    once, in pyproject.toml), for the notebooks' badges, the README and these pages alike."""
    spec = importlib.util.spec_from_file_location("build_lessons",
                                                  ROOT / "scripts" / "build-lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


links = load_lesson_builder()


# --- what a page links to ----------------------------------------------------------------

def launch_buttons(slug, lang, lite):
    """Binder, Colab and JupyterLite, each opening the students' version of the lesson."""
    path = links.notebook_path(slug, lang)
    words = WORDS[lang]
    return [
        {"name": "binder", "label": "Binder", "title": words["binder"],
         "href": links.binder_url(path, lang)},
        {"name": "colab", "label": "Colab", "title": words["colab"],
         "href": links.colab_url(path)},
        {"name": "lite", "label": "JupyterLite", "title": words["lite"],
         "href": f"{lite}/lab/index.html?path={lang}/{slug}.ipynb"},
    ]


def words(lang, hide_solutions=False):
    """The site's words in `lang`; with the solutions hidden, the pages say the exercises are
    left to solve instead of shown worked."""
    found = dict(WORDS[lang])
    if hide_solutions:
        found.update(worked=found["unsolved"], intro=found["intro_unsolved"])
    return found


def lesson_page(lesson, lang, lessons, lite, hide_solutions=False):
    """What the theme shows around one lesson (see scripts/site/minigrad-site/site.html.j2)."""
    other = next(code for code in LANGS if code != lang)
    place = lessons.index(lesson)
    neighbours = {"previous": lessons[place - 1] if place > 0 else None,
                  "next": lessons[place + 1] if place + 1 < len(lessons) else None}
    page = {"lang": lang, "static": "../static", "home": "../index.html", "course": "index.html",
            "words": words(lang, hide_solutions), "launch": launch_buttons(lesson.slug, lang, lite),
            "switch": {"href": f"../{other}/{lesson.slug}.html", "lang": other,
                       "label": WORDS[other]["name"]}}
    for side, neighbour in neighbours.items():
        page[side] = neighbour and {"href": f"{neighbour.slug}.html",
                                    "title": f"{neighbour.number:02d} · {neighbour.title(lang)}"}
    return page


def course(lang, lessons, prefix="", hide_solutions=False):
    """One language's list of lessons, for an index page (`prefix`: where its pages are)."""
    return {"lang": lang, "heading": WORDS[lang]["course"], "href": f"{prefix}index.html",
            "intro": words(lang, hide_solutions)["intro"], "exercises": WORDS[lang]["exercises"],
            "lessons": [{"number": lesson.number, "title": lesson.title(lang),
                         "href": f"{prefix}{lesson.slug}.html",
                         "learn": lesson.learn(lang),
                         "exercises": lesson.exercises} for lesson in lessons]}


# --- the pieces ----------------------------------------------------------------------------

def npm_assets(cache=CACHE, log=print):
    """A folder with require.js and @jupyter-widgets/html-manager/dist/ (a page of a notebook
    with its widget state: tests/browser/test_player_pages.py), and mathjax/ (tex-chtml.js
    and its fonts, lighter than tex-svg.js), from `npm pack` of NPM_PACKAGES (kept in
    `cache`: the registry is asked once)."""
    static = cache / "static"
    wanted = [static / "require.js", static / "mathjax" / "tex-chtml.js",
              static / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2",
              static / "@jupyter-widgets" / "html-manager" / "dist" / "embed-amd.js"]
    if all(path.exists() for path in wanted):
        return static
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("error: no npm: MathJax (and the widget manager the tests use) come "
                         "from the npm registry (apt-get install npm)")
    log(f"npm pack {' '.join(NPM_PACKAGES)}")
    download = pathlib.Path(tempfile.mkdtemp(dir=cache.parent if cache.parent.exists() else None))
    try:
        subprocess.run([npm, "pack", "--silent", *NPM_PACKAGES], cwd=download, check=True,
                       capture_output=True, timeout=600)
        for archive in download.glob("*.tgz"):
            with tarfile.open(archive) as packed:
                packed.extractall(download / archive.stem, filter="data")
        package = {name: next(download.glob(f"{name}*/package"))
                   for name in ("jupyter-widgets-html-manager", "requirejs", "mathjax")}
        shutil.rmtree(static, ignore_errors=True)
        manager = static / "@jupyter-widgets" / "html-manager" / "dist"
        manager.mkdir(parents=True)
        for item in (package["jupyter-widgets-html-manager"] / "dist").iterdir():
            if item.name == "embed-amd.js" or re.fullmatch(r"[0-9a-f]{20}\.\w+", item.name):
                shutil.copy(item, manager)     # the page's script and the fonts it loads
            if item.suffix == ".woff2":        # ...which it also asks for one folder up
                shutil.copy(item, manager.parent.parent)
        shutil.copy(package["requirejs"] / "require.js", static)
        (static / "mathjax").mkdir()
        shutil.copy(package["mathjax"] / "es5" / "tex-chtml.js", static / "mathjax")
        fonts = pathlib.PurePath("output", "chtml", "fonts", "woff-v2")
        shutil.copytree(package["mathjax"] / "es5" / fonts, static / "mathjax" / fonts)
    finally:
        shutil.rmtree(download, ignore_errors=True)
    return static


def execute(notebook, store_widget_state=False):
    """Run a notebook in a fresh kernel (in an empty folder); what it shows is sanitized as the
    stored lessons are (no path of the machine that built the site)."""
    from nbclient import NotebookClient
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    with tempfile.TemporaryDirectory() as folder:
        NotebookClient(notebook, timeout=EXECUTE_TIMEOUT, kernel_name="python3",
                       store_widget_state=store_widget_state, record_timing=False,
                       resources={"metadata": {"path": folder}}).execute(
            stderr=subprocess.DEVNULL)      # the kernel's log: a cell's error is in its output
    return links.sanitize_outputs(notebook)


def without_widgets(notebook):
    """The notebook as a page shows it: each player's widget left out, its page player kept
    (see the docstring at the top); so no widget manager, no require.js."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = [output for output in cell.outputs
                            if WIDGET_MIME not in output.get("data", {})]
    notebook.metadata.pop("widgets", None)
    return notebook


def render_lesson(lesson, lang, page, hide_solutions=False):
    """The HTML of one lesson, and its notebook as run: the worked notebook in the theme (with
    the solutions hidden: the students' notebook, with what the worked one printed)."""
    notebook = execute(nbformat.read(lesson_path(lesson, lang, solutions=True), as_version=4))
    if hide_solutions:
        notebook = without_solutions(notebook, nbformat.read(lesson_path(lesson, lang),
                                                             as_version=4))
    notebook.cells = [cell for cell in notebook.cells if cell.get("id") != "open-in-colab"]
    notebook.metadata["title"] = f"{lesson.number:02d} · {lesson.title(lang)} · minigrad"
    return render(without_widgets(notebook), lang, page), notebook


def is_answer_cell(cell):
    """A cell the student writes (its stub), or one that checks what they wrote."""
    return (cell.metadata.get("nbgrader", {}).get("solution", False)
            or any(stub in cell.source for stub in YOUR_CODE_HERE.values())
            or "check(" in cell.source)


def lines_of_answers(worked, student):
    """The lines only the worked answers hold (long enough to be one, and found neither in
    the students' notebook nor in minigrad's own code, which players and "Read the code"
    show as well)."""
    answers = {cell.id for cell in student.cells if is_answer_cell(cell)}
    given = "\n".join(cell.source for cell in student.cells) + minigrads_own_code()
    return {line.strip() for cell in worked.cells if cell.id in answers
            for line in cell.source.splitlines()
            if len(line.strip()) >= 12 and line.strip() not in given}


@functools.cache
def minigrads_own_code():
    return "\n".join(path.read_text(encoding="utf-8")
                     for path in sorted((ROOT / "minigrad").rglob("*.py")))


def shown_text(outputs):
    """What outputs show, as text (tags out, entities read): a player's source view too."""
    shown = []
    for output in outputs:
        data = output.get("data", {})
        for value in [output.get("text", "")] + [data.get(kind, "") for kind in
                                                 ("text/plain", "text/html", "image/svg+xml")]:
            value = "".join(value) if isinstance(value, list) else str(value)
            shown.append(html.unescape(re.sub(r"<[^>]+>", "", value)))
    return "\n".join(shown)


def without_solutions(worked, student):
    """The students' notebook (each answer still to write) with the outputs the run worked
    notebook gave its other cells (its players among them): no answer, nor a check's verdict
    on one, is on the page.  An output that shows a line of an answer (a player whose source
    view replays the student's function) is left out too."""
    outputs = {cell.id: cell.get("outputs", []) for cell in worked.cells}
    answer_lines = lines_of_answers(worked, student)
    page = nbformat.v4.new_notebook(metadata=dict(worked.metadata))
    for cell in student.cells:
        cell = nbformat.from_dict(dict(cell))
        answer = is_answer_cell(cell)
        cell.metadata.pop("nbgrader", None)
        if cell.cell_type == "code":
            shown = [] if answer else outputs.get(cell.id, [])
            text = shown_text(shown)
            cell.outputs = [] if any(line in text for line in answer_lines) else shown
        page.cells.append(cell)
    return page


def has_math(notebook):
    """Whether a prose cell holds a formula (only then does the page load MathJax)."""
    return any(MATH.search(cell.source) for cell in notebook.cells
               if cell.cell_type == "markdown")


def render(notebook, lang, page):
    """A run notebook as a page of the site (links to other lessons' notebooks go to their
    pages); `page` is what the theme shows around it (lesson_page)."""
    from nbconvert import HTMLExporter
    exporter = HTMLExporter(template_name=TEMPLATE, extra_template_basedirs=[str(THEME)],
                            language_code=lang, mathjax_url="")
    html, _ = exporter.from_notebook_node(notebook, resources={
        "site": {**page, "math": has_math(notebook)}})
    html = SCROLLED.sub(r'<pre\1 tabindex="0">', html)    # a block that may scroll: Tab reaches it
    return NOTEBOOK_LINK.sub(lambda match: 'href="{}.html"'.format(
        "index" if match[1] == "00-index" else match[1]), html)


SCROLLED = re.compile(r"<pre(?=[\s>])((?:(?!tabindex)[^>])*)>")


def lab_css(exporter_paths):
    """JupyterLab's CSS as nbconvert's lab template would inline it in every page (index.css
    and the light theme), for static/lab.css: one file every page shares."""
    for folder in map(pathlib.Path, exporter_paths):
        if (folder / "static" / "index.css").exists() and folder.name == "lab":
            return "\n".join((folder / "static" / name).read_text(encoding="utf-8")
                             for name in ("index.css", "theme-light.css"))
    raise SystemExit("error: nbconvert's lab template has no static/index.css")


def render_index(page):
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(THEME / TEMPLATE),
                                     autoescape=True)
    return environment.get_template("course.html.j2").render(page=page)


# --- the whole site ------------------------------------------------------------------------

def build(output, lessons, lite_url="../lite", make_lite=True, hide_solutions=False, log=print):
    """Write the site of `lessons` into `output` (replacing it).  `lite_url`: the JupyterLite
    site, as a lesson page links to it; `make_lite`: scripts/build-lite.sh builds it into
    output/lite (where the default `lite_url` points); `hide_solutions`: no worked notebook,
    no answer on any page, none in lite/."""
    output = pathlib.Path(output).resolve()
    if output.exists() and any(output.iterdir()) and not (output / "static" / "site.css").exists():
        raise SystemExit(f"error: {output} is neither empty nor a lesson website: choose another "
                         f"folder")
    static = npm_assets(log=log)
    work = pathlib.Path(tempfile.mkdtemp(prefix="site-", dir=output.parent
                                         if output.parent.exists() else None))
    try:
        shutil.copytree(static / "mathjax", work / "static" / "mathjax")
        shutil.copy(THEME / "site.css", work / "static")
        from nbconvert import HTMLExporter
        (work / "static" / "lab.css").write_text(
            lab_css(HTMLExporter(template_name="lab").template_paths), encoding="utf-8")
        count, done = len(lessons) * len(LANGS), 0
        for lang in LANGS:
            (work / lang).mkdir()
            for lesson in lessons:
                started = time.monotonic()
                page = lesson_page(lesson, lang, lessons, lite_url, hide_solutions)
                try:
                    html, notebook = render_lesson(lesson, lang, page, hide_solutions)
                except CellExecutionError as error:       # the cell and its traceback, plain
                    plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error))
                    raise SystemExit(f"error: {lesson_path(lesson, lang, solutions=True)} "
                                     f"failed:\n{plain[-3000:]}") from None
                (work / lang / f"{lesson.slug}.html").write_text(html, encoding="utf-8")
                done += 1
                log(f"[{done}/{count}] {lang}/{lesson.slug}.html  ({time.monotonic() - started:.1f} s, "
                    f"{len(html.encode('utf-8')) / 1e6:.2f} MB)")
            other = next(code for code in LANGS if code != lang)
            (work / lang / "index.html").write_text(render_index({
                "lang": lang, "static": "../static", "home": "../index.html",
                "course": "index.html", "words": words(lang, hide_solutions),
                "title": WORDS[lang]["course"],
                "switch": {"href": f"../{other}/index.html", "lang": other,
                           "label": WORDS[other]["name"]},
                "courses": [course(lang, lessons, hide_solutions=hide_solutions)]}),
                encoding="utf-8")
        (work / "index.html").write_text(render_index({
            "lang": "en", "static": "static", "home": "index.html", "course": None,
            "words": words("en", hide_solutions), "title": "minigrad",
            "courses": [course(lang, lessons, f"{lang}/", hide_solutions) for lang in LANGS]}),
            encoding="utf-8")
        shutil.rmtree(output, ignore_errors=True)
        output.parent.mkdir(parents=True, exist_ok=True)
        work.chmod(0o755)                 # mkdtemp made it private: a web server must read it
        os.replace(work, output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if make_lite:
        log("JupyterLite, into lite/: scripts/build-lite.sh")
        subprocess.run(["bash", str(ROOT / "scripts" / "build-lite.sh"), str(output / "lite"),
                        *(["--hide-solutions"] if hide_solutions else [])], check=True)
    readable_by_all(output)
    log(f"The lesson website is in {output}: python3 -m http.server -d {output} 8000")
    return output


def readable_by_all(folder):
    """Every file of `folder` readable, every folder listable, by every user: a web server runs
    as a user of its own (the build's temporary folder is made private, mode 700)."""
    for path in [folder, *pathlib.Path(folder).rglob("*")]:
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(mode | (0o555 if path.is_dir() else 0o444))


def chosen_lessons(text):
    """The lessons named by "1,3" or "01-tensors-and-the-graph,3"; all for None."""
    if not text:
        return list(LESSONS)
    wanted = [item.strip() for item in text.split(",") if item.strip()]
    chosen = [lesson for lesson in LESSONS
              if str(lesson.number) in [w.lstrip("0") for w in wanted] or lesson.slug in wanted]
    if len(chosen) != len(wanted):
        raise SystemExit(f"error: --lessons {text}: the lessons are "
                         + ", ".join(lesson.slug for lesson in LESSONS))
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", nargs="?", default=ROOT / "build" / "site", type=pathlib.Path,
                        help="the site's folder (default: build/site)")
    parser.add_argument("--lessons", help="only these lessons, e.g. 1,2 (default: all)")
    lite = parser.add_mutually_exclusive_group()
    lite.add_argument("--lite-url", help="the address of a JupyterLite site of the lessons "
                      "hosted elsewhere (default: lite/ in this site, built by build-lite.sh)")
    lite.add_argument("--skip-lite", action="store_true",
                      help="do not build lite/ (the buttons still point at it)")
    parser.add_argument("--hide-solutions", action="store_true",
                        default=os.environ.get("MINIGRAD_HIDE_SOLUTIONS") == "1",
                        help="no worked notebook and no answer on the site, nor in lite/ "
                             "(as MINIGRAD_HIDE_SOLUTIONS=1 does)")
    options = parser.parse_args(argv)
    for name in ("MINIGRAD_WORKSPACE", "NBGRADER_EXECUTION"):   # no progress file, no grading
        os.environ.pop(name, None)
    build(options.output, chosen_lessons(options.lessons),
          lite_url=options.lite_url.rstrip("/") if options.lite_url else "../lite",
          make_lite=not (options.lite_url or options.skip_lite),
          hide_solutions=options.hide_solutions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
