"""Settings of the drawings: the language of their labels.

A lesson in Chinese sets the language once, for every drawing after it::

    >>> import minigrad.viz
    >>> minigrad.viz.settings.lang = "zh"     # or: export MINIGRAD_LANG=zh
    >>> minigrad.viz.settings.lang = None     # back to the environment, else English

The words live here, in one table, so that both renderers (graphviz and the
pure-Python one) say exactly the same thing.
"""
import os

lang = None          # "en", "zh", or None: MINIGRAD_LANG, else "en"

LANGUAGES = ("en", "zh")

TEXT = {
    "en": {
        "leaf": "leaf",
        "output": "output",
        "saved": "saved",
        "saved_output": "saved output",
        "freed": "freed",
        "packed": "packed by hooks",
        "stale": "changed in place: v{version} → v{current}",
        "more": "… {count} more nodes not shown",
        "collapsed": "× {count} {name}",
        "no_graph": "no graph: requires_grad=False",
    },
    "zh": {
        "leaf": "叶子张量",
        "output": "输出",
        "saved": "已保存",
        "saved_output": "已保存（输出）",
        "freed": "已释放",
        "packed": "已由钩子打包",
        "stale": "已原地修改：v{version} → v{current}",
        "more": "… {count} 个更多节点未显示",
        "collapsed": "× {count} {name}",
        "no_graph": "无计算图：requires_grad=False",
    },
}


def resolve_lang(requested=None):
    """The language to draw in: the argument, else `settings.lang`, else MINIGRAD_LANG, else en.

    An unknown language is an error rather than a silent English drawing, so a
    typo in a notebook ("cn") is caught where it was made.
    """
    choice = requested or lang or os.environ.get("MINIGRAD_LANG") or "en"
    choice = choice.lower().split("_")[0].split("-")[0]     # zh_CN, zh-Hans -> zh
    if choice not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {requested or choice!r}")
    return choice


def text(lang_code, key, **values):
    """One label in the chosen language, with its numbers filled in."""
    return TEXT[lang_code][key].format(**values)
