"""The lessons' cells as a student meets them, read from the bilingual sources.

- No cell rebinds a name the student defined: an exercise's name is never bound
  again by a later cell, and a name a cell defined is never replaced by a later
  import (lesson 16's "Read the code" imported minigrad's `linear` over the student's,
  and the gradient check then compared the built-in with itself).
- Every command a lesson names works for the way the student started: a
  `minigrad-tutor ...` comes with its `scripts/start-tutor.sh ...` twin, and a
  package is installed with the notebook's own `%pip`, into the kernel's Python.
- A Chinese notebook speaks Chinese: the exercises' stub comment, the labels the
  cells print (words go through `say(en, zh)`), the glosses of the errors the
  lessons show; and minigrad's own Chinese strings (the player, the checks' hints,
  the launcher) use the terms of docs/glossary.md and lists joined with 、.
"""
import ast
import importlib.util
import pathlib
import re

import pytest

from minigrad.lessons import LESSONS, YOUR_CODE_HERE, lesson_path

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = ROOT / "notebooks" / "sources"
spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build-lessons.py")
builder = importlib.util.module_from_spec(spec)
spec.loader.exec_module(builder)

# English words that are prose, not code, in a printed label (`input` is a word in
# "(input 0)", a name in `def f(input)`: names the cell uses do not count)
PROSE = {"with", "and", "or", "the", "of", "on", "is", "are", "not", "to", "when", "then",
         "after", "before", "only", "input", "output", "was", "has", "have", "from", "for"}


def code_cells(source):
    """The code of each code cell of a lesson source, solutions in, IPython magics out."""
    cells = []
    for cell in builder.read_source(source):
        if cell.cell_type == "code":
            code = builder.solution_code(cell.source)
            code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                             for line in code.split("\n"))
            cells.append((cell.source, ast.parse(code)))
    return cells


def module_level(body):
    """The statements a cell runs at its top level (inside if / for / with / try too)."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody"):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield from module_level(getattr(node, field, None) or [])
        for handler in getattr(node, "handlers", None) or []:
            yield from module_level(handler.body)


def bindings(tree):
    """[(name, how)] of the names a cell binds: "def", "import" or "assign"."""
    found = []
    for node in module_level(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((node.name, "def"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [((alias.asname or alias.name).split(".")[0], "import")
                      for alias in node.names]
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [(name.id, "assign") for target in targets for name in ast.walk(target)
                      if isinstance(name, ast.Name)]
    return found


def shadowed(source):
    """The places where a cell of `source` rebinds what the student defined."""
    first, problems = {}, []
    for number, (text, tree) in enumerate(code_cells(source)):
        exercise = "### BEGIN SOLUTION" in text
        for name, how in bindings(tree):
            if name not in first:
                first[name] = (number, how, exercise)
                continue
            where, was, in_exercise = first[name]
            if in_exercise and number != where:
                problems.append(f"cell {number} binds {name}, the answer of exercise cell {where}")
            elif how == "import" and was != "import":
                problems.append(f"cell {number} imports {name} over cell {where}'s")
    return problems


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_no_cell_rebinds_what_the_student_defined(lesson):
    assert shadowed(SOURCES / f"{lesson.slug}.py") == []


def test_a_rebound_name_is_found(tmp_path):
    """The check itself: lesson 16's Read the code, as it was, and an exercise rebound."""
    source = tmp_path / "99-example.py"
    source.write_text(
        '# %% [markdown] lang="en"\n# Hi\n\n# %% [markdown] lang="zh"\n# 你好\n\n'
        "# %%\ndef linear(x):\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n\n"
        "# %%\ntry:\n    layer = linear\nexcept NameError:\n    layer = None\n\n"
        "# %%\nfrom minigrad.nn.functional import linear\nimport numpy as layer\n",
        encoding="utf-8")
    assert shadowed(source) == ["cell 2 binds linear, the answer of exercise cell 0",
                                "cell 2 imports layer over cell 1's"]


def prose_cells(source):
    return [cell.source for cell in builder.read_source(source) if cell.cell_type == "markdown"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_command_a_lesson_names_works_however_the_tutor_was_started(lesson):
    for text in prose_cells(SOURCES / f"{lesson.slug}.py"):
        for option in re.findall(r"`minigrad-tutor( [^`]*)`", text):
            assert f"`scripts/start-tutor.sh{option}`" in text, (
                f"{lesson.slug}: `minigrad-tutor{option}` alone (no such command in a clone)")
        for install in re.findall(r"`(%?)pip install ([^`]*)`", text):
            assert install[0] == "%", (
                f"{lesson.slug}: `pip install {install[1]}` in a terminal installs into "
                "whichever Python is there; `%pip install` in a cell installs into the "
                "notebook's own")


def printed_words(tree):
    """The English prose words of the string literals a cell prints (not inside say())."""
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
            for argument in node.args:
                pieces = [argument] if isinstance(argument, ast.Constant) else (
                    argument.values if isinstance(argument, ast.JoinedStr) else [])
                for piece in pieces:
                    if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                        found += [word for word in re.findall(r"[A-Za-z_]\w*", piece.value)
                                  if word.lower() in PROSE and word not in names]
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_labels_a_cell_prints_are_in_the_lessons_language(lesson):
    for _, tree in code_cells(SOURCES / f"{lesson.slug}.py"):
        assert printed_words(tree) == [], (
            f"{lesson.slug}: an English label is printed in both languages: "
            "write it as say(english, chinese)")


def test_an_english_label_is_found():
    tree = ast.parse('print("with grad_output = 10:", x.grad)\nprint(say("on", "位于"))\n'
                     'for input in range(2):\n    print(f"({input}) x.grad =")')
    assert printed_words(tree) == ["with"]


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if lesson.exercises],
                         ids=lambda lesson: lesson.slug)
def test_the_exercises_stub_is_in_the_lessons_language(lesson):
    import nbformat
    for lang, other in (("en", "zh"), ("zh", "en")):
        cells = nbformat.read(lesson_path(lesson, lang), as_version=4).cells
        code = "\n".join(cell.source for cell in cells if cell.cell_type == "code")
        assert YOUR_CODE_HERE[lang] in code and YOUR_CODE_HERE[other] not in code


def message_names(node):
    """The names whose message `node` shows: `error` in print(error) or str(error), not in
    type(error).__name__ (the type's name is no message)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "type":
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    return set().union(*(message_names(child) for child in ast.iter_child_nodes(node)))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_an_error_a_lesson_shows_has_a_chinese_gloss(lesson):
    """A cell that catches an error to show it shows it with show_error(), and every
    message the worked Chinese notebook shows that way has its gloss."""
    import nbformat
    from minigrad.lessons.errors import GLOSSES
    for text, tree in code_cells(SOURCES / f"{lesson.slug}.py"):
        for handler in (node for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler)):
            printed = [node for node in ast.walk(handler) if isinstance(node, ast.Call)
                       and getattr(node.func, "id", None) == "print"
                       and handler.name in message_names(node)]
            assert handler.name is None or not printed, (
                f"{lesson.slug}: print({handler.name}) shows PyTorch's English alone: "
                f"show_error({handler.name}) adds the Chinese gloss")
    worked = nbformat.read(lesson_path(lesson, "zh", solutions=True), as_version=4)
    for cell in worked.cells:
        if cell.cell_type == "code" and "show_error(" in cell.source and cell.outputs:
            shown = "".join(output.get("text", "") for output in cell.outputs)
            # a cell whose error did not happen in the worked run (the answer is right) shows
            # no error to gloss: only a message the lessons know of, or an ...Error, is held
            if not (any(piece in shown for piece, _ in GLOSSES) or re.search(r"\w+Error\b", shown)):
                continue
            assert "（中文说明：" in shown, f"{lesson.slug}: no gloss for\n{shown[:300]}"


# --- minigrad's own Chinese strings -------------------------------------------------------

def glossary():
    """[(chinese term, forbidden variants)] of docs/glossary.md (tests/test_lessons.py reads
    the same table for the notebooks)."""
    from test_lessons import glossary_rows
    return [(term, forbidden) for _, term, forbidden in glossary_rows()]


def chinese_strings():
    """{where: text} of every Chinese string minigrad shows: the player and the drawings,
    the checks' hints, the launcher, the glosses of errors, the website's words."""
    from minigrad.exercises import _messages
    from minigrad.lessons.errors import GLOSSES
    from minigrad.tutor.messages import MESSAGES
    from minigrad.viz.settings import TEXT
    strings = {f"viz {key}": value for key, value in TEXT["zh"].items()}
    strings.update({f"launcher {key}": value for key, value in MESSAGES["zh"].items()})
    for topic in ("COMMON",) + tuple(f"topic {name}" for name in _messages.TOPICS):
        table = _messages.COMMON if topic == "COMMON" else importlib.import_module(
            f"minigrad.exercises.{topic.split()[1]}").MESSAGES
        strings.update({f"hint {key}": texts["zh"] for key, texts in table.items()})
    strings.update({f"gloss {piece}": meaning for piece, meaning in GLOSSES})
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build-site.py")
    site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site)
    strings.update({f"site {key}": value for key, value in site.WORDS["zh"].items()})
    return strings


def test_minigrads_chinese_strings_use_the_glossary_terms():
    """One term per idea (docs/glossary.md): 运算 for an op, never 算子; 叶子张量 ..."""
    from test_lessons import forbidden_variants_in
    rows = glossary()
    allowed = [term for term, _ in rows]
    strings = chinese_strings()
    assert len(strings) > 200
    for where, text in strings.items():
        for term, forbidden in rows:
            found = forbidden_variants_in(text, allowed, forbidden)
            assert not found, f"{where}: write {term}, not {found[0]}: {text}"


def test_the_glossary_names_one_term_for_an_op():
    rows = dict(glossary())
    assert "运算" in rows and "算子" in rows["运算"]


def test_minigrads_chinese_lists_are_joined_with_the_enumeration_comma():
    """`exp`、`sigmoid`, not `exp`, `sigmoid` (what a Chinese reader expects in a list)."""
    for where, text in chinese_strings().items():
        assert not re.search(r"`[^`]+`, `", text), f"{where}: a list joined with ', ': {text}"


def test_the_launchers_list_of_lessons_joins_exercises_as_the_language_does(capsys):
    from minigrad.tutor import cli
    assert cli.main(["--list", "--lang", "zh"]) == 0
    listed = capsys.readouterr().out
    assert "[exp、sigmoid、relu、mul_constant、add_broadcast、batched_matmul]" in listed
    assert cli.main(["--list", "--lang", "en"]) == 0
    assert "[exp, sigmoid, relu, mul_constant, add_broadcast, batched_matmul]" in capsys.readouterr().out


def solution_lines(code):
    """The lines of code (not blank, not comments) between BEGIN and END SOLUTION."""
    inside, count = False, 0
    for line in code.splitlines():
        stripped = line.strip()
        if stripped in ("### BEGIN SOLUTION", "### END SOLUTION"):
            inside = stripped == "### BEGIN SOLUTION"
        elif inside and stripped and not stripped.startswith("#"):
            count += 1
    return count


def test_the_course_holds_enough_exercises_that_take_design():
    """At least 32 exercises, at least 10 of them multi-step: a worked answer of 8 lines or
    more that the student has to lay out, not a formula the prose hands over."""
    answers = [solution_lines(code) for source in sorted(SOURCES.glob("*.py"))
               for code, _ in code_cells(source) if "### BEGIN SOLUTION" in code]
    assert len(answers) == sum(len(lesson.exercises) for lesson in LESSONS) >= 32
    assert sum(lines >= 8 for lines in answers) >= 10, sorted(answers)
    assert solution_lines("x = 1\n### BEGIN SOLUTION\n# a note\ny = 2\n\n### END SOLUTION\nz") == 1
