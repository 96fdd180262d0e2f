#!/usr/bin/env python3
"""Build the lesson notebooks from their one source of truth, `notebooks/sources/NN-slug.py`.

Each source is a jupytext "percent" script holding both languages: prose
cells come in pairs (`# %% [markdown] lang="en"` then its `lang="zh"` twin),
code cells are shared.  From one source this script writes four notebooks:

    notebooks/en/NN-slug.ipynb              student version (no outputs)
    notebooks/en/solutions/NN-slug.ipynb    solution version (outputs when executed)
    notebooks/zh/...                        the same in Chinese

and, from minigrad.lessons.LESSONS, the course index `notebooks/{en,zh}/00-index.ipynb`.
Besides the prose, the languages differ only where the build makes them differ: each
notebook's heading and its closing "Next lesson" link (from LESSONS), the first code cell
(`minigrad.settings.lang`), code comments written `# English  # zh: 中文` in the source,
and Chinese prose lines joined where a line break would show as a space.

The wheel carries them as well (setup.py copies them into the package).
Every notebook opens with an "Open in Colab" link, and its first code cell
installs minigrad-tutor where minigrad is missing (Colab, JupyterLite) before
setting the language: from PyPI once pyproject.toml's [tool.minigrad-tutor]
on-pypi says it is there, until then from the repository on GitHub.  The script
also writes the parts of README.md and docs/teaching.md marked
`<!-- begin NAME -->` ... `<!-- end NAME -->`: the Binder links, the lesson table
with its Colab links and how to install minigrad-tutor, all made from the
repository named once, in pyproject.toml's [project.urls].
The student versions carry nbgrader's cell metadata (see `nbgrader_metadata`),
which nothing but nbgrader reads: `minigrad-tutor --nbgrader` makes a course
directory of them.

Usage::

    scripts/build-lessons.py                          # build every lesson
    scripts/build-lessons.py notebooks/sources/07-ctx-flags.py   # build some lessons
    scripts/build-lessons.py --execute      # ...and run the solution notebooks,
                                            # storing their outputs (for nbval)
    scripts/build-lessons.py --check        # exit 1, listing stale notebooks

A solution notebook keeps the outputs it already has while its code and prose
are unchanged, so a plain rebuild never throws away an execution; `--execute`
runs only the solution notebooks that changed or have no outputs yet
(`--force`: all of them).  `--check` compares sources, not outputs, and the
generated parts of the pages.  What an execution stores is sanitized as nbval
compares it (notebooks/nbval-sanitize.cfg): no path of the machine that ran it.
"""
import argparse
import copy
import pathlib
import re
import sys
import urllib.parse

import jupytext
import nbformat

try:
    import tomllib
except ModuleNotFoundError:        # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))           # minigrad.lessons: the titles, from this checkout
from minigrad.lessons import INDEX, LESSONS, YOUR_CODE_HERE      # noqa: E402
from minigrad.lessons.plan import PLAN, plan_line      # noqa: E402
BUILT = ROOT / "notebooks"
SOURCES = BUILT / "sources"
LANGS = ("en", "zh")
LANGUAGE_TAG = "minigrad-language"
BEGIN = re.compile(r"^(\s*)### BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*### END SOLUTION\s*$")
NOT_SOLVED = "raise NotImplementedError()"  # a stub's second line, under YOUR_CODE_HERE[lang]
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
EXECUTE_TIMEOUT = 300      # seconds per cell
BRANCH = "main"            # the branch Colab opens the notebooks from


class LessonError(ValueError):
    """A lesson source that breaks the contract (unpaired prose, unclosed solution block)."""


# --- one source -> four notebooks ------------------------------------------------------

def read_source(path):
    """The cells of a lesson source, checked: every en prose cell has its zh twin next."""
    notebook = jupytext.read(path, fmt="py:percent")
    cells = notebook.cells
    for index, cell in enumerate(cells):
        lang = cell.metadata.get("lang")
        if lang is not None and (cell.cell_type != "markdown" or lang not in LANGS):
            raise LessonError(f"{path.name}: cell {index}: lang={lang!r} is only for markdown "
                              f"cells, one of {LANGS}")
        following = cells[index + 1].metadata.get("lang") if index + 1 < len(cells) else None
        previous = cells[index - 1].metadata.get("lang") if index > 0 else None
        if lang == "en" and following != "zh":
            raise LessonError(f"{path.name}: cell {index}: an English prose cell must be "
                              f"followed by its Chinese twin (lang=\"zh\")")
        if lang == "zh" and previous != "en":
            raise LessonError(f"{path.name}: cell {index}: a Chinese prose cell must follow "
                              f"its English twin (lang=\"en\")")
    return cells


def solution_code(source):
    """The solution version: the code as written, without the BEGIN/END marker lines."""
    check_blocks(source)
    return "\n".join(line for line in source.split("\n")
                     if not BEGIN.match(line) and not END.match(line))


def student_code(source, lang="en"):
    """The student version: each solution block becomes a stub at the block's indentation,
    its comment in the lesson's language (nbgrader's stub too, minigrad.tutor.nbgrader)."""
    check_blocks(source)
    lines, inside = [], False
    for line in source.split("\n"):
        begin = BEGIN.match(line)
        if begin:
            indent, inside = begin.group(1), True
            lines += [indent + YOUR_CODE_HERE[lang], indent + NOT_SOLVED]
        elif END.match(line):
            inside = False
        elif not inside:
            lines.append(line)
    return "\n".join(lines)


def check_blocks(source):
    """Solution blocks must open and close in the same cell and must not nest."""
    inside = False
    for line in source.split("\n"):
        if BEGIN.match(line):
            if inside:
                raise LessonError(f"nested ### BEGIN SOLUTION in:\n{source}")
            inside = True
        elif END.match(line):
            if not inside:
                raise LessonError(f"### END SOLUTION without BEGIN in:\n{source}")
            inside = False
    if inside:
        raise LessonError(f"### BEGIN SOLUTION without END in:\n{source}")


# --- links: one repository, named in pyproject.toml ---------------------------------------

def pyproject():
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)


def repository():
    """"owner/name" of the GitHub repository: [project.urls] Repository in pyproject.toml."""
    url = pyproject()["project"]["urls"]["Repository"]
    match = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+?)/?", url)
    if not match:
        raise LessonError(f"pyproject.toml: Repository must be https://github.com/OWNER/NAME, "
                          f"not {url!r} (Binder and Colab open GitHub repositories)")
    return match.group(1)


def on_pypi():
    """Whether minigrad-tutor is on PyPI yet: [tool.minigrad-tutor] on-pypi in pyproject.toml,
    set after the first upload (docs/release.md).  Until then pip finds no distribution of that
    name, and the notebooks and the README install it from the repository instead."""
    return pyproject().get("tool", {}).get("minigrad-tutor", {}).get("on-pypi", False) is True


def git_requirement(extras=""):
    """minigrad-tutor as pip installs it from the repository's branch on GitHub."""
    return f"minigrad-tutor{extras} @ git+https://github.com/{repository()}@{BRANCH}"


def notebook_path(stem, lang, solution=False):
    """Where a built notebook sits in the repository, as a link writes it."""
    return f"notebooks/{lang}/{'solutions/' if solution else ''}{stem}.ipynb"


def colab_url(path):
    return f"https://colab.research.google.com/github/{repository()}/blob/{BRANCH}/{path}"


def binder_url(path, lang):
    """Binder opening `path` with JupyterLab's menus in `lang`: through the link of
    minigrad.tutor.lab_language (binder/postBuild enables it), which sets the language."""
    urlpath = urllib.parse.quote(f"minigrad/lab-language/{lang}?next=lab/tree/{path}", safe="")
    return f"https://mybinder.org/v2/gh/{repository()}/HEAD?urlpath={urlpath}"


# --- what the build adds to every notebook -------------------------------------------------

OPEN_IN_COLAB = {"en": "Open in Colab", "zh": "在 Colab 中打开"}

INSTALL_COMMENT = {
    "en": "# Colab and JupyterLite need minigrad installed first; elsewhere it already is.",
    "zh": "# 在 Colab 和 JupyterLite 里要先安装 minigrad；其他环境里已经装好了。",
}
FROM_THE_SITE = {"en": "# JupyterLite: the wheel its site carries",
                 "zh": "# JupyterLite：用网站自带的 wheel"}
FROM_GITHUB = {"en": "# Colab: not on PyPI yet, so from GitHub",
               "zh": "# Colab：还没有发布到 PyPI，所以从 GitHub 安装"}


def colab_cell(stem, lang, solution):
    """The notebook's first cell: a link that opens this very notebook in Colab.  A link,
    not Colab's badge: the badge is an image on Colab's server, broken where there is no
    network (the tutor on a laptop offline)."""
    url = colab_url(notebook_path(stem, lang, solution))
    return nbformat.v4.new_markdown_cell(f"**[{OPEN_IN_COLAB[lang]} ↗]({url})**")


def language_cell(lang):
    """The first code cell: installs minigrad where it is missing, then sets the language.

    Where minigrad imports (a clone, the tutor's workspace, Binder) it installs nothing;
    `%pip` is IPython's and JupyterLite's (piplite) own install command.  Until minigrad-tutor
    is on PyPI (`on_pypi`), Colab installs it from the repository on GitHub, while JupyterLite
    installs the wheel its site carries by name (piplite reads no git URL).  This and the
    comments are the only code that differs between the languages.
    """
    if on_pypi():
        install = "    %pip install --quiet minigrad-tutor\n"
    else:
        install = ("    import sys\n"
                   f'    if sys.platform == "emscripten":  {FROM_THE_SITE[lang]}\n'
                   "        %pip install --quiet minigrad-tutor\n"
                   f"    else:  {FROM_GITHUB[lang]}\n"
                   f'        %pip install --quiet "{git_requirement()}"\n')
    source = (f"{INSTALL_COMMENT[lang]}\n"
              "try:\n"
              "    import minigrad\n"
              "except ImportError:\n"
              f"{install}"
              "    import minigrad\n"
              f'minigrad.settings.lang = "{lang}"')
    return nbformat.v4.new_code_cell(source, metadata={"tags": [LANGUAGE_TAG]})


def build_notebook(cells, lang, solution, stem):
    """One notebook (a language, student or solution) from a lesson's source cells."""
    built = [colab_cell(stem, lang, solution)]
    for cell in cells:
        metadata = {key: copy.deepcopy(value) for key, value in cell.metadata.items()
                    if key != "lang"}
        if cell.cell_type == "markdown":
            if cell.metadata.get("lang", lang) == lang:
                text = prose_for(cell.source, lang)
                if len(built) == 1:                # the lesson's first prose cell: its title
                    text = heading(stem, lang) + text
                built.append(nbformat.v4.new_markdown_cell(text, metadata=metadata))
            continue
        if not any(c.cell_type == "code" for c in built):
            built.append(language_cell(lang))
        code = solution_code(cell.source) if solution else student_code(cell.source, lang)
        built.append(nbformat.v4.new_code_cell(comments_for(code, lang), metadata=metadata))
    built.append(nbformat.v4.new_markdown_cell(next_lesson_links(stem, lang, solution)))
    built[0].id = "open-in-colab"
    for number, cell in enumerate(built[1:]):
        cell.id = f"cell-{number:02d}"          # stable ids: rebuilding changes nothing
    for cell in built if not solution else ():
        cell.metadata["nbgrader"] = nbgrader_metadata(cell)
    notebook = nbformat.v4.new_notebook(cells=built)
    notebook.metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": {"name": "python"},
        "minigrad": {"lesson": stem, "lang": lang,
                     "version": "solution" if solution else "student"},
    }
    return notebook


# --- what differs between the languages (besides prose): built here, kept out of the sources

FULL_WIDTH = "\u2014\u2018\u2019\u201c\u201d\u2026\u3000-\u303f\uff00-\uffef"  # 。，：“”…
CJK = FULL_WIDTH + "\u3400-\u4dbf\u4e00-\u9fff"
ENDS_FULL_WIDTH = re.compile(rf"[{FULL_WIDTH}]\**$")
STARTS_FULL_WIDTH = re.compile(rf"\**[{FULL_WIDTH}]")
ENDS_CJK, STARTS_CJK = re.compile(rf"[{CJK}]\**$"), re.compile(rf"\**[{CJK}]")
STARTS_BLOCK = re.compile(r"[-*+] |\d+\. |[|#>]|\$\$")     # a list, table, heading, formula
ZH_COMMENT = re.compile(r"^(?P<code>.*)#(?P<en>[^#]*?)\s+# zh: (?P<zh>.*)$")
H1 = re.compile(r"^# ", re.MULTILINE)


def prose_for(text, lang):
    """A prose cell as the notebook shows it: in Chinese, lines joined where a break would
    show as a space between two characters (the sources keep short lines to read and diff)."""
    if H1.search(text):
        raise LessonError(f"a lesson's title comes from minigrad/lessons (LESSONS), not from "
                          f"its source:\n{text}")
    return join_chinese_lines(text) if lang == "zh" else text


def join_chinese_lines(text):
    """Join a paragraph's lines where Markdown would show the line break as a space in Chinese:
    next to full-width punctuation, or between two Chinese characters (emphasis markers around
    it allowed).  A break between Chinese and `code` or Latin words stays: a space is usual
    there.  Blank lines, headings, tables, lists and formulas keep their lines."""
    lines = []
    for line in text.split("\n"):
        previous = lines[-1].rstrip() if lines else ""
        following = line.lstrip()
        if (previous and following and not STARTS_BLOCK.match(following)
                and not previous.lstrip().startswith(("#", "|", "$$"))
                and (ENDS_FULL_WIDTH.search(previous) or STARTS_FULL_WIDTH.match(following)
                     or ENDS_CJK.search(previous) and STARTS_CJK.match(following))):
            lines[-1] = previous + following
        else:
            lines.append(line)
    return "\n".join(lines)


def comments_for(code, lang):
    """Code comments in the notebook's language: a source line `x = 1  # one  # zh: 一`
    becomes `x = 1  # one` in English and `x = 1  # 一` in Chinese; the code is the same."""
    lines = []
    for line in code.split("\n"):
        match = ZH_COMMENT.match(line)
        if match:
            text = " " + match["zh"] if lang == "zh" else match["en"].rstrip()
            line = f"{match['code']}#{text}"
        lines.append(line)
    return "\n".join(lines)


def lesson_info(stem):
    """The lesson named `stem` in minigrad.lessons.LESSONS (titles, what it teaches)."""
    for lesson in LESSONS:
        if lesson.slug == stem:
            return lesson
    raise LessonError(f"{stem} is not in minigrad.lessons.LESSONS: add it there first")


def heading(stem, lang):
    """The lesson's title, then its time and what it builds on (minigrad.lessons.plan)."""
    lesson = lesson_info(stem)
    if stem not in PLAN:
        raise LessonError(f"{stem} has no time and prerequisites in minigrad/lessons/plan.py")
    return f"# {lesson.number:02d} · {lesson.title(lang)}\n\n{plan_line(stem, lang)}\n\n"


def next_lesson_links(stem, lang, solution):
    """The last cell: a link to the next lesson and one to the course index."""
    lesson = lesson_info(stem)
    index = ("../" if solution else "") + f"{INDEX}.ipynb"
    later = [other for other in LESSONS if other.number == lesson.number + 1]
    if not later:
        return f"---\n\n**[{'回到课程目录' if lang == 'zh' else 'Back to the course index'}]({index})**"
    title = f"{later[0].number:02d} · {later[0].title(lang)}"
    if lang == "zh":
        return f"---\n\n**[下一讲：{title} →]({later[0].slug}.ipynb)** · [课程目录]({index})"
    return f"---\n\n**[Next lesson: {title} →]({later[0].slug}.ipynb)** · [Course index]({index})"


# --- the course index: one notebook per language, made from LESSONS -------------------

INDEX_TEXT = {
    "en": ("# minigrad · The course",
           f"The course's {len(LESSONS)} lessons open up PyTorch's autograd, with minigrad, a "
           "copy small enough to read. Take them in order: each builds on the one before. Click a lesson to open "
           "it; the exercises check themselves, and the cell at the end of this page shows "
           "which ones you have passed.",
           ("Lesson", "What you learn", "Exercises", "Time"),
           "## Your progress\n\nRun the cell below (Shift+Enter) to see the exercises you "
           "passed (✓), tried (✗) or have not tried yet (·). Run it again after working on a "
           "lesson."),
    "zh": ("# minigrad · 课程目录",
           f"这门课共 {len(LESSONS)} 讲，带你拆开 PyTorch 的 autograd，用的是 minigrad：一个小到能读懂的 autograd 副本。"
           "请按顺序学习，每一讲都以前一讲为基础。点击课程名即可打开；练习会自动检查，"
           "本页末尾的单元格显示你已经通过了哪些练习。",
           ("课程", "你会学到", "练习", "用时"),
           "## 你的进度\n\n运行下面的单元格（Shift+Enter），查看哪些练习已经通过（✓）、"
           "尝试过但还没通过（✗）或还没尝试（·）。学完一讲后再运行一次即可更新。"),
}


def build_index(lang):
    """The course index of one language: the lessons, what each teaches, its exercises,
    and a cell that shows the student's progress (minigrad.exercises.progress)."""
    title, intro, columns, progress = INDEX_TEXT[lang]
    rows = [f"| {' | '.join(columns)} |", "|---|---|---|---|"]
    minutes = "约 {} 分钟" if lang == "zh" else "{} min"
    for lesson in LESSONS:
        exercises = ("、" if lang == "zh" else ", ").join(f"`{e}`" for e in lesson.exercises)
        rows.append(f"| [{lesson.number:02d} · {lesson.title(lang)}]({lesson.slug}.ipynb) | "
                    f"{lesson.learn(lang)} | {exercises} | "
                    f"{minutes.format(PLAN[lesson.slug].minutes)} |")
    cells = [nbformat.v4.new_markdown_cell(f"{title}\n\n{intro}\n\n" + "\n".join(rows)),
             nbformat.v4.new_markdown_cell(progress),
             language_cell(lang),
             nbformat.v4.new_code_cell("from minigrad.exercises import progress\n\n"
                                       "progress()")]
    for number, cell in enumerate(cells):
        cell.id = f"cell-{number:02d}"
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"},
                         "minigrad": {"lesson": INDEX, "lang": lang, "version": "index"}}
    return notebook


def index_targets():
    """{path: notebook} of the course index in each language."""
    return {BUILT / lang / f"{INDEX}.ipynb": build_index(lang) for lang in LANGS}


# --- nbgrader: which cells of a student version are answers, checks, or the lesson ------

CHECK_LINE = re.compile(r'^check\("(?P<exercise>[a-z0-9_]+)", [^\n]*\)\Z', re.MULTILINE)
POINTS = 1                       # per exercise; a teacher changes them in nbgrader's source


def nbgrader_metadata(cell):
    """nbgrader's metadata (schema 3) for one cell of a student version.

    A cell with a stub is an answer (a solution cell); a cell that ends with
    `check("id", answer)` is graded, worth POINTS, named by the exercise id (it
    fails under nbgrader when the answer does not pass, see minigrad.exercises);
    every other cell, prose and given code, is locked: nbgrader puts it back as
    written before it grades.  Outside nbgrader the metadata does nothing.
    """
    metadata = {"grade": False, "grade_id": cell.id, "locked": True, "schema_version": 3,
                "solution": False, "task": False}
    check = CHECK_LINE.search(cell.source.strip())
    if cell.cell_type == "code" and any(stub in cell.source for stub in YOUR_CODE_HERE.values()):
        metadata.update(locked=False, solution=True)
    elif cell.cell_type == "code" and check:
        metadata.update(grade=True, grade_id=check["exercise"], points=POINTS)
    return metadata


def targets(source_path):
    """{output path: (lang, solution)} for one lesson source."""
    stem = source_path.stem
    out = {}
    for lang in LANGS:
        out[BUILT / lang / f"{stem}.ipynb"] = (lang, False)
        out[BUILT / lang / "solutions" / f"{stem}.ipynb"] = (lang, True)
    return out


def build_lesson(source_path):
    """{output path: notebook} for the four notebooks of one lesson (outputs empty)."""
    source_path = pathlib.Path(source_path)
    cells = read_source(source_path)
    return {path: build_notebook(cells, lang, solution, source_path.stem)
            for path, (lang, solution) in targets(source_path).items()}


# --- the generated parts of the pages ------------------------------------------------------

def readme_parts():
    """README.md: the Binder badges (on the course index), the lesson table with 24 Colab
    links, and how to install minigrad-tutor."""
    badges = (f"[![Launch the English lessons on Binder](https://mybinder.org/badge_logo.svg)]"
              f"({binder_url(notebook_path(INDEX, 'en'), 'en')})\nEnglish ·\n"
              f"[![在 Binder 上打开中文课程](https://mybinder.org/badge_logo.svg)]"
              f"({binder_url(notebook_path(INDEX, 'zh'), 'zh')})\n中文")
    rows = ["| # | Lesson | 课程 | Exercises · 练习 | Open in Colab · 在 Colab 中打开 |",
            "|---|---|---|---|---|"]
    for lesson in LESSONS:
        en, zh = notebook_path(lesson.slug, "en"), notebook_path(lesson.slug, "zh")
        exercises = ", ".join(f"`{name}`" for name in lesson.exercises) or "—"
        rows.append(f"| {lesson.number:02d} | [{lesson.title_en}]({en}) | [{lesson.title_zh}]({zh}) "
                    f"| {exercises} | [English]({colab_url(en)}) · [中文]({colab_url(zh)}) |")
    return {"binder-badges": badges, "lesson-table": "\n".join(rows), "install": install_part()}


def install_part():
    """README.md: how to install minigrad-tutor, from PyPI once it is there (`on_pypi`),
    until then from GitHub, a clone or a wheel built in one."""
    if on_pypi():
        return ('```bash\npip install "minigrad-tutor[tutor]"     # or [cuda], [widgets], ...\n'
                '```')
    version = pyproject()["project"]["version"]
    return ("minigrad-tutor is not on PyPI yet (`pip install minigrad-tutor` finds no "
            "distribution):\ninstall it from GitHub, from a clone, or from a wheel built in one "
            "(any extra, such as\n`[cuda]`, the same way).\n"
            "minigrad-tutor 还没有发布到 PyPI：请从 GitHub、克隆的仓库，或在克隆中构建的 wheel 安装"
            "（`[cuda]` 等其他附加依赖同理）。\n\n"
            "```bash\n"
            f'pip install "{git_requirement("[tutor]")}"\n'
            'pip install -e ".[tutor]"                        # in a clone\n'
            "pip wheel --no-deps --wheel-dir dist .           # a wheel, made in a clone, then\n"
            f'pip install "dist/minigrad_tutor-{version}-py3-none-any.whl[tutor]"\n'
            "```")


def teaching_parts():
    """docs/teaching.md: the Binder links of the course index."""
    return {"binder-links": f"- English: <{binder_url(notebook_path(INDEX, 'en'), 'en')}>\n"
                            f"- 中文：<{binder_url(notebook_path(INDEX, 'zh'), 'zh')}>"}


PAGES = {"README.md": readme_parts, "docs/teaching.md": teaching_parts}


def filled_page(name):
    """(text on disk, text with every generated part rewritten) of one page."""
    text = (ROOT / name).read_text(encoding="utf-8")
    filled = text
    for part, body in PAGES[name]().items():
        marked = re.compile(rf"(<!-- begin {part}\b[^>]*-->\n).*?(\n<!-- end {part} -->)", re.S)
        if not marked.search(filled):
            raise LessonError(f"{name}: no part marked <!-- begin {part} --> ... "
                              f"<!-- end {part} -->")
        filled = marked.sub(lambda match: match.group(1) + body + match.group(2), filled)
    return text, filled


def stale_pages():
    """Messages for every page whose generated parts differ from a fresh build."""
    problems = []
    for name in PAGES:
        text, filled = filled_page(name)
        if filled != text:
            problems.append(f"{name}: stale (its generated parts differ from a fresh build)")
    return problems


def write_pages(log=print):
    for name in PAGES:
        text, filled = filled_page(name)
        if filled != text:
            (ROOT / name).write_text(filled, encoding="utf-8")
            log(f"wrote {name}")


# --- comparing with what is on disk ----------------------------------------------------

def without_outputs(notebook):
    """A copy with outputs and execution counts cleared: what --check compares."""
    notebook = copy.deepcopy(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.metadata["language_info"] = {"name": "python"}
    return notebook


def same_sources(a, b):
    return nbformat.writes(without_outputs(a)) == nbformat.writes(without_outputs(b))


def has_outputs(notebook):
    return any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")


def read_existing(path):
    return nbformat.read(path, as_version=4) if path.exists() else None


def stale_notebooks(source_paths):
    """Messages for every built notebook that differs from a fresh build of its source."""
    problems = []
    for path, fresh in index_targets().items():
        existing = read_existing(path)
        if existing is None or not same_sources(existing, fresh) or has_outputs(existing):
            problems.append(f"{path.relative_to(ROOT)}: stale (rebuild)")
    for source_path in source_paths:
        for path, fresh in build_lesson(source_path).items():
            existing = read_existing(path)
            where = path.relative_to(ROOT)
            if existing is None:
                problems.append(f"{where}: missing")
            elif not same_sources(existing, fresh):
                problems.append(f"{where}: stale (rebuild from {source_path.name})")
            elif fresh.metadata["minigrad"]["version"] == "student" and has_outputs(existing):
                problems.append(f"{where}: a student notebook must be stored without outputs")
            elif fresh.metadata["minigrad"]["version"] == "solution" and not has_outputs(existing):
                problems.append(f"{where}: not executed (run with --execute)")
    return problems


# --- what an output says about the machine that ran it ------------------------------------

SANITIZER = BUILT / "nbval-sanitize.cfg"     # nbval rewrites both sides with it before comparing


def sanitizer_patterns(path=SANITIZER):
    """The (regex, replacement) pairs of nbval's sanitizer file, read as nbval reads them."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    return [(re.compile(regex), replace) for regex, replace
            in re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, flags=re.MULTILINE)]


def sanitize(text, patterns):
    """`text` with every pattern applied in turn, as nbval does to the outputs it compares."""
    for regex, replace in patterns:
        text = regex.sub(replace, text)
    return text


def sanitize_outputs(notebook, patterns=None):
    """The notebook with the text of every output sanitized (notebooks/nbval-sanitize.cfg): the
    paths of this machine's Python, packages and kernel files, and memory addresses, written the
    same on every machine, so that no stored or published output holds them."""
    patterns = sanitizer_patterns() if patterns is None else patterns
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if isinstance(output.get("text"), str):
                output["text"] = sanitize(output["text"], patterns)
            for kind, value in output.get("data", {}).items():
                if kind.startswith("text/") and isinstance(value, str):
                    output["data"][kind] = sanitize(value, patterns)
            if output.get("output_type") == "error":
                output["evalue"] = sanitize(output["evalue"], patterns)
                output["traceback"] = [sanitize(line, patterns) for line in output["traceback"]]
    return notebook


# --- executing solution notebooks ------------------------------------------------------

def execute(notebook, path):
    """Run a notebook top to bottom in a fresh kernel; its outputs, sanitized, are stored in
    place."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    path.parent.mkdir(parents=True, exist_ok=True)
    client = NotebookClient(notebook, timeout=EXECUTE_TIMEOUT, kernel_name="python3",
                            record_timing=False, store_widget_state=False, coalesce_streams=True,
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as error:        # the traceback, without colour codes
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error))
        raise LessonError(f"{path.relative_to(ROOT)} failed:\n{plain[-3000:]}") from None
    notebook.metadata["language_info"] = {"name": "python"}   # no python-version churn
    return sanitize_outputs(notebook)


def write(notebook, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(notebook) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
        return True
    return False


def build(source_paths, run=False, force=False, log=print):
    """Write the notebooks of `source_paths`; with `run`, execute changed solution notebooks."""
    unexecuted = []
    for path, fresh in index_targets().items():
        if write(fresh, path):
            log(f"wrote {path.relative_to(ROOT)}")
    for source_path in source_paths:
        for path, fresh in build_lesson(source_path).items():
            existing = read_existing(path)
            solution = fresh.metadata["minigrad"]["version"] == "solution"
            where = path.relative_to(ROOT)
            if solution:
                current = (existing is not None and same_sources(existing, fresh)
                           and has_outputs(existing))
                if current and not force:
                    fresh = existing                      # keep its outputs
                elif run:
                    log(f"executing {where} ...")
                    fresh = execute(fresh, path)
                else:
                    unexecuted.append(str(where))
            if write(fresh, path):
                log(f"wrote {where}")
    if unexecuted:
        log("not executed (run with --execute so nbval has outputs to compare):\n  "
            + "\n  ".join(unexecuted))
    return unexecuted


def lesson_sources(arguments):
    if not arguments:
        return sorted(SOURCES.glob("[0-9][0-9]-*.py"))
    paths = [pathlib.Path(argument).resolve() for argument in arguments]
    for path in paths:
        if not path.is_file():
            raise SystemExit(f"no lesson source {path}")
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="lesson sources (default: notebooks/sources/*.py)")
    parser.add_argument("--check", action="store_true",
                        help="build nothing; exit 1 listing notebooks that are stale")
    parser.add_argument("--execute", action="store_true",
                        help="run changed solution notebooks and store their outputs")
    parser.add_argument("--force", action="store_true",
                        help="with --execute: run every solution notebook, changed or not")
    options = parser.parse_args(argv)
    sources = lesson_sources(options.lessons)
    try:
        if options.check:
            problems = stale_notebooks(sources) + stale_pages()
            for problem in problems:
                print(problem)
            if problems:
                print(f"{len(problems)} file(s) out of date: run scripts/build-lessons.py "
                      f"--execute", file=sys.stderr)
                return 1
            print(f"{len(sources)} lesson(s): every notebook and page is up to date")
            return 0
        build(sources, run=options.execute, force=options.force)
        write_pages()
    except LessonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
