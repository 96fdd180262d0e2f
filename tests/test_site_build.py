"""scripts/build-site.py without a browser: its arguments, its output folder, its links.

tests/browser/test_site.py builds pages and opens them in Chromium.
"""
import nbformat
import pytest

from minigrad.lessons import LESSONS

from browser.test_site import site_builder


def test_lessons_are_chosen_by_number_or_slug_and_a_wrong_one_is_named():
    chosen = site_builder.chosen_lessons("1, 03,05-inplace-and-versions")
    assert [lesson.number for lesson in chosen] == [1, 3, 5]
    assert site_builder.chosen_lessons(None) == list(LESSONS)
    with pytest.raises(SystemExit, match="the lessons are 01-tensors-and-the-graph"):
        site_builder.chosen_lessons("1,99")


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path):
    (tmp_path / "notes.txt").write_text("a teacher's file")
    with pytest.raises(SystemExit, match="neither empty nor a lesson website"):
        site_builder.build(tmp_path, LESSONS[:1], make_lite=False)
    assert (tmp_path / "notes.txt").read_text() == "a teacher's file"


def test_links_between_notebooks_become_links_between_pages():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "[next](02-backward-order.ipynb) · [index](../00-index.ipynb) · "
        "[worked](solutions/03-custom-functions.ipynb) · [elsewhere](https://example.org/a.ipynb)")])
    page = site_builder.lesson_page(LESSONS[0], "zh", list(LESSONS[:2]), "../lite")
    html = site_builder.render(notebook, "zh", page)
    for href in ("02-backward-order.html", "index.html", "03-custom-functions.html",
                 "https://example.org/a.ipynb"):
        assert f'href="{href}"' in html
    assert '<html lang="zh">' in html and 'href="../en/01-tensors-and-the-graph.html"' in html
    assert "cdn" not in html.lower()
