"""RemovableHandle: what every `register_*hook` returns."""
import itertools
import weakref

_next_id = itertools.count()


class RemovableHandle:
    """A handle that removes a hook from the dict it was registered in.

    It holds only a weak reference to that dict, so keeping a handle does not
    keep a tensor or a graph node alive.  Usable as a context manager.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> handle = x.register_hook(lambda g: g * 2)
        >>> handle.remove()
    """

    def __init__(self, hooks_dict):
        self.id = next(_next_id)
        self.hooks_dict_ref = weakref.ref(hooks_dict)

    def remove(self):
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None and self.id in hooks_dict:
            del hooks_dict[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


class HookDict(dict):
    """A dict that can be weakly referenced (a plain dict cannot)."""


def add_hook(hooks_dict, hook):
    """Store `hook` in `hooks_dict` under a fresh id; return its handle.  Any object is
    stored, as PyTorch does: one that cannot be called fails when backward calls it."""
    handle = RemovableHandle(hooks_dict)
    hooks_dict[handle.id] = hook
    return handle
