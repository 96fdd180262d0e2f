"""What the notebooks call on besides the engine: labels in the lesson's language, a font
for Chinese plot labels, and the student's progress through the course.

The code cells of a lesson are the same in both languages; only the first
cell sets `minigrad.settings.lang`.  A printed label that is words rather
than code names both texts, and the lesson's language picks one::

    >>> import minigrad
    >>> from minigrad.lessons.course import say
    >>> minigrad.settings.lang = "zh"
    >>> say("by hand:", "手算：")
    '手算：'
    >>> minigrad.settings.lang = None
"""
import html

from .. import progress, settings

__all__ = ["say", "plot_font", "course_progress"]

# Fonts with Chinese characters, most common first: Windows, macOS, Linux.
CHINESE_FONTS = ("Microsoft YaHei", "SimHei", "PingFang SC", "Hiragino Sans GB", "Heiti SC",
                 "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
                 "WenQuanYi Zen Hei")


def say(en, zh, lang=None):
    """`en` or `zh`, whichever is the lesson's language (`lang`, else minigrad.settings.lang)."""
    return zh if settings.resolve_lang(lang) == "zh" else en


def plot_font():
    """Let matplotlib draw the lesson's language: in Chinese, put the first installed font
    that has Chinese characters ahead of matplotlib's own (which has none).  Returns the
    font's name, or None (English, or no such font: the labels would show as boxes)."""
    if settings.resolve_lang() != "zh":
        return None
    from matplotlib import font_manager, rcParams
    installed = {font.name for font in font_manager.fontManager.ttflist}
    for name in CHINESE_FONTS:
        if name in installed:
            rcParams["font.sans-serif"] = [name, *rcParams["font.sans-serif"]]
            rcParams["font.family"] = "sans-serif"
            rcParams["axes.unicode_minus"] = False      # "-" drawn with the font's hyphen
            return name
    return None


def course_progress(lang=None, workspace=None):
    """The lessons with each exercise passed (✓), tried (✗) or not tried yet (·).

    Progress comes from the workspace's minigrad-progress.json (minigrad.progress),
    the file every check() writes; in Jupyter the result shows as a table.
    """
    lang = settings.resolve_lang(lang)
    folder = workspace or progress.find_workspace()
    return CourseProgress(progress.load(folder) if folder else {}, lang, folder is not None)


class CourseProgress:
    """Per lesson: its title and the marks of its exercises; text in Python, a table in Jupyter."""

    def __init__(self, entries, lang, in_workspace):
        from . import LESSONS
        self.lang, self.in_workspace = lang, in_workspace
        self.rows = [(lesson, [(exercise, _mark(entries.get(exercise)))
                               for exercise in lesson.exercises]) for lesson in LESSONS]

    @property
    def passed(self):
        return sum(mark == "✓" for _, marks in self.rows for _, mark in marks)

    @property
    def total(self):
        return sum(len(marks) for _, marks in self.rows)

    def summary(self):
        if not self.in_workspace:
            return say("Progress is recorded in a minigrad-tutor workspace only "
                                     "(this folder is not one).",
                          "只有在 minigrad-tutor 的工作区里才会记录进度（这个文件夹不是工作区）。", self.lang)
        return say(f"Exercises passed: {self.passed} of {self.total}",
                      f"已通过的练习：{self.passed} / {self.total}", self.lang)

    def __repr__(self):
        lines = [self.summary()]
        for lesson, marks in self.rows:
            done = "  ".join(f"{mark} {exercise}" for exercise, mark in marks)
            lines.append(f"{lesson.number:02d} {lesson.title(self.lang)}  {done}")
        return "\n".join(lines)

    def _repr_html_(self):
        head = say(("Lesson", "Exercises", "Passed"), ("课程", "练习", "已通过"), self.lang)
        rows = []
        for lesson, marks in self.rows:
            done = " ".join(f"{mark}&nbsp;<code>{html.escape(exercise)}</code>"
                            for exercise, mark in marks)
            count = sum(mark == "✓" for _, mark in marks)
            title = html.escape(f"{lesson.number:02d} · {lesson.title(self.lang)}")
            rows.append(f'<tr><td style="text-align:left"><a href="{lesson.slug}.ipynb">{title}'
                        f'</a></td><td style="text-align:left">{done}</td>'
                        f'<td style="text-align:left">{count} / {len(marks)}</td></tr>')
        header = "".join(f'<th style="text-align:left">{html.escape(cell)}</th>' for cell in head)
        return (f"<p><b>{html.escape(self.summary())}</b></p><table><thead><tr>{header}</tr>"
                f"</thead><tbody>{''.join(rows)}</tbody></table>"
                f"<p>✓ {say('passed', '已通过', self.lang)} &emsp; ✗ "
                f"{say('tried, not passed yet', '尝试过，还没通过', self.lang)} &emsp; · "
                f"{say('not tried yet', '还没尝试', self.lang)}</p>")


def _mark(entry):
    if not entry:
        return "·"
    return "✓" if entry.get("passed") else "✗"
