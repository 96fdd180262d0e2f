"""The mode forward runs in: grad mode off, and numpy quiet about inf/nan.

`Function.apply` runs every forward inside `with forward_mode():`.
"""
import numpy as np

from .grad_mode import _state as _grad_mode


class forward_mode:
    """`with forward_mode():` grad mode off, and numpy quiet about inf/nan (PyTorch never
    warns about them): what forward runs under.

    NOTE [fast forward mode]: `with no_grad(), np.errstate(all="ignore")` costs about
    2 µs, as much as a small op.  numpy >= 2 keeps its error state in a context
    variable: this sets it to an "ignore all" state made once (np.errstate on older
    numpy).  One small object per call keeps nested calls, and numpy's per-thread
    state, apart.  `_state.quiet` says that one is open (forward-mode AD asks:
    inside another op's forward, that op's tangents cover the ops it runs).
    """

    __slots__ = ("_modes", "_enabled", "_was_quiet", "_quiet")

    def __enter__(self):
        if _numpy_errors is None:
            self._quiet = np.errstate(all="ignore")
            self._quiet.__enter__()
        else:
            self._quiet = _numpy_errors.set(_QUIET)
        modes = self._modes = _grad_mode.__dict__   # this thread's (NOTE [grad mode per thread])
        self._enabled, self._was_quiet = modes["enabled"], modes["quiet"]
        modes["enabled"], modes["quiet"] = False, True

    def __exit__(self, *exc_info):
        modes = self._modes
        modes["enabled"], modes["quiet"] = self._enabled, self._was_quiet
        if _numpy_errors is None:
            self._quiet.__exit__(*exc_info)
        else:
            _numpy_errors.reset(self._quiet)


def _quiet_numpy_state():
    """numpy's error-state context variable and its "ignore all" value (None, None on numpy 1)."""
    try:
        from numpy._core._ufunc_config import _extobj_contextvar
    except ImportError:
        return None, None
    with np.errstate(all="ignore"):
        return _extobj_contextvar, _extobj_contextvar.get()


_numpy_errors, _QUIET = _quiet_numpy_state()

