"""How long each lesson takes and what it builds on: the line under each lesson's title.

`scripts/build-lessons.py` writes it into every notebook, in the notebook's
language, from this table; the course index shows the times too.  A lesson
builds on earlier lessons (by slug, so that the line follows when lessons are
renumbered) and on what a student brings from elsewhere::

    >>> from minigrad.lessons.plan import PLAN, plan_line
    >>> PLAN["04-custom-functions"].minutes
    100
    >>> print(plan_line("04-custom-functions", "en"))      # doctest: +ELLIPSIS
    **Time:** about 100 minutes · **Before it:** [01 · Tensors and the graph](01-...
"""
from typing import NamedTuple

__all__ = ["Plan", "PLAN", "plan_line"]


class Plan(NamedTuple):
    """A lesson's time in minutes (working through it, exercises included), the lessons
    it builds on (slugs), and what else it assumes, in each language ('' for nothing)."""
    minutes: int
    after: tuple = ()
    know_en: str = ""
    know_zh: str = ""


PLAN = {
    "01-tensors-and-the-graph": Plan(
        60, (),
        "Python (functions, lists, dicts); numpy arrays and their shapes; derivatives, "
        "partial derivatives and the chain rule",
        "Python（函数、列表、字典）；numpy 数组及其形状；导数、偏导数与链式法则"),
    "02-out-of-the-graph": Plan(
        60, ("01-tensors-and-the-graph",),
        "Python `with` blocks and `if`/`while`; gradient descent",
        "Python 的 `with` 语句块与 `if`/`while`；梯度下降"),
    "03-backward-order": Plan(
        85, ("01-tensors-and-the-graph",),
        "Python loops and dicts (a heap, `heapq`, is explained here)",
        "Python 的循环与字典（堆 `heapq` 会在本讲里讲）"),
    "04-custom-functions": Plan(
        100, ("01-tensors-and-the-graph", "03-backward-order"),
        "Python classes and `@staticmethod`; matrix products and transposes; numpy "
        "broadcasting",
        "Python 的类与 `@staticmethod`；矩阵乘法与转置；numpy 的广播"),
    "05-saving-tensors": Plan(45, ("04-custom-functions",)),
    "06-inplace-and-versions": Plan(
        40, ("02-out-of-the-graph", "05-saving-tensors"),
        "numpy views (a slice shares its array's memory)",
        "numpy 的视图（切片与原数组共享内存）"),
    "07-ctx-flags": Plan(50, ("04-custom-functions", "05-saving-tensors"),
                         "`argmax`; matrix products", "`argmax`；矩阵乘法"),
    "08-hooks": Plan(
        70, ("03-backward-order", "05-saving-tensors", "06-inplace-and-versions"),
        "Python functions passed as arguments (`lambda`, closures) and `with` blocks",
        "把函数当作参数传递（`lambda`、闭包）以及 `with` 语句块"),
    "09-memory": Plan(
        60, ("04-custom-functions", "05-saving-tensors", "08-hooks"),
        "bytes, dtypes and `nbytes` of numpy arrays", "numpy 数组的字节数、dtype 与 `nbytes`"),
    "10-retain-graph-and-debugging": Plan(
        45, ("02-out-of-the-graph", "05-saving-tensors", "06-inplace-and-versions"),
        "NaN and infinity in floating point", "浮点数里的 NaN 与无穷大"),
    "11-bug-hunts": Plan(
        75, ("06-inplace-and-versions", "10-retain-graph-and-debugging"),
        "logarithms and exponentials; NaN and infinity in floating point",
        "对数与指数；浮点数里的 NaN 与无穷大"),
    "12-higher-order": Plan(50, ("04-custom-functions", "05-saving-tensors"),
                            "second derivatives; Newton's method", "二阶导数；牛顿法"),
    "13-double-backward": Plan(
        75, ("04-custom-functions", "12-higher-order"),
        "second derivatives, Jacobian and Hessian matrices",
        "二阶导数、雅可比矩阵与 Hessian 矩阵"),
    "14-forward-mode": Plan(65, ("01-tensors-and-the-graph", "04-custom-functions"),
                            "the first-order Taylor expansion", "一阶泰勒展开"),
    "15-gpu": Plan(25, ("05-saving-tensors", "08-hooks"),
                   "what a GPU is (no GPU needed: the lesson runs on the CPU too)",
                   "GPU 是什么（不需要 GPU：本讲在 CPU 上也能运行）"),
    "16-capstone": Plan(
        50, ("02-out-of-the-graph", "04-custom-functions", "07-ctx-flags"),
        "a linear layer; the cross-entropy loss; gradient descent",
        "线性层；交叉熵损失；梯度下降"),
}

_WORDS = {
    "en": ("**Time:** about {minutes} minutes", "**Before it:** {lessons}",
           "**You should know:** {know}", " · ", ", "),
    # (the colon after the bold: Markdown ends bold before a CJK character only when the
    # closing ** follows no punctuation)
    "zh": ("**用时**：约 {minutes} 分钟", "**先学**：{lessons}", "**需要了解**：{know}", " · ", "、"),
}


def plan_line(slug, lang):
    """The line under a lesson's title: its time, the lessons before it (linked, by
    number and title) and what else it assumes, in `lang` ("en" or "zh")."""
    from . import LESSONS
    plan = PLAN[slug]
    time, before, know, dot, comma = _WORDS[lang]
    parts = [time.format(minutes=plan.minutes)]
    titles = {lesson.slug: lesson for lesson in LESSONS}
    if plan.after:
        links = [f"[{titles[s].number:02d} · {titles[s].title(lang)}]({s}.ipynb)"
                 for s in plan.after]
        parts.append(before.format(lessons=comma.join(links)))
    known = plan.know_zh if lang == "zh" else plan.know_en
    if known:
        parts.append(know.format(know=known))
    return dot.join(parts)
