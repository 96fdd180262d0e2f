#!/usr/bin/env python3
"""Build the lesson notebooks from their one source of truth, `notebooks/sources/NN-slug.py`.

Each source is a jupytext "percent" script holding both languages: prose
cells come in pairs (`# %% [markdown] lang="en"` then its `lang="zh"` twin),
code cells are shared.  From one source this script writes four notebooks:

    notebooks/en/NN-slug.ipynb              student version (no outputs)
    notebooks/en/solutions/NN-slug.ipynb    solution version (outputs when executed)
    notebooks/zh/...                        the same in Chinese

The wheel carries them as well (setup.py copies them into the package).

Usage::

    scripts/build-lessons.py                          # build every lesson
    scripts/build-lessons.py notebooks/sources/06-ctx-flags.py   # build some lessons
    scripts/build-lessons.py --execute      # ...and run the solution notebooks,
                                            # storing their outputs (for nbval)
    scripts/build-lessons.py --check        # exit 1, listing stale notebooks

A solution notebook keeps the outputs it already has while its code and prose
are unchanged, so a plain rebuild never throws away an execution; `--execute`
runs only the solution notebooks that changed or have no outputs yet
(`--force`: all of them).  `--check` compares sources, not outputs.
"""
import argparse
import copy
import pathlib
import re
import sys

import jupytext
import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILT = ROOT / "notebooks"
SOURCES = BUILT / "sources"
LANGS = ("en", "zh")
LANGUAGE_TAG = "minigrad-language"
BEGIN = re.compile(r"^(\s*)### BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*### END SOLUTION\s*$")
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
EXECUTE_TIMEOUT = 300      # seconds per cell


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


def student_code(source):
    """The student version: each solution block becomes a stub at the block's indentation."""
    check_blocks(source)
    lines, inside = [], False
    for line in source.split("\n"):
        begin = BEGIN.match(line)
        if begin:
            indent, inside = begin.group(1), True
            lines += [f"{indent}# YOUR CODE HERE", f"{indent}raise NotImplementedError()"]
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


def language_cell(lang):
    """The first code cell of every notebook: the only code that differs between languages."""
    return nbformat.v4.new_code_cell(f'import minigrad\nminigrad.settings.lang = "{lang}"',
                                     metadata={"tags": [LANGUAGE_TAG]})


def build_notebook(cells, lang, solution, stem):
    """One notebook (a language, student or solution) from a lesson's source cells."""
    built = []
    for cell in cells:
        metadata = {key: copy.deepcopy(value) for key, value in cell.metadata.items()
                    if key != "lang"}
        if cell.cell_type == "markdown":
            if cell.metadata.get("lang", lang) == lang:
                built.append(nbformat.v4.new_markdown_cell(cell.source, metadata=metadata))
            continue
        if not any(c.cell_type == "code" for c in built):
            built.append(language_cell(lang))
        code = solution_code(cell.source) if solution else student_code(cell.source)
        built.append(nbformat.v4.new_code_cell(code, metadata=metadata))
    for number, cell in enumerate(built):
        cell.id = f"cell-{number:02d}"          # stable ids: rebuilding changes nothing
    notebook = nbformat.v4.new_notebook(cells=built)
    notebook.metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": {"name": "python"},
        "minigrad": {"lesson": stem, "lang": lang,
                     "version": "solution" if solution else "student"},
    }
    return notebook


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


# --- executing solution notebooks ------------------------------------------------------

def execute(notebook, path):
    """Run a notebook top to bottom in a fresh kernel; its outputs are stored in place."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    path.parent.mkdir(parents=True, exist_ok=True)
    client = NotebookClient(notebook, timeout=EXECUTE_TIMEOUT, kernel_name="python3",
                            record_timing=False, store_widget_state=False,
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as error:        # the traceback, without colour codes
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error))
        raise LessonError(f"{path.relative_to(ROOT)} failed:\n{plain[-3000:]}") from None
    notebook.metadata["language_info"] = {"name": "python"}   # no python-version churn
    return notebook


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
            problems = stale_notebooks(sources)
            for problem in problems:
                print(problem)
            if problems:
                print(f"{len(problems)} notebook(s) out of date: run scripts/build-lessons.py "
                      f"--execute", file=sys.stderr)
                return 1
            print(f"{len(sources)} lesson(s): every notebook is up to date")
            return 0
        build(sources, run=options.execute, force=options.force)
    except LessonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
