"""scripts/build-site.py without a browser: its arguments, its output folder, its links.

tests/browser/test_site.py builds pages and opens them in Chromium.
"""
import html as htmllib
import os
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from minigrad.lessons import LESSONS, lesson_path

from browser.test_site import ROOT, site_builder


def test_lessons_are_chosen_by_number_or_slug_and_a_wrong_one_is_named():
    chosen = site_builder.chosen_lessons("1, 03,06-inplace-and-versions")
    assert [lesson.number for lesson in chosen] == [1, 3, 6]
    assert site_builder.chosen_lessons(None) == list(LESSONS)
    with pytest.raises(SystemExit, match="the lessons are 01-tensors-and-the-graph"):
        site_builder.chosen_lessons(f"1,{max(lesson.number for lesson in LESSONS) + 1}")


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path):
    (tmp_path / "notes.txt").write_text("a teacher's file")
    with pytest.raises(SystemExit, match="neither empty nor a lesson website"):
        site_builder.build(tmp_path, LESSONS[:1], make_lite=False)
    assert (tmp_path / "notes.txt").read_text() == "a teacher's file"


def test_links_between_notebooks_become_links_between_pages():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "[next](03-backward-order.ipynb) · [index](../00-index.ipynb) · "
        "[worked](solutions/04-custom-functions.ipynb) · [elsewhere](https://example.org/a.ipynb)")])
    page = site_builder.lesson_page(LESSONS[0], "zh", list(LESSONS[:2]), "../lite")
    html = site_builder.render(notebook, "zh", page)
    for href in ("03-backward-order.html", "index.html", "04-custom-functions.html",
                 "https://example.org/a.ipynb"):
        assert f'href="{href}"' in html
    assert '<html lang="zh">' in html and 'href="../en/01-tensors-and-the-graph.html"' in html
    assert "cdn" not in html.lower()


def test_a_page_keeps_the_page_player_and_leaves_the_widget_out():
    """A page loads no widget manager: each player's widget output goes, the player as a page
    shows it stays (minigrad/viz/page_player.py); a page without formulas loads no MathJax."""
    page_player = nbformat.v4.new_output("display_data", data={"text/html": "<div>player</div>"},
                                         metadata={"minigrad": "page-player"})
    widget = nbformat.v4.new_output("display_data", data={
        "application/vnd.jupyter.widget-view+json": {"model_id": "x", "version_major": 2},
        "text/plain": "<Player: 3 frames, step 0>"})
    cell = nbformat.v4.new_code_cell("minigrad.viz.animate(trace)", outputs=[page_player, widget])
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("no formula"), cell],
                                        metadata={"widgets": {"state": {}}})
    site_builder.without_widgets(notebook)
    assert notebook.cells[1].outputs == [page_player] and "widgets" not in notebook.metadata
    page = site_builder.lesson_page(LESSONS[0], "en", list(LESSONS[:2]), "../lite")
    html = site_builder.render(notebook, "en", page)
    assert "mathjax" not in html.lower() and "require.js" not in html and "embed-amd" not in html
    assert '<link href="../static/lab.css" rel="stylesheet"/>' in html
    notebook.cells[0].source = "the gradient $\\partial L / \\partial x$"
    assert "mathjax/tex-chtml.js" in site_builder.render(notebook, "en", page)


# --- the site with the solutions hidden (--hide-solutions, MINIGRAD_HIDE_SOLUTIONS=1) --------

MINIGRADS_OWN = "\n".join(path.read_text(encoding="utf-8")
                         for path in (ROOT / "minigrad").rglob("*.py"))


def answer_lines(lesson, lang):
    """The lines of code only the worked lesson holds: its answers (each long enough to be
    one, and found neither in the students' notebook nor in minigrad's own code, which
    "Read the code" shows: the engine walks a graph as lesson 03's answer does)."""
    student = nbformat.read(lesson_path(lesson, lang), as_version=4)
    worked = {cell.id: cell.source for cell in
              nbformat.read(lesson_path(lesson, lang, solutions=True), as_version=4).cells}
    given = "\n".join(cell.source for cell in student.cells) + MINIGRADS_OWN
    return {line.strip() for cell in student.cells
            if cell.metadata.get("nbgrader", {}).get("solution")
            for line in worked[cell.id].splitlines()
            if len(line.strip()) >= 12 and line.strip() not in given}


def page_text(html):
    """What a page shows, as text: tags out (highlighted code is split into spans)."""
    return htmllib.unescape(re.sub(r"<[^>]+>", "", html))


GRADED = [lesson for lesson in LESSONS if lesson.exercises]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", GRADED, ids=lambda lesson: lesson.slug)
def test_a_page_with_the_solutions_hidden_shows_no_answer(lesson, lang):
    """Every lesson's page, made from its worked notebook as run (the outputs it stores)."""
    worked = nbformat.read(lesson_path(lesson, lang, solutions=True), as_version=4)
    student = nbformat.read(lesson_path(lesson, lang), as_version=4)
    notebook = site_builder.without_solutions(worked, student)
    assert [cell.source for cell in notebook.cells] == [cell.source for cell in student.cells]
    page = site_builder.lesson_page(lesson, lang, GRADED, "../lite", hide_solutions=True)
    text = page_text(site_builder.render(notebook, lang, page))
    lines = answer_lines(lesson, lang)
    assert lines and "raise NotImplementedError()" in text
    assert not [line for line in lines if line in text]
    assert page_text(site_builder.render(worked, lang, page)).count("NotImplementedError") < \
        text.count("NotImplementedError")
    assert site_builder.WORDS[lang]["unsolved"] in text


def test_the_site_built_with_the_solutions_hidden_holds_no_answer_anywhere(tmp_path):
    """The one command, as a teacher runs it: every file of the site, read as text."""
    if shutil.which("npm") is None:
        pytest.skip("no npm: the site's widget manager comes from the npm registry")
    output = tmp_path / "site"
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("MINIGRAD_WORKSPACE", "NBGRADER_EXECUTION")}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build-site.py"),
                           "--lessons", "4,6", "--skip-lite", "--hide-solutions", str(output)],
                          env=environment, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = set().union(*(answer_lines(lesson, lang) for lesson in (LESSONS[3], LESSONS[5])
                          for lang in ("en", "zh")))
    pages = [path for path in output.rglob("*") if path.is_file() and path.suffix in
             (".html", ".ipynb", ".json", ".js")]
    assert len([path for path in pages if path.suffix == ".html"]) == 7
    for path in pages:
        text = page_text(path.read_text(encoding="utf-8", errors="replace"))
        assert not [line for line in lines if line in text], path
