"""Every lesson ends with "Read the code": the functions of minigrad that do what it taught,
shown from the live source (minigrad.lessons.show_source), then a question about them
(minigrad.lessons.ask: tests/test_reading.py checks the questions themselves).  What a lesson
shows stays on one screen and about the idea only: no speed notes.

The functions shown are read from the lessons themselves (the call of show_source in each
lesson's last code cell), so a lesson that shows a new function is checked with no list to
update here.
"""
import ast
import inspect
import pathlib
import re

import nbformat
import pytest

import minigrad
from minigrad.autograd import engine, saved_tensor, speed
from minigrad.lessons import LESSONS, lesson_path, show_source
from minigrad.lessons.source import SourcePiece
from minigrad.ops import linalg, unary

MAX_LINES = 60
HEADINGS = {"en": "## Read the code", "zh": "## 读源码"}

# A speed note: the code or its comments speak of what only makes minigrad faster, which the
# student need not read to understand the idea.  That is
#   - words of speed: speed, fast, slow, hot path, cache, shortcut, cheap, "avoid the cost",
#     µs, trick, and the garbage collector (the cost most tricks cut: speed.py's docstring);
#   - a reference to the speed module (speed.py, `speed.shared_sizes(...)`);
#   - a NOTE of a speed trick, as speed.py's index names them, and the test that picks the
#     backward on arrays (nothing_recorded, ops/_unrecorded.py).
# Other NOTEs ([devices], [graph tasks], [saved tensors and version counters] ...) explain
# PyTorch's rules and are fine.
SPEED_TRICK_NOTES = ("saved numbers", "backward on arrays", "edges", "fast forward mode",
                     "shared small tuples", "version counters on demand",
                     "a leaf keeps a fresh gradient")
SPEED_NOTE = re.compile(
    r"\bspeed\b|\bfast(er|est)?\b|\bslow(er)?\b|\bhot path\b|\bcache[sd]?\b|\bshortcuts?\b"
    r"|\bcheap(er)?\b|avoid(s|ing)? the cost|µs|\btricks?\b|garbage collector"
    r"|\bnothing_recorded\b|_unrecorded\.py"
    r"|NOTE \[(" + "|".join(re.escape(name) for name in SPEED_TRICK_NOTES) + r")\]",
    re.IGNORECASE)


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(notebook):
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def tags(cell):
    return cell.metadata.get("tags", [])


def speed_notes(obj):
    return [match.group(0) for match in SPEED_NOTE.finditer("".join(SourcePiece(obj).lines))]


def read_the_code_cells(lesson, lang="en", solutions=True):
    """The code cells of the lesson's "Read the code" section, in a built notebook."""
    cells = read(lesson_path(lesson, lang, solutions)).cells
    headings = [i for i, cell in enumerate(cells) if cell.cell_type == "markdown"
                and cell.source.startswith(HEADINGS[lang])]
    assert len(headings) == 1, f"{lesson.slug} ({lang}): one section {HEADINGS[lang]!r}"
    following = [cell for cell in cells[headings[0]:] if cell.cell_type == "code"]
    assert following, f"{lesson.slug} ({lang}): {HEADINGS[lang]!r} has no code cell"
    return following


def read_the_code_cell(lesson, lang="en", solutions=True):
    """The code cell that shows the source: the section's first."""
    return read_the_code_cells(lesson, lang, solutions)[0]


def shown_objects(code):
    """What the cell's call of show_source shows: its imports run, its arguments evaluated.
    The cell imports all it shows (a student may copy it anywhere)."""
    tree = ast.parse(code)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "show_source"]
    assert len(calls) == 1, f"one call of show_source, in:\n{code}"
    namespace = {}
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    exec(compile(ast.Module(body=imports, type_ignores=[]), "<read the code>", "exec"), namespace)
    return [eval(compile(ast.Expression(argument), "<read the code>", "eval"), namespace)
            for argument in calls[0].args]


def all_shown():
    return [(lesson, obj) for lesson in LESSONS
            for obj in shown_objects(read_the_code_cell(lesson).source)]


# --- every lesson has the section, in both languages, at its end ---------------------------

@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_ends_with_read_the_code_in_both_languages(lesson):
    for lang in ("en", "zh"):
        for solutions in (False, True):
            notebook = read(lesson_path(lesson, lang, solutions))
            cells = read_the_code_cells(lesson, lang, solutions)
            cell = cells[0]
            assert cells[-1].id == code_cells(notebook)[-1].id, (
                f"{lesson.slug} ({lang}): the last code cell is one of {HEADINGS[lang]!r}")
            assert all(re.search(r"\bask\(", c.source) for c in cells[1:]), (
                f"{lesson.slug} ({lang}): after the source, only the question")
            sections = [c.source.split("\n")[0] for c in notebook.cells
                        if c.cell_type == "markdown" and c.source.startswith("## ")]
            assert sections[-1] == HEADINGS[lang], f"{lesson.slug} ({lang}): {sections}"
            # a sentence or two on what to look for, besides the heading
            heading = next(c for c in notebook.cells if c.cell_type == "markdown"
                           and c.source.startswith(HEADINGS[lang]))
            assert len(heading.source) > len(HEADINGS[lang]) + 40
            assert "show_source(" in cell.source and "minigrad.lessons" in cell.source


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_read_the_code_output_is_not_compared_by_nbval(lesson):
    """The cell runs under nbval, but its output (line numbers, the code itself) changes with
    every edit of the core: nbval would fail on a change that is none of the lesson's."""
    en, zh = (read_the_code_cells(lesson, lang) for lang in ("en", "zh"))
    assert all("nbval-ignore-output" in tags(cell) for cell in en + zh)   # (widgets too)
    assert [c.source for c in en] == [c.source for c in zh]  # the same code in both languages


# --- what a lesson shows --------------------------------------------------------------------

@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_a_lesson_shows_one_or_two_functions_of_minigrad(lesson):
    shown = shown_objects(read_the_code_cell(lesson).source)
    assert 1 <= len(shown) <= 2, f"{lesson.slug} shows {len(shown)}"
    package = pathlib.Path(minigrad.__file__).parent
    for obj in shown:
        path = pathlib.Path(inspect.getsourcefile(inspect.unwrap(obj))).resolve()
        assert package in path.parents, f"{lesson.slug}: {obj!r} is not in minigrad/"


@pytest.mark.parametrize("lesson, obj", all_shown(),
                         ids=lambda value: getattr(value, "slug", getattr(value, "__qualname__", "")))
def test_what_a_lesson_shows_is_short_and_free_of_speed_notes(lesson, obj):
    piece = SourcePiece(obj)
    assert len(piece.lines) <= MAX_LINES, (
        f"{lesson.slug} shows {piece.qualname}: {len(piece.lines)} lines (at most {MAX_LINES})")
    assert not speed_notes(obj), f"{lesson.slug} shows {piece.qualname}: {speed_notes(obj)}"


def test_the_engine_and_apply_are_among_what_the_lessons_show():
    shown = [obj for _, obj in all_shown()]
    for core in (engine.run_backward, engine.count_dependencies, minigrad.autograd.Function.apply):
        assert any(obj is core or getattr(obj, "__func__", None) is getattr(core, "__func__", 0)
                   for obj in shown), core


def test_speed_notes_are_found_where_they_are():
    """The check has teeth: the functions that carry a speed trick are caught."""
    assert speed_notes(minigrad.autograd.function._connect)          # speed.shared_sizes(...)
    assert "NOTE [saved numbers]" in speed_notes(saved_tensor.save)
    assert "nothing_recorded" in speed_notes(linalg.Mm)              # NOTE [backward on arrays]
    assert speed_notes(speed.shared_flags)                           # garbage collector
    assert not speed_notes(unary.Exp) and not speed_notes(engine.count_dependencies)


# --- show_source ----------------------------------------------------------------------------

def test_show_source_names_the_file_and_the_lines_it_shows():
    shown = show_source(engine.count_dependencies, minigrad.autograd.Function.apply)
    for piece, name in zip(shown.pieces, ("count_dependencies", "Function.apply")):
        assert piece.qualname == name
        file_lines = (pathlib.Path(minigrad.__file__).parent.parent / piece.path).read_text(
            encoding="utf-8").splitlines(keepends=True)
        assert file_lines[piece.first_line - 1:piece.last_line] == piece.lines
        assert piece.path.startswith("minigrad/autograd/")
    text = repr(shown).splitlines()
    first = shown.pieces[0]
    assert text[0] == (f"minigrad/autograd/engine.py, lines {first.first_line}–{first.last_line}: "
                       "count_dependencies")
    assert text[1].split() == [str(first.first_line), "def", "count_dependencies(roots):"]


def test_show_source_highlights_the_code_with_its_line_numbers():
    piece = show_source(unary.Exp).pieces[0]
    page = show_source(unary.Exp)._repr_html_()
    assert "ops/unary.py, lines" in page and "<pre" in page
    assert re.search(r'<span style="[^"]*font-weight: bold">class</span>', page)   # coloured
    assert f">{piece.first_line}</span>" in page and f">{piece.last_line}</span>" in page
    assert "<style" not in page       # inline colours: kept by every frontend's sanitizer


def test_show_source_shows_the_live_code(tmp_path, monkeypatch):
    """What is shown is read from the module when asked, not from a copy."""
    module = tmp_path / "live_module.py"
    module.write_text("def f():\n    return 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import live_module
    assert "return 1" in repr(show_source(live_module.f))
    module.write_text("def f():\n    return 2\n", encoding="utf-8")
    import linecache
    linecache.checkcache(str(module))
    assert "return 2" in repr(show_source(live_module.f))


def test_show_source_needs_something_to_show():
    with pytest.raises(TypeError, match="at least one"):
        show_source()
