"""The course: twelve notebooks, each in English and in Simplified Chinese.

The notebooks sit in the repository's `notebooks/{en,zh}/`, built from one
bilingual source per lesson (`notebooks/sources/NN-slug.py`) by
`scripts/build-lessons.py`.  Building the wheel copies them into this package
(setup.py), so a student who has only `pip install "minigrad-tutor[tutor]"`
still has them; in a clone, or an editable install of one, they are read from
`notebooks/` itself (`LESSONS_DIR` is whichever holds them)::

    >>> from minigrad.lessons import LESSONS, list_lessons
    >>> LESSONS[0].slug, LESSONS[0].title_zh
    ('01-tensors-and-the-graph', '张量与计算图')
    >>> list_lessons("zh")[0].relative_to(LESSONS_DIR).as_posix()
    'zh/01-tensors-and-the-graph.ipynb'
    >>> list_lessons("en", solutions=True)[0].parent.name
    'solutions'
    >>> sum(len(lesson.exercises) for lesson in LESSONS) >= 15
    True

Each language folder holds the student versions (exercises left as
`raise NotImplementedError()`), and `solutions/` the worked versions.
"""
import pathlib
from typing import NamedTuple

from ..settings import LANGUAGES, resolve_lang


def _lessons_dir():
    """The folder that holds en/ and zh/: this package in a wheel, else the clone's notebooks/."""
    package = pathlib.Path(__file__).resolve().parent
    if (package / "en").is_dir():
        return package                        # installed from a wheel: setup.py copied them here
    return package.parents[1] / "notebooks"   # a clone, or an editable install of one


LESSONS_DIR = _lessons_dir()

__all__ = ["LESSONS", "LESSONS_DIR", "Lesson", "list_lessons", "lesson_path"]


class Lesson(NamedTuple):
    """One lesson: its number, slug (the notebook's file name), titles and exercise ids."""
    number: int
    slug: str
    title_en: str
    title_zh: str
    exercises: tuple

    def title(self, lang=None):
        """The title in `lang` (default: minigrad.settings.lang)."""
        return self.title_zh if resolve_lang(lang) == "zh" else self.title_en


LESSONS = (
    Lesson(1, "01-tensors-and-the-graph", "Tensors and the graph", "张量与计算图", ()),
    Lesson(2, "02-backward-order", "The order of backward", "反向传播的顺序",
           ("topo_order", "count_dependencies")),
    Lesson(3, "03-custom-functions", "Custom Functions", "自定义函数",
           ("exp", "sigmoid", "relu", "mul_constant", "add_broadcast")),
    Lesson(4, "04-saving-tensors", "Saving tensors for backward", "为反向传播保存张量",
           ("seed_func", "tanh_saves_output")),
    Lesson(5, "05-inplace-and-versions", "In-place operations and version counters",
           "原地操作与版本计数器", ("inplace_relu",)),
    Lesson(6, "06-ctx-flags", "The flags on ctx", "ctx 上的标志",
           ("matmul", "max_with_index")),
    Lesson(7, "07-hooks", "Hooks", "钩子", ("clip_grad_hook", "pack_float16")),
    Lesson(8, "08-retain-graph-and-debugging", "retain_graph and debugging",
           "retain_graph 与调试", ()),
    Lesson(9, "09-higher-order", "Higher-order gradients", "高阶导数",
           ("second_derivative", "cube_double_backward")),
    Lesson(10, "10-gpu", "Tensors on the GPU", "GPU 上的张量", ()),
    Lesson(11, "11-capstone", "Capstone: a small network on your own Functions",
           "综合练习：用自己的函数训练小网络", ("linear",)),
    Lesson(12, "12-forward-mode", "Forward-mode AD and dual numbers",
           "前向模式自动微分与对偶数", ()),
)


def list_lessons(lang, solutions=False):
    """The built notebooks of one language, in lesson order.

    Args:
        lang: "en" or "zh".
        solutions: the solution versions instead of the student versions.

    Returns:
        a sorted list of paths to the notebooks that exist.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    folder = LESSONS_DIR / lang / ("solutions" if solutions else "")
    return sorted(folder.glob("[0-9][0-9]-*.ipynb"))


def lesson_path(lesson, lang, solutions=False):
    """The notebook of one lesson (a Lesson, its number or its slug), built or not."""
    for candidate in LESSONS:
        if lesson in (candidate, candidate.number, candidate.slug):
            folder = LESSONS_DIR / lang / ("solutions" if solutions else "")
            return folder / f"{candidate.slug}.ipynb"
    raise KeyError(f"no lesson {lesson!r}")
