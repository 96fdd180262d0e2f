"""Where a student stands: `minigrad.exercises.progress()` in a notebook.

It reads the workspace's progress file (see minigrad/progress.py, where each
`check` records its result) and lists, lesson by lesson, every exercise: ✓
passed (and when), ✗ tried but not passed yet (and how often), · not tried;
then the next one to do.  In Jupyter it shows as a table; in plain Python its
repr is the same as text.

Example::

    >>> import pathlib, tempfile
    >>> from minigrad import progress as progress_file
    >>> from minigrad.exercises import progress
    >>> workspace = pathlib.Path(tempfile.mkdtemp())
    >>> _ = progress_file.record("graph_edges", True, workspace)
    >>> for line in repr(progress(lang="en", workspace=workspace)).splitlines()[:3]:  # doctest: +ELLIPSIS
    ...     print(line)
    Your progress: 1 of ... exercises passed
    Lesson 1: Tensors and the graph
      ✓  graph_edges  passed ...
"""
import html

from .. import progress as progress_file
from .. import settings
from ..syllabus import LESSONS
from .registry import EXERCISES

MESSAGES = {
    "overview_title": {
        "en": "Your progress: {passed} of {total} exercises passed",
        "zh": "你的进度：{total} 道练习中已通过 {passed} 道"},
    "overview_lesson": {
        "en": "Lesson {number}: {title}",
        "zh": "第 {number} 课：{title}"},
    "overview_passed": {
        "en": "passed {when}",
        "zh": "{when} 通过"},
    "overview_attempts": {
        "en": "{count} attempt(s), not passed yet",
        "zh": "尝试了 {count} 次，还没有通过"},
    "overview_untried": {
        "en": "not tried yet",
        "zh": "还没有尝试"},
    "overview_next": {
        "en": "Next: {exercise}, in lesson {number}.",
        "zh": "下一道：第 {number} 课的 {exercise}。"},
    "overview_all_passed": {
        "en": "Every exercise passed. Well done!",
        "zh": "所有练习都通过了，干得漂亮！"},
    "overview_no_workspace": {
        "en": "This notebook is not in a lesson workspace, so checks are not recorded here. "
              "Open the lessons with the tutor to keep your progress: scripts/start-tutor.sh "
              "in a copy of minigrad's repository, or minigrad-tutor where minigrad-tutor was "
              "installed with pip.",
        "zh": "这个笔记本不在课程工作区里，所以这里的检查结果不会被记录。"
              "用课程启动器打开课程，就能保存你的进度：在 minigrad 代码仓库的副本里运行 "
              "scripts/start-tutor.sh，用 pip 安装了 minigrad-tutor 的话就运行 minigrad-tutor。"},
    "overview_damaged": {
        "en": "Your progress file {file} is damaged: what could be read is shown. The next "
              "check keeps the file as a backup and starts a new one.",
        "zh": "你的进度文件 {file} 已损坏，下面只列出能读出的部分。下一次检查时会把它另存为备份，"
              "并开始记录新的进度。"},
}

_MARKS = {"passed": "✓", "tried": "✗", "untried": "·"}
_COLOURS = {"passed": "#2e7d32", "tried": "#c62828", "untried": "#757575"}
_LEFT = "text-align: left;"          # JupyterLab right-aligns table cells


def progress(lang=None, workspace=None):
    """Your exercises, lesson by lesson: passed, tried, or not tried yet.

    Args:
        lang: "en" or "zh"; None uses minigrad.settings.lang (the lesson's language).
        workspace: the lesson workspace; None finds the one around this notebook.

    Returns:
        an Overview, shown as a table in Jupyter and as text by print().
    """
    lang = settings.resolve_lang(lang)
    workspace = workspace or progress_file.find_workspace()
    if workspace is None:
        return Overview(lang, [], [_text("overview_no_workspace", lang)])
    entries, damaged = progress_file.read(workspace)
    return Overview(lang, _lessons(entries, lang),
                    [_text("overview_damaged", lang, file=progress_file.FILENAME)] if damaged else [])


def _lessons(entries, lang):
    """[(number, title, [(exercise id, description, state, detail)])] in lesson order."""
    lessons = []
    for lesson in LESSONS:
        rows = []
        for exercise in lesson.exercises:
            entry = entries.get(exercise, {})
            if entry.get("passed"):
                when = entry.get("first_passed", "").replace("T", " ")[:16]
                state, detail = "passed", _text("overview_passed", lang, when=when)
            elif entry.get("attempts"):
                state, detail = "tried", _text("overview_attempts", lang, count=entry["attempts"])
            else:
                state, detail = "untried", _text("overview_untried", lang)
            rows.append((exercise, EXERCISES[exercise][lang], state, detail))
        if rows:
            lessons.append((lesson.number, lesson.title(lang), rows))
    return lessons


class Overview:
    """The student's progress: `lessons` [(number, title, rows)] and `notices` (text)."""

    def __init__(self, lang, lessons, notices):
        self.lang, self.lessons, self.notices = lang, lessons, notices

    @property
    def passed(self):
        return sum(state == "passed" for *_, rows in self.lessons for _, _, state, _ in rows)

    @property
    def total(self):
        return sum(len(rows) for *_, rows in self.lessons)

    def _summary(self):
        """The title line and the closing line (the next exercise), or nothing at all."""
        if not self.lessons:
            return None, None
        title = _text("overview_title", self.lang, passed=self.passed, total=self.total)
        for number, _, rows in self.lessons:
            for exercise, _, state, _ in rows:
                if state != "passed":
                    return title, _text("overview_next", self.lang, exercise=exercise,
                                        number=number)
        return title, _text("overview_all_passed", self.lang)

    def __repr__(self):
        title, closing = self._summary()
        lines = [*self.notices] + ([title] if title else [])
        for number, lesson_title, rows in self.lessons:
            lines.append(_text("overview_lesson", self.lang, number=number, title=lesson_title))
            width = max(len(exercise) for exercise, *_ in rows)
            lines.extend(f"  {_MARKS[state]}  {exercise:<{width}}  {detail}"
                         for exercise, _, state, detail in rows)
        return "\n".join(lines + ([closing] if closing else []))

    def _repr_html_(self):
        title, closing = self._summary()
        parts = [f"<p>{html.escape(notice)}</p>" for notice in self.notices]
        if title:
            parts.append(f"<p><b>{html.escape(title)}</b></p>")
        if self.lessons:
            slugs = {lesson.number: lesson.slug for lesson in LESSONS}
            parts.append('<table style="border-collapse: collapse;">')
            for number, lesson_title, rows in self.lessons:
                heading = _text("overview_lesson", self.lang, number=number, title=lesson_title)
                parts.append(f'<tr><th colspan="4" style="text-align: left; padding-top: 0.6em;">'
                             f'<a href="{slugs[number]}.ipynb">{html.escape(heading)}</a>'
                             '</th></tr>')   # the notebooks sit side by side in a workspace
                parts.extend(
                    f'<tr><td style="{_LEFT} color: {_COLOURS[state]}; font-weight: bold;">'
                    f'{_MARKS[state]}</td><td style="{_LEFT}"><code>{html.escape(exercise)}</code>'
                    f'</td><td style="{_LEFT}">{html.escape(description)}</td>'
                    f'<td style="{_LEFT} white-space: nowrap; color: {_COLOURS[state]};">'
                    f'{html.escape(detail)}</td></tr>'
                    for exercise, description, state, detail in rows)
            parts.append("</table>")
        if closing:
            parts.append(f"<p>{html.escape(closing)}</p>")
        return "<div>" + "".join(parts) + "</div>"


def _text(key, lang, **params):
    return MESSAGES[key][lang].format(**params)
