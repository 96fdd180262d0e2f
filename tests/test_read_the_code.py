"""Every lesson ends with "Read the code": the functions of minigrad that do what it taught,
shown from the live source (minigrad.lessons.show_source), then a question about them
(minigrad.lessons.ask: tests/test_reading.py checks the questions themselves).  What a lesson
shows stays on one screen and about the idea only: no speed notes, neither in it nor in the
functions of minigrad it calls (the next thing a reader opens).

The functions shown are read from the lessons themselves (the call of show_source in each
lesson's last code cell), so a lesson that shows a new function is checked with no list to
update here.
"""
import ast
import builtins
import inspect
import pathlib
import re
import textwrap

import nbformat
import pytest

import minigrad
from minigrad.core import function, graph as engine, hooks, tensor
from minigrad.lessons import LESSONS, lesson_path, show_source
from minigrad.lessons.source import SourcePiece
from minigrad.ops import arithmetic, linalg, unary
from minigrad.speed import unrecorded

MAX_LINES = 60
HEADINGS = {"en": "## Read the code", "zh": "## 读源码"}

# A speed note: the code or its comments speak of what only makes minigrad faster, which the
# student need not read to understand the idea.  That is
#   - words of speed: speed, fast, slow, hot path, cache, shortcut, cheap, "avoid the cost",
#     µs, trick, and the garbage collector (the cost most tricks cut: minigrad/speed/'s index);
#   - a reference to the speed folder (minigrad/speed/, `nothing_recorded()`);
#   - a NOTE of a speed trick, as minigrad/speed/'s index names them.
# Other NOTEs ([devices], [graph tasks], [saved tensors and version counters] ...) explain
# PyTorch's rules and are fine.
SPEED_TRICK_NOTES = ("backward on arrays",)
SPEED_NOTE = re.compile(
    r"\bspeed\b|\bfast(er|est)?\b|\bslow(er)?\b|\bhot path\b|\bcache[sd]?\b|\bshortcuts?\b"
    r"|\bcheap(er)?\b|avoid(s|ing)? the cost|µs|\btricks?\b|garbage collector"
    r"|\bnothing_recorded\b|minigrad/speed|\bspeed\.\w"
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


# The classes whose methods the core calls on objects it holds (a tensor, a node, a saved
# tensor, a gradient's metadata): `x._gradient_edge()` is found on them.
HELD = (tensor.TensorBase, function.BackwardNode, function.FunctionCtx, function.SavedTensor,
        engine.AccumulateGrad, engine.Node, engine.InputMetadata, function.Function)


def callees(obj):
    """The functions of minigrad that `obj` calls by name: one call below it, where a reader
    goes next (for a class: below each of its methods)."""
    if inspect.isclass(obj):
        found = []
        for member in vars(obj).values():
            member = getattr(member, "__func__", member)
            if inspect.isfunction(member):
                found += [f for f in callees(member) if f not in found]
        return found
    function = inspect.unwrap(getattr(obj, "__func__", obj))
    owner = _owner(function)
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    found = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        for candidate in _resolve(call.func, function.__globals__, owner):
            candidate = inspect.unwrap(getattr(candidate, "__func__", candidate))
            if _in_minigrad(candidate) and candidate is not function and candidate not in found:
                found.append(candidate)
    return found


def _owner(function):
    """The class a method is defined in (None for a function)."""
    parts = function.__qualname__.split(".")
    owner = function.__globals__.get(parts[0]) if len(parts) > 1 else None
    return owner if inspect.isclass(owner) else None


def _resolve(expression, names, owner):
    """What `expression(...)` may call: a name of the module, `module.name`, a method of the
    owning class (self., cls., node., ctx. ...), or a method of a class the core holds."""
    if isinstance(expression, ast.Name):
        value = names.get(expression.id, getattr(builtins, expression.id, None))
        return [value] if value is not None else []
    if not isinstance(expression, ast.Attribute):
        return []
    attribute, base = expression.attr, expression.value
    if isinstance(base, ast.Name) and base.id in names and inspect.ismodule(names[base.id]):
        value = getattr(names[base.id], attribute, None)
        return [value] if value is not None else []
    if isinstance(base, ast.Name) and base.id in names and inspect.isclass(names[base.id]):
        value = names[base.id].__dict__.get(attribute)
        return [value] if value is not None else []
    found = [klass.__dict__[attribute] for klass in ((owner,) if owner else ()) + HELD
             if attribute in klass.__dict__]
    return [f.fget if isinstance(f, property) else f for f in found[:1]]


def _in_minigrad(candidate):
    if not (inspect.isfunction(candidate) or inspect.isclass(candidate)):
        return False
    try:
        path = pathlib.Path(inspect.getsourcefile(candidate)).resolve()
    except TypeError:
        return False
    return pathlib.Path(minigrad.__file__).parent in path.parents


def one_call_below():
    return [(lesson, shown, callee) for lesson, shown in all_shown()
            for callee in callees(shown)]


@pytest.mark.parametrize("lesson, shown, callee", one_call_below(),
                         ids=lambda value: getattr(value, "slug", getattr(value, "__qualname__", "")))
def test_what_a_lesson_shows_calls_nothing_with_speed_notes(lesson, shown, callee):
    """The reader's next step, one call below what a lesson shows, is free of speed notes
    too (the speed tricks live in minigrad/speed/, or are named there)."""
    assert not speed_notes(callee), (
        f"{lesson.slug} shows {shown.__qualname__}, which calls {callee.__qualname__}: "
        f"{speed_notes(callee)}")


def test_one_call_below_is_found():
    """The walk one level down has teeth: it finds what Function.apply and the engine call."""
    below_apply = {f.__qualname__ for f in callees(function.Function.apply)}
    assert {"Function._run_forward", "_attach_outputs", "SavedTensor",
            "TensorBase._gradient_edge"} <= below_apply
    below_loop = {f.__qualname__ for f in callees(engine.run_backward)}
    assert {"count_dependencies", "add_to_buffer", "call_pre_hooks"} <= below_loop
    assert "nothing_recorded" in speed_notes(arithmetic._times)      # what it would catch
    assert arithmetic._times in callees(arithmetic.Mul)


def test_the_engine_and_apply_are_among_what_the_lessons_show():
    shown = [obj for _, obj in all_shown()]
    for core in (engine.run_backward, engine.count_dependencies, function.Function.apply):
        assert any(obj is core or getattr(obj, "__func__", None) is getattr(core, "__func__", 0)
                   for obj in shown), core


def test_speed_notes_are_found_where_they_are():
    """The check has teeth: the functions that carry a speed trick are caught."""
    assert "nothing_recorded" in speed_notes(arithmetic._times)      # NOTE [backward on arrays]
    assert "nothing_recorded" in speed_notes(linalg.Mm)
    assert speed_notes(unrecorded.nothing_recorded)                  # NOTE [backward on arrays]
    assert not speed_notes(unary.Exp) and not speed_notes(engine.count_dependencies)


# --- show_source ----------------------------------------------------------------------------

def test_show_source_names_the_file_and_the_lines_it_shows():
    shown = show_source(engine.count_dependencies, function.Function.apply)
    for piece, name in zip(shown.pieces, ("count_dependencies", "Function.apply")):
        assert piece.qualname == name
        file_lines = (pathlib.Path(minigrad.__file__).parent.parent / piece.path).read_text(
            encoding="utf-8").splitlines(keepends=True)
        assert file_lines[piece.first_line - 1:piece.last_line] == piece.lines
        assert piece.path.startswith("minigrad/core/")
    text = repr(shown).splitlines()
    first = shown.pieces[0]
    assert text[0] == (f"minigrad/core/graph.py, lines {first.first_line}–{first.last_line}: "
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
