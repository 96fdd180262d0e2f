"""The words of the drawings, in each language.

The language itself is the project-wide `minigrad.settings.lang` (or
MINIGRAD_LANG); `resolve_lang` is re-exported here for the drawing code.

The words live here, in one table, so that both renderers (graphviz and the
pure-Python one) say exactly the same thing.
"""
from ..settings import LANGUAGES, resolve_lang  # noqa: F401  (used by model.py)

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


def text(lang_code, key, **values):
    """One label in the chosen language, with its numbers filled in."""
    return TEXT[lang_code][key].format(**values)
