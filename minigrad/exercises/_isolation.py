"""The state an answer runs in, and what it may not leave behind.

A student calls `check` from wherever they are: inside `with torch.no_grad():`,
after `torch.set_default_dtype(torch.float64)`, with saved-tensor hooks open.
An answer must get the same verdict everywhere, so it runs in PyTorch's
default state: grad mode on, no inference mode, anomaly detection off, no
saved-tensor hooks, no forward-AD level, no backward running, float32 as the
default dtype, numpy's default error handling, no trace being recorded.  The
caller's state comes back afterwards, whatever the answer did and wherever
the time limit stopped it (the alarm may land inside a `with` block's exit).

An answer may also change what outlives it: the default dtype, the
language, a method of Tensor, a function of minigrad, of the checker
itself or of numpy (`_tools.close = lambda *args: True`), an entry of the
checker's tables (`functions.CHECKS["exp"] = ...`).  Such a change is
put back, and the verdict refused: the checks ran against a changed minigrad
and cannot vouch for what they saw.  The autograd switches above are put
back without a word (the lessons' own `with` blocks set and reset them).
"""
import contextlib
import sys
import types
from typing import NamedTuple

import numpy as np

from .. import backend, settings
from ..core import graph, hooks, seams
from ..core.grad_mode import state as grad_mode
from ..surface import anomaly, dtypes, forward_ad

# (the switch, its default): dicts (or grad mode's per-thread state) updated in place,
# lists emptied in place; the seams where anomaly mode, forward AD and a recorder plug in
_SWITCHES = ((grad_mode, {"enabled": True, "inference": False, "in_forward": False}),
             (anomaly._state, {"enabled": False, "check_nan": True}),
             (forward_ad._state, {"level": None}))
_STACKS = (graph._running_tasks, hooks.saved_tensors_hooks_stack,
           hooks.hooks_disabled, forward_ad._dual_tensors)
_SEAMS = ("anomaly", "forward_ad", "recorder")
_NUMPY_DEFAULTS = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


@contextlib.contextmanager
def default_state():
    """Run the block in PyTorch's default state; afterwards, the caller's again.

    Yields a list that, once the block is over, names what the block changed
    that outlives it (empty: nothing), each as code: `Tensor.exp`,
    `torch.set_default_dtype(torch.float64)`.
    """
    caller, lang = _Switches.now(), settings.lang
    _DEFAULT.restore()
    before, tables = _patchable(), _tables()
    changed = []
    try:
        yield changed
    finally:
        changed.extend(_put_back(before) + _put_back_tables(tables))
        if dtypes.get_default_dtype() is not dtypes.float32:
            changed.append(f"torch.set_default_dtype({_shown(dtypes.get_default_dtype())})")
        if settings.lang is not lang:
            changed.append(f"minigrad.settings.lang = {_shown(settings.lang)}")
            settings.lang = lang
        caller.restore()


def _shown(value):
    """`value` as code, without running any code of the answer (no __repr__ of its own)."""
    if type(value) is dtypes.dtype:
        return f"torch.{value.name}"
    return repr(value)[:40] if type(value) in (str, type(None)) else object.__repr__(value)


class _Switches(NamedTuple):
    """The autograd switches, the default dtype, numpy's error handling and the seams
    (anomaly mode, forward AD, the recorder)."""

    switches: list
    stacks: list
    dtype: object
    numpy_errors: object
    plugged: list

    @classmethod
    def now(cls):
        return cls([_values(switch, default) for switch, default in _SWITCHES],
                   [list(s) for s in _STACKS],
                   dtypes.get_default_dtype(), backend.numpy_errors.get(),
                   [getattr(seams, name) for name in _SEAMS])

    def restore(self):
        for (switch, _), values in zip(_SWITCHES, self.switches):
            _set_values(switch, values)
        for stack, values in zip(_STACKS, self.stacks):
            stack[:] = values
        dtypes.set_default_dtype(self.dtype)
        backend.numpy_errors.set(self.numpy_errors)
        for name, layer in zip(_SEAMS, self.plugged):
            seams.plug(name, layer)


def _values(switch, default):
    """A switch's values as a dict (grad mode's: this thread's)."""
    if isinstance(switch, dict):
        return dict(switch)
    return {name: getattr(switch, name) for name in default}


def _set_values(switch, values):
    if isinstance(switch, dict):
        switch.clear()
        switch.update(values)
    else:
        for name, value in values.items():
            setattr(switch, name, value)


with np.errstate(**_NUMPY_DEFAULTS):
    _DEFAULT = _Switches([dict(default) for _, default in _SWITCHES], [[] for _ in _STACKS],
                         dtypes.float32, backend.numpy_errors.get(), [None] * len(_SEAMS))


def _namespaces():
    """Every minigrad module, every class they define, and numpy."""
    modules = [module for name, module in list(sys.modules.items())
               if (name == "minigrad" or name.startswith("minigrad.")) and module is not None]
    classes = {id(value): value for module in modules for value in list(vars(module).values())
               if isinstance(value, type) and value.__module__.startswith("minigrad")}
    return modules + [np] + list(classes.values())


def _patchable():
    """{namespace: {name: value}}: what an answer could patch.  Of a class, every
    attribute; of a module, its functions, classes and modules (its other globals may
    change as minigrad runs: counters, caches)."""
    return {namespace: {name: value for name, value in vars(namespace).items()
                        if isinstance(namespace, type) or callable(value)
                        or isinstance(value, types.ModuleType)}
            for namespace in _namespaces()}


def _put_back(before):
    """Undo every change to what `before` holds; return the names changed.  A class also
    counts a new attribute that hides an inherited one (`Tensor.exp = ...` over a mixin's
    method).  Written straight into the namespaces: no code of the answer runs here."""
    changed = []
    for namespace, values in before.items():
        label = namespace.__qualname__ if isinstance(namespace, type) else namespace.__name__
        now = vars(namespace)
        for name, value in values.items():
            if now.get(name, _MISSING) is not value:
                changed.append(f"{label}.{name}")
                _set(namespace, name, value)
        added = now.keys() - values.keys() if isinstance(namespace, type) else ()
        for name in added:
            if any(name in vars(base) for base in namespace.__mro__[1:]):
                changed.append(f"{label}.{name}")
                type.__delattr__(namespace, name)
    return changed


_MISSING = object()


def _tables():
    """[(name, table, its items)]: the checker's dicts (CHECKS, EXERCISES, MESSAGES...)
    and the dicts they hold, each with a copy of its items."""
    found = []
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith(__package__):
            continue
        for name, value in vars(module).items():
            if type(value) is dict:
                label = f"{module_name}.{name}"
                found.append((label, value, dict(value)))
                found.extend((label, item, dict(item)) for item in value.values()
                             if type(item) is dict)
    return found


def _put_back_tables(tables):
    """Undo every change to the tables; return their names.  Keys are compared by type
    first and values by identity, so no code of the answer runs here either."""
    changed = []
    for label, table, items in tables:
        if len(table) != len(items) or any(type(key) is not str or key not in items
                                           or table[key] is not items[key] for key in list(table)):
            changed.append(label)
            table.clear()
            table.update(items)
    return changed


def _set(namespace, name, value):
    if isinstance(namespace, type):
        type.__setattr__(namespace, name, value)
    else:
        vars(namespace)[name] = value
