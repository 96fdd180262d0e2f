"""What the notebooks call on besides the engine: labels in the lesson's language, and a
font for Chinese plot labels.

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
from .. import settings

__all__ = ["say", "plot_font"]

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
