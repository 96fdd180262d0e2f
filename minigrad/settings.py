"""Project-wide settings: the language minigrad speaks (drawings, widgets, exercise feedback),
and whether the warnings PyTorch gives once per process are given every time.

A lesson in Chinese sets the language once, in its first cell::

    >>> import minigrad
    >>> minigrad.settings.lang = "zh"     # or, before starting Python: export MINIGRAD_LANG=zh
    >>> minigrad.settings.resolve_lang()
    'zh'
    >>> minigrad.settings.lang = None     # back to MINIGRAD_LANG, else English
"""
import os

lang = None          # "en", "zh", or None: MINIGRAD_LANG, else "en"

LANGUAGES = ("en", "zh")


def resolve_lang(requested=None):
    """The language to use: the argument, else `settings.lang`, else MINIGRAD_LANG, else en.

    An unknown language is an error rather than silent English, so a typo in a
    notebook ("cn") is caught where it was made.  Locale spellings are accepted:
    zh_CN, zh-Hans and zh_CN.UTF-8 all mean "zh".
    """
    choice = requested or lang or os.environ.get("MINIGRAD_LANG") or "en"
    choice = choice.lower().split("_")[0].split("-")[0].split(".")[0]
    if choice not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {requested or choice!r}")
    return choice


warn_always = False  # True: the warnings given once per process come every time


def set_warn_always(b):
    """torch.set_warn_always: give the once-per-process warnings (backward with
    create_graph=True, x.T of a tensor that is not a matrix) every time."""
    global warn_always
    warn_always = bool(b)


def is_warn_always_enabled():
    """torch.is_warn_always_enabled."""
    return warn_always
