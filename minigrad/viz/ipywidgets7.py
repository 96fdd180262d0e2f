"""What the player needs that ipywidgets 7 lacks: `Stack`, and `tooltip` on Play.

ipywidgets 8 has `widgets.Stack`, a box that shows only its selected child,
switched in the browser, so a player plays with no kernel.  Colab still ships
ipywidgets 7, which has no Stack.  There this kernel-side stand-in does the
same job: its `selected_index` is a synced trait, so the browser's links still
set it, and the kernel answers by showing that one child.  Stepping then needs
the kernel, which Colab always has.
"""
import ipywidgets as widgets
import traitlets

NATIVE = hasattr(widgets, "Stack")


class KernelStack(widgets.Box):
    """A Box showing `children[selected_index]` only, chosen by the kernel."""

    selected_index = traitlets.Int(None, allow_none=True).tag(sync=True)

    def __init__(self, children=(), selected_index=None, **kwargs):
        self.pages = list(children)
        super().__init__([], **kwargs)
        self.observe(self._show, names="selected_index")
        self.selected_index = selected_index

    def _show(self, change):
        index = change["new"]
        self.children = [] if index is None else [self.pages[index]]


Stack = widgets.Stack if NATIVE else KernelStack


def html_style():
    """One style object that all the caption widgets share (ipywidgets 8), or None."""
    try:
        from ipywidgets.widgets.widget_string import HTMLStyle
    except ImportError:         # ipywidgets 7: an HTML widget has no style of its own
        return None
    return HTMLStyle()


def tooltip(widget_class, words):
    """The keyword that gives a widget its tooltip: `tooltip` in ipywidgets 8, the
    older `description_tooltip` in 7."""
    if "tooltip" in widget_class.class_trait_names():
        return {"tooltip": words}
    return {"description_tooltip": words}
