"""The lessons: built notebooks match their sources, both languages agree, and they run.

Static tests (fast) read the sources `notebooks/sources/*.py` and the built
notebooks under `notebooks/{en,zh}/`.  The tests marked `notebooks` run every notebook in a
Jupyter kernel: solution versions through nbval (stored outputs reproduced,
every check ✓), student versions through nbclient (no error, every check
"not solved yet").  Deselect them with `-m "not notebooks"`.
"""
import importlib.util
import io
import pathlib
import re
import subprocess
import sys
import tokenize

import nbformat
import pytest

from minigrad.lessons import INDEX, LESSONS, LESSONS_DIR, YOUR_CODE_HERE, lesson_path, list_lessons
from minigrad.lessons.plan import PLAN

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "notebooks" / "sources"
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGUAGE_TAG = "minigrad-language"
IGNORE_OUTPUT = "nbval-ignore-output"
CHECK_CALL = re.compile(r"""\bcheck\(\s*["']([a-z0-9_]+)["']""")
CJK = re.compile(r"[\u4e00-\u9fff]")
# full-width punctuation (no line break after it) and Chinese characters (none between two)
FULL_WIDTH = "\u2014\u2018\u2019\u201c\u201d\u2026\u3000-\u303f\uff00-\uffef"
CJK_OR_PUNCTUATION = FULL_WIDTH + "\u3400-\u4dbf\u4e00-\u9fff"


def load_builder():
    spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" /
                                                  "build-lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = load_builder()


def source_of(lesson):
    return SOURCES / f"{lesson.slug}.py"


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(notebook):
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def prose(notebook):
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def tags(cell):
    return cell.metadata.get("tags", [])


def all_notebooks():
    return [(lesson, lang, solutions) for lesson in LESSONS for lang in ("en", "zh")
            for solutions in (False, True)]


# --- the build ------------------------------------------------------------------------

@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_lesson_has_a_source_and_four_notebooks(lesson):
    assert source_of(lesson).is_file(), f"missing notebooks/sources/{lesson.slug}.py"
    for lang in ("en", "zh"):
        for solutions in (False, True):
            assert lesson_path(lesson, lang, solutions).is_file()
    assert [p.stem for p in list_lessons("zh")] == sorted(p.stem for p in list_lessons("zh"))


def test_a_clone_reads_its_notebooks_folder_and_keeps_each_notebook_once():
    """This suite runs on an editable install: the lessons come from notebooks/, and the
    package holds no copy of them (setup.py adds one to the wheel only)."""
    assert LESSONS_DIR == ROOT / "notebooks"
    assert list_lessons("en")[0] == ROOT / "notebooks" / "en" / f"{LESSONS[0].slug}.ipynb"
    assert not list((ROOT / "minigrad").rglob("*.ipynb"))


def test_built_notebooks_and_pages_are_up_to_date():
    sources = sorted(SOURCES.glob("[0-9][0-9]-*.py"))
    assert {path.stem for path in sources} == {lesson.slug for lesson in LESSONS}
    problems = builder.stale_notebooks(sources) + builder.stale_pages()
    assert not problems, "run scripts/build-lessons.py --execute:\n" + "\n".join(problems)


def test_stale_check_notices_an_edited_source(tmp_path, monkeypatch):
    lesson = LESSONS[0]
    edited = tmp_path / source_of(lesson).name
    edited.write_text(source_of(lesson).read_text(encoding="utf-8") + "\n# %%\nprint(42)\n",
                      encoding="utf-8")
    problems = builder.stale_notebooks([edited])
    assert len(problems) == 4 and all("stale" in problem for problem in problems)


def test_student_version_replaces_each_solution_block_at_its_indentation():
    source = ("class Exp:\n    def forward(x):\n        ### BEGIN SOLUTION\n        y = x\n"
              "        return y\n        ### END SOLUTION\n")
    student = builder.student_code(source)
    assert student == ("class Exp:\n    def forward(x):\n        # YOUR CODE HERE\n"
                       "        raise NotImplementedError()\n")
    assert builder.solution_code(source) == ("class Exp:\n    def forward(x):\n        y = x\n"
                                             "        return y\n")
    assert builder.student_code(source, "zh") == ("class Exp:\n    def forward(x):\n"
                                                  "        # 在这里写你的代码\n"
                                                  "        raise NotImplementedError()\n")
    with pytest.raises(builder.LessonError):
        builder.student_code("### BEGIN SOLUTION\nx = 1\n")


def test_a_prose_cell_without_its_twin_is_refused(tmp_path):
    broken = tmp_path / "99-broken.py"
    broken.write_text('# %% [markdown] lang="en"\n# Hello\n\n# %%\nx = 1\n', encoding="utf-8")
    with pytest.raises(builder.LessonError, match="Chinese twin"):
        builder.read_source(broken)


# --- opening a lesson anywhere: Colab, JupyterLite, Binder ------------------------------

COLAB = "https://colab.research.google.com/github/"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_notebook_opens_with_a_colab_link_for_itself(lesson):
    """A link, not Colab's badge: an image on Colab's server is broken offline."""
    for lang, solutions in [(lang, solutions) for lang in ("en", "zh") for solutions in (False, True)]:
        path = lesson_path(lesson, lang, solutions)
        first = read(path).cells[0]
        relative = path.relative_to(ROOT).as_posix()
        assert first.cell_type == "markdown"
        assert first.source == (f"**[{builder.OPEN_IN_COLAB[lang]} ↗]"
                                f"({COLAB}{builder.repository()}/blob/main/{relative})**")
        assert "![" not in first.source and ".svg" not in first.source


def test_readme_opens_every_lesson_in_colab_in_both_languages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(re.escape(COLAB) + r"([\w.-]+/[\w.-]+)/blob/main/([^)\s]+)", readme)
    assert len(links) == len(set(links)) == 2 * len(LESSONS)
    assert {path for _, path in links} == {lesson_path(lesson, lang).relative_to(ROOT).as_posix()
                                           for lesson in LESSONS for lang in ("en", "zh")}
    assert {repository for repository, _ in links} == {builder.repository()}


def run_first_code_cell(notebook, missing, platform=sys.platform):
    """Run a notebook's first code cell as IPython would, with minigrad importable or `missing`,
    on `platform` (sys.platform: "emscripten" in JupyterLite's Pyodide).

    %pip is recorded, and "installs" minigrad by making it importable again.
    Returns (the %pip calls, the language the cell set).
    """
    from unittest import mock

    from IPython.core.inputtransformer2 import TransformerManager
    import minigrad
    calls = []

    class FakeShell:
        def run_line_magic(self, name, line):
            calls.append((name, line))
            sys.modules["minigrad"] = minigrad             # the install worked

    code = TransformerManager().transform_cell(code_cells(notebook)[0].source)
    before = minigrad.settings.lang
    if missing:
        sys.modules["minigrad"] = None                     # import minigrad raises ImportError
    try:
        with mock.patch.object(sys, "platform", platform):
            exec(code, {"get_ipython": FakeShell})
        return calls, minigrad.settings.lang
    finally:
        sys.modules["minigrad"] = minigrad
        minigrad.settings.lang = before


GITHUB = f"minigrad-tutor @ git+https://github.com/{builder.repository()}@{builder.BRANCH}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_first_code_cell_installs_minigrad_tutor_only_where_minigrad_is_missing(lang):
    """Until minigrad-tutor is on PyPI, Colab installs it from the repository on GitHub and
    JupyterLite the wheel its site carries (by name: piplite reads no git URL)."""
    assert not builder.on_pypi()
    notebook = read(lesson_path(LESSONS[0], lang))
    assert run_first_code_cell(notebook, missing=False) == ([], lang)     # a clone, Binder
    assert run_first_code_cell(notebook, missing=True, platform="linux") == (      # Colab
        [("pip", f'install --quiet "{GITHUB}"')], lang)
    assert run_first_code_cell(notebook, missing=True, platform="emscripten") == (  # JupyterLite
        [("pip", "install --quiet minigrad-tutor")], lang)


def test_once_on_pypi_every_first_cell_and_the_readme_install_from_there(monkeypatch):
    """docs/release.md: after the first upload, [tool.minigrad-tutor] on-pypi = true and a
    rebuild make every notebook's first cell and the README's install part name the package."""
    monkeypatch.setattr(builder, "on_pypi", lambda: True)
    for lang in ("en", "zh"):
        cell = builder.language_cell(lang)
        notebook = nbformat.v4.new_notebook(cells=[cell])
        for platform in ("linux", "emscripten"):
            assert run_first_code_cell(notebook, missing=True, platform=platform) == (
                [("pip", "install --quiet minigrad-tutor")], lang)
        assert "git+" not in cell.source
    install = builder.install_part()
    assert 'pip install "minigrad-tutor[tutor]"' in install and "not on PyPI" not in install


def test_until_then_the_readme_says_how_to_install_from_github_a_clone_or_a_wheel():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = re.search(r"<!-- begin install\b.*?-->\n(.*?)\n<!-- end install -->", readme, re.S)
    assert part and part.group(1) == builder.install_part()
    text = part.group(1)
    assert "not on PyPI yet" in text and "还没有发布到 PyPI" in text
    assert f'pip install "{GITHUB.replace("minigrad-tutor", "minigrad-tutor[tutor]", 1)}"' in text
    assert 'pip install -e ".[tutor]"' in text
    version = builder.pyproject()["project"]["version"]
    assert f"dist/minigrad_tutor-{version}-py3-none-any.whl[tutor]" in text


def test_the_repository_of_the_links_is_named_once_in_pyproject(tmp_path, monkeypatch):
    """A fork changes [project.urls] Repository and rebuilds: every link follows."""
    (tmp_path / "docs").mkdir()
    for name in builder.PAGES:
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert pyproject.count(f"https://github.com/{builder.repository()}") == 1
    (tmp_path / "pyproject.toml").write_text(pyproject.replace(
        f"https://github.com/{builder.repository()}", "https://github.com/a-teacher/course"))
    monkeypatch.setattr(builder, "ROOT", tmp_path)
    assert builder.stale_pages() == [f"{name}: stale (its generated parts differ from a fresh "
                                     f"build)" for name in builder.PAGES]
    builder.write_pages(log=lambda message: None)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "minigrad/minigrad" not in readme and readme.count("/a-teacher/course/") == 2 * len(LESSONS) + 2
    badge = builder.colab_cell(LESSONS[0].slug, "zh", False).source
    assert badge.endswith("/github/a-teacher/course/blob/main/notebooks/zh/"
                          f"{LESSONS[0].slug}.ipynb)**") and "在 Colab 中打开" in badge


# --- the two languages ----------------------------------------------------------------

@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
@pytest.mark.parametrize("solutions", [False, True], ids=["student", "solution"])
def test_languages_have_the_same_code(lesson, solutions):
    en, zh = (read(lesson_path(lesson, lang, solutions)) for lang in ("en", "zh"))
    en_code, zh_code = code_cells(en), code_cells(zh)
    assert LANGUAGE_TAG in tags(en_code[0]) and LANGUAGE_TAG in tags(zh_code[0])
    assert en_code[0].source.endswith('lang = "en"') and zh_code[0].source.endswith('"zh"')
    assert [without_comments(c.source) for c in en_code[1:]] == \
        [without_comments(c.source) for c in zh_code[1:]]
    assert [tags(c) for c in en_code[1:]] == [tags(c) for c in zh_code[1:]]
    assert all(LANGUAGE_TAG not in tags(c) for c in en_code[1:] + zh_code[1:])
    assert [c.cell_type for c in en.cells] == [c.cell_type for c in zh.cells]


def without_comments(code):
    """The code with its comments taken out: what must be the same in both languages."""
    tokens = [(kind, text) for kind, text, *_ in tokenize.generate_tokens(io.StringIO(code).readline)
              if kind not in (tokenize.COMMENT, tokenize.NL)]
    return tokenize.untokenize(tokens)


def comments(code):
    return [text for kind, text, *_ in tokenize.generate_tokens(io.StringIO(code).readline)
            if kind == tokenize.COMMENT]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_chinese_notebooks_comment_their_code_in_chinese(lesson):
    """A comment made of English words is translated in the Chinese notebook (a formula or a
    code name is not words; # YOUR CODE HERE is the exercises' marker)."""
    for solutions in (False, True):
        for cell in code_cells(read(lesson_path(lesson, "zh", solutions))):
            names = set(re.findall(r"\w+", without_comments(cell.source)))
            for comment in comments(cell.source):
                words = [w for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`", "", comment))
                         if w not in names]
                if comment != "# YOUR CODE HERE" and len(words) >= 2:
                    assert CJK.search(comment), f"{lesson.slug}: an English comment: {comment}"


def test_a_comment_can_be_written_in_both_languages():
    source = "x = 1   # one  # zh: 一\n# a whole line  # zh: 一整行\ny = 2  # only English"
    assert builder.comments_for(source, "en") == "x = 1   # one\n# a whole line\ny = 2  # only English"
    assert builder.comments_for(source, "zh") == "x = 1   # 一\n# 一整行\ny = 2  # only English"


def test_chinese_prose_is_joined_where_a_line_break_would_show_as_a_space():
    text = ("## 标题？\n\n第一行写到这里，\n第二行接着写**重点**\n和“引号”。\n`code` 开头的一行\n\n"
            "* 列表项，\n  续行\n* 第二项\n| 表 | 格 |\n|---|---|\n中文 `code`\n和 English")
    assert builder.prose_for(text, "zh") == (
        "## 标题？\n\n第一行写到这里，第二行接着写**重点**和“引号”。`code` 开头的一行\n\n"
        "* 列表项，续行\n* 第二项\n| 表 | 格 |\n|---|---|\n中文 `code`\n和 English")
    assert builder.prose_for("one\ntwo", "en") == "one\ntwo"
    with pytest.raises(builder.LessonError, match="LESSONS"):
        builder.prose_for("# 01 · A title of its own", "en")


def markdown_lines(cell):
    """(line, next line) pairs inside a Markdown cell's paragraphs."""
    lines = cell.source.split("\n")
    block = re.compile(r"^\s*([-*+] |\d+\. |[|#>]|\$\$|$)")
    return [(a, b) for a, b in zip(lines, lines[1:])
            if a.strip() and not a.lstrip().startswith(("#", "|", "$$")) and not block.match(b)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_no_line_break_between_two_chinese_characters(lesson):
    """Markdown shows a line break inside a paragraph as a space: in Chinese, a stray gap
    (between two characters, or next to full-width punctuation)."""
    edge = f"[{CJK_OR_PUNCTUATION}]"
    for solutions in (False, True):
        for cell in read(lesson_path(lesson, "zh", solutions)).cells:
            if cell.cell_type != "markdown":
                continue
            for line, following in markdown_lines(cell):
                seam = (re.search(f"[{FULL_WIDTH}]" + r"\**$", line.rstrip())
                        or re.match(r"\s*\**" + f"[{FULL_WIDTH}]", following)
                        or re.search(edge + r"\**$", line.rstrip())
                        and re.match(r"\s*\**" + edge, following))
                assert not seam, f"{lesson.slug}: a line break in Chinese text:\n{line}\n{following}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_chinese_prose_uses_chinese_quotes_and_bold_not_italics(lesson):
    for cell in read(lesson_path(lesson, "zh", solutions=True)).cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", "", cell.source, flags=re.S)
        assert '"' not in text, f"{lesson.slug}: ASCII quotes in Chinese prose (use “…”):\n{text}"
        italic = re.search(r"(?<![*\w])\*(?!\*)[^*\n]*[\u4e00-\u9fff][^*\n]*(?<!\*)\*(?!\*)", text)
        assert not italic, f"{lesson.slug}: italic Chinese (use **bold**): {italic.group()}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_headings_and_next_links_come_from_the_list_of_lessons(lesson):
    for lang in ("en", "zh"):
        for solutions in (False, True):
            notebook = read(lesson_path(lesson, lang, solutions))
            prose_cells = [c.source for c in notebook.cells
                           if c.cell_type == "markdown" and c.get("id") != "open-in-colab"]
            assert prose_cells[0].startswith(f"# {lesson.number:02d} · {lesson.title(lang)}\n")
            assert sum(text.startswith("# ") for text in prose_cells) == 1
            links = re.findall(r"\]\(([^)]+\.ipynb)\)", prose_cells[-1])
            folder = lesson_path(lesson, lang, solutions).parent
            assert all((folder / link).resolve().is_file() for link in links), links
            later = [other for other in LESSONS if other.number == lesson.number + 1]
            expected = [f"{later[0].slug}.ipynb"] if later else []
            expected.append(("../" if solutions else "") + f"{INDEX}.ipynb")
            assert links == expected
            assert (later and f"{later[0].title(lang)} →" in prose_cells[-1]) or not later


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_each_lesson_states_its_time_and_what_it_builds_on(lesson):
    """The line under the title, from minigrad/lessons/plan.py, in each notebook's language;
    the lessons it names exist and are linked."""
    from minigrad.lessons.plan import PLAN
    plan = PLAN[lesson.slug]
    assert 10 <= plan.minutes <= 120 and lesson.slug not in plan.after
    # the course's order follows what each lesson builds on: every one of them comes earlier
    numbers = {other.slug: other.number for other in LESSONS}
    assert all(numbers[slug] < lesson.number for slug in plan.after), plan.after
    assert lesson.slug.startswith(f"{lesson.number:02d}-")
    words = {"en": ("**Time:** about {} minutes", "**Before it:**"),
             "zh": ("**用时**：约 {} 分钟", "**先学**：")}
    for lang in ("en", "zh"):
        for solutions in (False, True):
            path = lesson_path(lesson, lang, solutions)
            title = [c.source for c in read(path).cells if c.cell_type == "markdown"][1]
            line = title.split("\n")[2]
            time, before = words[lang]
            assert line.startswith(time.format(plan.minutes)), line
            assert (before in line) == bool(plan.after)
            links = re.findall(r"\]\(([^)]+\.ipynb)\)", line)
            assert links == [f"{slug}.ipynb" for slug in plan.after]
            assert all((path.parent / link).is_file() for link in links)
            know = plan.know_zh if lang == "zh" else plan.know_en
            assert know in line and (CJK.search(line) is not None) == (lang == "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_course_index_lists_every_lesson_and_shows_progress(lang):
    path = LESSONS_DIR / lang / f"{INDEX}.ipynb"
    notebook = read(path)
    table = notebook.cells[0].source
    for lesson in LESSONS:
        assert f"[{lesson.number:02d} · {lesson.title(lang)}]({lesson.slug}.ipynb)" in table
        assert lesson.learn(lang) and lesson.learn(lang) in table
        minutes = PLAN[lesson.slug].minutes
        assert (f"约 {minutes} 分钟" if lang == "zh" else f"{minutes} min") in table
        assert all(f"`{exercise}`" in table for exercise in lesson.exercises)
    code = code_cells(notebook)
    assert code[0].source.endswith(f'lang = "{lang}"') and "progress()" in code[-1].source
    assert not any(cell.outputs for cell in code)
    assert INDEX not in [p.stem for p in list_lessons(lang)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_prose_cell_comes_in_both_languages(lesson):
    cells = builder.read_source(source_of(lesson))       # refuses unpaired prose
    pairs = [cell for cell in cells if cell.metadata.get("lang") == "en"]
    assert 8 <= len(pairs) <= 20, f"{len(pairs)} prose pairs; a lesson has 8 to 15"
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        lang = cell.metadata.get("lang")
        text = re.sub(r"`[^`]*`|\$[^$]*\$", "", cell.source)
        if lang == "zh":
            assert CJK.search(text), f"a zh cell with no Chinese:\n{cell.source}"
        elif lang == "en":
            assert not CJK.search(text), f"Chinese in an en cell:\n{cell.source}"
        else:
            assert not re.search(r"[A-Za-z]{4,}|" + CJK.pattern, text), (
                f"a markdown cell without lang goes to both languages, so it must have no "
                f"words (formulas, numbers only):\n{cell.source}")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_a_prose_cell_and_its_twin_have_the_same_headings_and_tables(lesson):
    """A section heading, or a table, in one language and not in the other is a section or a
    table the other language's student never sees."""
    cells = builder.read_source(source_of(lesson))
    for en, zh in zip(cells, cells[1:]):
        if en.metadata.get("lang") != "en":
            continue
        def shape(cell):
            lines = cell.source.splitlines()
            return ([line.split(" ")[0] for line in lines if line.startswith("#")],
                    sum(line.startswith("|") for line in lines))
        assert shape(en) == shape(zh), f"{lesson.slug}:\n{en.source}\n---\n{zh.source}"


# --- exercises ------------------------------------------------------------------------

@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_each_exercise_of_the_contract_has_a_check_cell(lesson):
    notebook = read(lesson_path(lesson, "en", solutions=True))
    checked = [m for cell in code_cells(notebook) for m in CHECK_CALL.findall(cell.source)]
    assert checked, f"{lesson.slug}: every lesson has at least one checked exercise"
    assert sorted(checked) == sorted(lesson.exercises)
    imports = [c for c in code_cells(notebook)
               if "from minigrad.exercises import check" in c.source]
    assert len(imports) == (1 if lesson.exercises else 0)


def test_at_least_fifteen_exercises():
    assert sum(len(lesson.exercises) for lesson in LESSONS) >= 15
    ids = [exercise for lesson in LESSONS for exercise in lesson.exercises]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_student_notebooks_hide_every_solution(lesson):
    for lang in ("en", "zh"):
        student = read(lesson_path(lesson, lang))
        solution = read(lesson_path(lesson, lang, solutions=True))
        for cell in code_cells(student) + code_cells(solution):
            assert "### BEGIN SOLUTION" not in cell.source
            assert "### END SOLUTION" not in cell.source
        assert not any(cell.outputs for cell in code_cells(student)), "stored with outputs"
        assert not any("raise NotImplementedError()" in c.source for c in code_cells(solution))
        stubs = sum(c.source.count(YOUR_CODE_HERE[lang]) for c in code_cells(student))
        blocks = source_of(lesson).read_text(encoding="utf-8").count("### BEGIN SOLUTION")
        assert stubs == blocks
        assert (stubs > 0) == bool(lesson.exercises)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_stored_solution_outputs_pass_every_check(lesson):
    for lang in ("en", "zh"):
        notebook = read(lesson_path(lesson, lang, solutions=True))
        for cell in code_cells(notebook):
            assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
            if CHECK_CALL.search(cell.source):
                texts = [o.get("data", {}).get("text/plain", o.get("text", ""))
                         for o in cell.outputs]
                assert texts and all(t.startswith("✓ ") for t in texts), (cell.source, texts)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_widget_and_drawing_cells_are_not_compared_by_nbval(lesson):
    notebook = read(lesson_path(lesson, "en", solutions=True))
    for cell in code_cells(notebook):
        if re.search(r"viz\.(graph|animate)\(", cell.source) and "print(" not in cell.source:
            assert IGNORE_OUTPUT in tags(cell), (
                f"{lesson.slug}: a cell showing a drawing or widget needs the tag "
                f"{IGNORE_OUTPUT} (its output depends on graphviz / widget ids):\n"
                f"{cell.source}")


# --- the glossary ---------------------------------------------------------------------

def glossary_rows():
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and CJK.search(cells[1]) and not cells[0].startswith("English"):
            english = [term.strip() for term in cells[0].split(",")]
            forbidden = [v.strip() for v in cells[4].split("、") if v.strip() not in ("", "-")]
            rows.append((english, cells[1], forbidden))
    return rows


def test_glossary_has_the_key_terms():
    rows = glossary_rows()
    assert len(rows) >= 25
    chinese = {row[1] for row in rows}
    for term in ["计算图", "反向传播", "叶子张量", "梯度", "张量", "节点", "边", "钩子", "保存的张量",
                 "版本计数器", "原地操作", "拓扑顺序", "依赖计数", "就绪队列", "前向传播", "链式法则",
                 "雅可比矩阵", "广播", "自定义 Function", "上下文对象 ctx", "梯度检查", "异常检测模式",
                 "高阶导数", "双月牙"]:
        assert term in chinese, term
    for _, term, forbidden in rows:
        assert all(variant not in term for variant in forbidden), (term, forbidden)


def forbidden_variants_in(text, allowed, forbidden):
    """The forbidden variants that occur in `text`, ignoring those inside an allowed term.

    A variant can overlap an allowed word ("挂钩子", to hang a 钩子, contains the
    forbidden 挂钩), so the allowed terms are blanked out before searching for it
    (a separator takes their place, so that the pieces around cannot join up);
    not those the variant itself contains, though: 叶张量 contains 张量.
    """
    found = []
    for variant in forbidden:
        searched = text
        for term in sorted(allowed, key=len, reverse=True):
            if term not in variant:
                searched = searched.replace(term, "\0")
        if variant in searched:
            found.append(variant)
    return found


def test_forbidden_variants_ignore_the_allowed_terms_they_overlap():
    allowed, forbidden = ["钩子", "张量", "叶子张量"], ["挂钩", "勾子", "叶张量"]
    assert forbidden_variants_in("给张量挂钩子：register_hook", allowed, forbidden) == []
    assert forbidden_variants_in("叶子张量的梯度", allowed, forbidden) == []
    assert forbidden_variants_in("注册一个挂钩", allowed, forbidden) == ["挂钩"]
    assert forbidden_variants_in("钩子和勾子", allowed, forbidden) == ["勾子"]
    # an allowed term inside the variant itself is no excuse
    assert forbidden_variants_in("这个叶张量", allowed, forbidden) == ["叶张量"]
    # blanking an allowed term must not glue its neighbours into a forbidden word
    assert forbidden_variants_in("挂钩子钩", ["钩子"], ["挂钩"]) == []


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_chinese_notebooks_use_the_glossary_terms(lesson):
    english = prose(read(lesson_path(lesson, "en", solutions=True))).lower()
    chinese = prose(read(lesson_path(lesson, "zh", solutions=True)))
    rows = glossary_rows()
    allowed = [term for _, term, _ in rows]
    for terms, term, forbidden in rows:
        for variant in forbidden_variants_in(chinese, allowed, forbidden):
            pytest.fail(f"{lesson.slug}: write {term}, not {variant}")
        mentioned = [t for t in terms if re.search(rf"\b{re.escape(t.lower())}s?\b", english)]
        if mentioned:
            assert term.split()[0] in chinese, (
                f"{lesson.slug}: the English says {mentioned[0]!r}; the Chinese should say "
                f"{term} (docs/glossary.md)")


# --- running the notebooks ------------------------------------------------------------

@pytest.mark.notebooks
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_solution_notebooks_reproduce_their_outputs(lesson):
    """nbval runs both solution notebooks and compares every output it is not told to ignore,
    both sides sanitized alike (notebooks/nbval-sanitize.cfg: no path of either machine)."""
    notebooks = [str(lesson_path(lesson, lang, solutions=True)) for lang in ("en", "zh")]
    command = [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-q",
               "--nbval-sanitize-with", str(builder.SANITIZER),
               "-p", "no:cacheprovider", "-p", "no:warnings", "--rootdir", str(LESSONS_DIR),
               "-o", "addopts=", *notebooks]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


@pytest.mark.notebooks
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_student_notebooks_run_and_report_not_solved_yet(lesson, lang):
    from nbclient import NotebookClient
    notebook = read(lesson_path(lesson, lang))
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                   record_timing=False).execute()
    for cell in code_cells(notebook):
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"{cell.source}\n{errors[0].ename}: {errors[0].evalue}"
        if CHECK_CALL.search(cell.source):
            texts = [o.get("data", {}).get("text/plain", o.get("text", ""))
                     for o in cell.outputs]
            assert texts and all(t.startswith("○ ") for t in texts), (cell.source, texts)


def test_lesson_15_times_a_backward_that_has_run_before(monkeypatch):
    """On a GPU the first backward compiles its kernels (CuPy: about 0.1 s on an H200), so
    a timing that warms up only the forward shows the GPU slower than the CPU."""
    import time

    import minigrad
    notebook = nbformat.read(lesson_path(15, "en", solutions=True), as_version=4)
    cell = next(c.source for c in notebook.cells
                if c.cell_type == "code" and "def time_matmul" in c.source)
    definition = cell[:cell.index("\nfor on in")]
    backward_calls, seen_at_start = [], []
    real_backward = minigrad.Tensor.backward
    monkeypatch.setattr(minigrad.Tensor, "backward",
                        lambda self, *a, **k: backward_calls.append(1) or real_backward(self, *a, **k))
    clock = time.perf_counter
    fake_time = type(time)("time")
    fake_time.perf_counter = lambda: seen_at_start.append(len(backward_calls)) or clock()
    scope = {"torch": minigrad, "time": fake_time}
    exec(definition.replace("import time\n", ""), scope)
    scope["time_matmul"]("cpu")
    assert seen_at_start[0] >= 1, "the timed backward is the first one: its warm-up is not timed apart"
