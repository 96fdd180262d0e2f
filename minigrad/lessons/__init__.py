"""The course: one notebook a lesson, each in English and in Simplified Chinese.

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

from ..settings import LANGUAGES
from ..syllabus import LESSONS, Lesson


def _lessons_dir():
    """The folder that holds en/ and zh/: this package in a wheel, else the clone's notebooks/."""
    package = pathlib.Path(__file__).resolve().parent
    if (package / "en").is_dir():
        return package                        # installed from a wheel: setup.py copied them here
    return package.parents[1] / "notebooks"   # a clone, or an editable install of one


LESSONS_DIR = _lessons_dir()

# The first line of an exercise's stub in the student notebooks (the second is
# `raise NotImplementedError()`), in the lesson's language; nbgrader's code_stub too.
YOUR_CODE_HERE = {"en": "# YOUR CODE HERE", "zh": "# 在这里写你的代码"}

__all__ = ["LESSONS", "LESSONS_DIR", "INDEX", "YOUR_CODE_HERE", "Lesson", "list_lessons",
           "lesson_path", "say", "plot_font", "show_source", "show_error", "ask"]


INDEX = "00-index"       # the course index notebook, next to the lessons in en/ and zh/


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
    return sorted(path for path in folder.glob("[0-9][0-9]-*.ipynb") if path.stem != INDEX)


def lesson_path(lesson, lang, solutions=False):
    """The notebook of one lesson (a Lesson, its number or its slug), built or not."""
    for candidate in LESSONS:
        if lesson in (candidate, candidate.number, candidate.slug):
            folder = LESSONS_DIR / lang / ("solutions" if solutions else "")
            return folder / f"{candidate.slug}.ipynb"
    raise KeyError(f"no lesson {lesson!r}")


from .course import plot_font, say      # noqa: E402 — they read LESSONS
from .source import show_source         # noqa: E402
from .reading import ask                # noqa: E402
from .errors import show_error          # noqa: E402
