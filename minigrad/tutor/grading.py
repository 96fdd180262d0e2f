"""nbgrader's autograde, for minigrad's lessons: run in a sandbox, judged from outside it.

`minigrad-tutor --nbgrader DIR` writes an nbgrader_config.py whose autograde runs
`RestoreCells` before nbgrader's OverwriteCells, and `SandboxedGrading` where
nbgrader's own `Execute` would run the notebook:

1. the notebook to run is the teacher's, with the student's answers in it:
   `RestoreCells` puts back the nbgrader flags of the teacher's cells and the
   locked code cells a student deleted, then nbgrader's OverwriteCells puts
   back their code (and, with add_missing_cells, deleted graded cells);
2. its code cells run in a fresh sandboxed process (minigrad.tutor.sandbox),
   each with a time limit, where every `check(...)` reports the check's
   diagnosis and, for a pass, what the exercise's trial saw the answer do on
   inputs drawn from a seed chosen here, just now;
3. this process judges each graded cell: the cell scores when its check
   passed there *and* the trial's report is what minigrad's built-in ops give
   for those inputs (minigrad.exercises.judge_report).  Nothing the notebook
   does decides that: not the name `check`, not minigrad as the notebook's
   process holds it, not its environment variables or its printed ✓, not
   exceptions it swallows; a worker that lies can only report what a right
   answer computes.  The graded cell's outputs become that verdict alone: a ✓
   line, or an error (what nbgrader scores 0) with the hint in the lesson's
   language, or what stopped the cell (a time limit, os._exit, a crash).

Other cells keep what they printed, as plain text and images (no HTML or
script of the student's reaches the teacher's browser).  Why this shape, and
what is left to the platform, is in docs/teaching.md ("Grading with nbgrader").
"""
import ast
import re
import secrets

import nbformat
from traitlets import Dict, Enum, Float, Integer, Unicode

from minigrad.exercises import EXERCISES, Result, _messages, _trial, judge_report
from minigrad.tutor import sandbox

try:                                           # nbgrader is installed where a teacher grades
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.preprocessors import NbGraderPreprocessor
except ImportError:                            # pragma: no cover - a student's install
    from nbconvert.preprocessors import Preprocessor as NbGraderPreprocessor
    Gradebook = MissingEntry = CourseDirectory = None

MESSAGES = {
    "en": {
        "timeout": "This cell ran longer than {detail} s and was stopped.",
        "exit": "This cell ended the notebook's Python process (exit code {detail}), e.g. with "
                "os._exit() or a crash of a library.",
        "signal": "This cell crashed the notebook's Python process ({detail}).",
        "output": "This cell printed more than {detail} MB, and was stopped.",
        "garbled": "This cell wrote something the grader could not read where the notebook "
                   "talks to it, and was stopped.",
        "not_run": "This cell did not run: the notebook used up its time, or stopped too often.",
        "went_on": "The cells after it ran in a new Python process, without this cell.",
        "check_missing": "The check in this cell did not run: the cell did not call minigrad's "
                         "check (was `check` defined again, or the cell's code changed?).",
        "check_not_reached": "The cell raised {error} before its check could run.",
        "stopped_above": "A cell above was stopped (its message says why): what it defines is "
                         "missing here.",
        "cell_raised": "The cell raised {error}.",
    },
    "zh": {
        "timeout": "这个单元格运行超过了 {detail} 秒，已被中止。",
        "exit": "这个单元格结束了笔记本的 Python 进程（退出码 {detail}），比如调用了 os._exit()，"
                "或者某个库崩溃了。",
        "signal": "这个单元格让笔记本的 Python 进程崩溃了（{detail}）。",
        "output": "这个单元格输出了超过 {detail} MB 的内容，已被中止。",
        "garbled": "这个单元格往笔记本与评分程序通信的通道里写入了评分程序读不懂的内容，已被中止。",
        "not_run": "这个单元格没有运行：笔记本用完了它的时间，或者中止的次数太多。",
        "went_on": "后面的单元格在一个新的 Python 进程中运行，没有运行这个单元格。",
        "check_missing": "这个单元格里的检查没有运行：这个单元格没有调用 minigrad 的 check"
                         "（是不是重新定义了 `check`，或者改动了这个单元格的代码？）。",
        "check_not_reached": "这个单元格在检查运行之前就抛出了异常 {error}。",
        "stopped_above": "上面有一个单元格被中止了（它的提示说明了原因）：它定义的东西在这里不存在。",
        "cell_raised": "这个单元格抛出了异常 {error}。",
    },
}
_LESSON_LANG = re.compile(r"""^minigrad\.settings\.lang = ["'](en|zh)["']$""", re.MULTILINE)
MAX_TEXT = 20_000            # characters of one output shown in the graded notebook
MAX_IMAGE = 2 * 2 ** 20      # bytes of one image


class SandboxedGrading(NbGraderPreprocessor):
    """Runs a submitted notebook in a sandbox and scores its graded cells from outside it
    (in nbgrader's `Autograde.autograde_preprocessors`, in place of `Execute`)."""

    sandbox = Enum(sandbox.SANDBOXES, default_value="bwrap",
                   help="bwrap: bubblewrap (Linux); none: no sandbox (inside a container made "
                        "for grading only)").tag(config=True)
    cell_timeout = Float(10.0, help="seconds a cell may run").tag(config=True)
    cell_timeouts = Dict(help="seconds a cell may run, by assignment, where it differs "
                              "(lesson 16 trains a small network)").tag(config=True)
    check_timeout = Float(5.0, help="seconds a check gives the answer, twice per graded "
                                    "cell (its diagnosis and its trial)").tag(config=True)
    notebook_timeout = Float(300.0, help="seconds a whole notebook may run").tag(config=True)
    memory_limit = Integer(4 * 2 ** 30, help="bytes of address space").tag(config=True)
    lang = Unicode("", help="the feedback's language, en or zh (default: the lesson's)"
                   ).tag(config=True)

    def preprocess(self, nb, resources):
        info = resources.get("nbgrader", {})
        code = [(index, cell) for index, cell in enumerate(nb.cells) if cell.cell_type == "code"]
        graded = {index: check_calls(cell.source) for index, cell in code if _is_grade(cell)}
        seeds = {exercise: secrets.randbits(32) for calls in graded.values() for exercise in calls
                 if exercise in EXERCISES}
        cells = [{"index": index, "source": cell.source, "graded": index in graded}
                 for index, cell in code]
        seconds = float(self.cell_timeouts.get(info.get("assignment"), self.cell_timeout))
        limits = sandbox.Limits(cell=seconds, graded=seconds + 2 * self.check_timeout,
                                total=self.notebook_timeout, memory=self.memory_limit)
        folder = resources.get("metadata", {}).get("path") or "."
        runs = sandbox.run_notebook(cells, seeds, folder, limits, self.sandbox,
                                    hidden=self.hidden_paths(info), check_timeout=self.check_timeout)
        lang = self.lang or lesson_language(nb)
        stopped = False                  # whether a cell above was stopped
        for index, cell in code:
            run = runs[index]
            if index in graded:
                cell.outputs = verdict_outputs(graded[index], run, seeds, lang, stopped,
                                               cell.metadata["nbgrader"].get("grade_id", ""))
            else:
                cell.outputs = shown_outputs(run.outputs) + ended_outputs(run, lang)
            cell.execution_count = None
            stopped = stopped or run.ended is not None
        return nb, resources

    def hidden_paths(self, info):
        """What the sandbox must never show: the course folder and the gradebook."""
        paths = []
        if CourseDirectory is not None:
            paths.append(CourseDirectory(config=self.config).root)
        url = info.get("db_url", "")
        if url.startswith("sqlite:///"):
            paths.append(url[len("sqlite:///"):])
        return paths


class RestoreCells(NbGraderPreprocessor):
    """Puts back what a submission changed of the teacher's cells, before nbgrader's
    OverwriteCells (in `Autograde.sanitize_preprocessors`): each cell that names one of the
    teacher's cells (its grade_id) gets that cell's nbgrader flags back from the gradebook
    (graded, answer, locked, points: OverwriteCells restores a cell's source, but stops the
    whole submission when only its flags were changed), a cell naming no cell of the
    teacher's is an ordinary cell, and a deleted locked code cell comes back in its place."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gradebook:
            try:
                notebook = gradebook.find_notebook(info["notebook"], info["assignment"])
            except MissingEntry:
                return nb, resources
            teachers = list(notebook.source_cells)
            points = {cell.name: cell.max_score for cell in notebook.grade_cells}
            answers = {cell.name for cell in notebook.solution_cells}
            tasks = {cell.name for cell in notebook.task_cells}
            by_name = {cell.name: cell for cell in teachers}
            for cell in nb.cells:
                name = cell.metadata.get("nbgrader", {}).get("grade_id")
                if name not in by_name:
                    cell.metadata.pop("nbgrader", None)
                    continue
                flags = {"grade": name in points, "grade_id": name,
                         "locked": by_name[name].locked, "schema_version": 3,
                         "solution": name in answers, "task": name in tasks}
                if name in points:
                    flags["points"] = points[name]
                cell.metadata["nbgrader"] = flags
            _put_back_locked_cells(nb, teachers, points)
        return nb, resources


def _put_back_locked_cells(nb, teachers, graded):
    """The teacher's locked code cells missing from `nb`, each inserted after the teacher's
    cell before it (graded cells are nbgrader's: OverwriteCells.add_missing_cells)."""
    def place(name):
        return next((index for index, cell in enumerate(nb.cells)
                     if cell.metadata.get("nbgrader", {}).get("grade_id") == name), None)
    after = -1
    for teacher in teachers:
        found = place(teacher.name)
        if found is not None:
            after = found
        elif teacher.cell_type == "code" and teacher.locked and teacher.name not in graded:
            cell = nbformat.v4.new_code_cell(teacher.source)
            cell.metadata["nbgrader"] = {"grade": False, "grade_id": teacher.name, "locked": True,
                                         "schema_version": 3, "solution": False, "task": False,
                                         "checksum": teacher.checksum}
            after += 1
            nb.cells.insert(after, cell)


def _is_grade(cell):
    return bool(cell.metadata.get("nbgrader", {}).get("grade"))


def check_calls(source):
    """The exercise ids of the `check("id", ...)` calls of a graded cell, in order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "check" and node.args
             and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]
    return [call.args[0].value for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset))]


def lesson_language(nb):
    """The language the lesson sets in its first cells (minigrad.settings.lang = "zh")."""
    for cell in nb.cells:
        found = _LESSON_LANG.search(cell.source) if cell.cell_type == "code" else None
        if found:
            return found[1]
    return "en"


def say(lang, key, **params):
    return MESSAGES[lang if lang in MESSAGES else "en"][key].format(**params)


def verdict_outputs(exercises, run, seeds, lang, stopped_above=False, name=""):
    """A graded cell's outputs: the verdict on each of its checks, as nbgrader scores it
    (any error output: 0 points; else full points).  `name`: the cell's, for a verdict that
    is no check's."""
    results = []
    records = [record for record in run.checks if isinstance(record, dict)]
    for exercise in exercises:
        record = next((r for r in records if r.get("id") == exercise), None)
        if record is not None:
            records.remove(record)
        results.append(judge(exercise, record, run, seeds.get(exercise), lang, stopped_above))
    if not exercises:                      # a cell of the teacher's own asserts
        results.append(_cell_result(run, lang, name))
    if run.error and all(result.passed for result in results) and run.ended is None:
        results.append(_failed(name, say(lang, "cell_raised", error=_error_text(run)), lang))
    if all(result.passed for result in results):
        return [nbformat.v4.new_output("display_data", data={
            "text/plain": "\n".join(repr(r) for r in results),
            "text/html": "".join(r._repr_html_() for r in results)})]
    shown = [r for r in results if not r.passed]
    return [nbformat.v4.new_output("error", ename="NotPassed",
                                   evalue="\n\n".join(r.message for r in shown),
                                   traceback=[repr(r) for r in shown])]


def judge(exercise, record, run, seed, lang, stopped_above=False):
    """The verdict on one check of a graded cell, from what the sandbox reported."""
    if run.ended is not None:
        return _failed(exercise, _ended_text(run, lang), lang)
    if record is None or exercise not in EXERCISES:
        text = (say(lang, "check_not_reached", error=_error_text(run)) if run.error
                else say(lang, "check_missing"))
        if stopped_above:
            text += "\n" + say(lang, "stopped_above")
        return _failed(exercise, text, lang)
    status = record.get("status")
    if status == "passed":
        return judge_report(exercise, record.get("report"), seed, lang)
    if status == "not_solved":
        return Result(exercise, "not_solved", _messages.text("not_solved", lang), lang=lang)
    try:
        hint = _trial.reported_hint({"key": record.get("hint"), "params": record.get("params")})
        text = _messages.text(hint.key, lang, **hint.params)
    except (_trial.Unreadable, TypeError):
        text = _messages.text("trial_unreadable", lang)
    return _failed(exercise, text, lang)


def _failed(exercise, text, lang):
    return Result(exercise, "failed", text, lang=lang)


def _cell_result(run, lang, name):
    if run.ended is not None:
        return _failed(name, _ended_text(run, lang), lang)
    if run.error:
        return _failed(name, say(lang, "cell_raised", error=_error_text(run)), lang)
    return Result(name, "passed", _messages.text("passed", lang), lang=lang)


def _ended_text(run, lang):
    reason, detail = run.ended
    text = say(lang, reason if reason in MESSAGES["en"] else "garbled", detail=detail)
    return text if reason == "not_run" else f"{text} {say(lang, 'went_on')}"


def _error_text(run):
    error = next((o for o in run.outputs if isinstance(o, dict) and o.get("output_type") == "error"),
                 {})
    name, value = str(error.get("ename", "an error"))[:80], str(error.get("evalue", ""))[:300]
    return f"{name}: {value}" if value else name


def ended_outputs(run, lang):
    """What stopped a cell, said in the cell (it scores nothing either way)."""
    if run.ended is None:
        return []
    text = _ended_text(run, lang)
    return [nbformat.v4.new_output("error", ename="Stopped", evalue=text, traceback=[text])]


def shown_outputs(outputs):
    """The outputs a cell produced in the sandbox, as plain text and images only: streams,
    errors, and the text/plain and image/png of displayed values."""
    shown = []
    for output in outputs if isinstance(outputs, list) else []:
        if not isinstance(output, dict):
            continue
        kind = output.get("output_type")
        if kind == "stream" and output.get("name") in ("stdout", "stderr"):
            shown.append(nbformat.v4.new_output("stream", name=output["name"],
                                                text=_text(output.get("text"))))
        elif kind == "error":
            traceback = output.get("traceback")
            lines = [_text(line) for line in traceback[:200]] if isinstance(traceback, list) else []
            shown.append(nbformat.v4.new_output("error", ename=_text(output.get("ename"))[:200],
                                                evalue=_text(output.get("evalue")),
                                                traceback=lines))
        elif kind in ("display_data", "execute_result") and isinstance(output.get("data"), dict):
            data = {}
            if isinstance(output["data"].get("text/plain"), str):
                data["text/plain"] = _text(output["data"]["text/plain"])
            image = output["data"].get("image/png")
            if isinstance(image, str) and len(image) <= MAX_IMAGE and re.fullmatch(
                    r"[A-Za-z0-9+/=\s]*", image):
                data["image/png"] = image
            if data:
                shown.append(nbformat.v4.new_output("display_data", data=data))
    return shown


def _text(value):
    text = value if isinstance(value, str) else ""
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "\n..."
