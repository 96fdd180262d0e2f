"""Whether a leaf can keep the gradient that backward has just made (no copy).

See NOTE [stealing a fresh gradient] below; AccumulateGrad (graph.py) asks `is_fresh`.
"""
import sys

from .. import backend

# NOTE [stealing a fresh gradient]
# A leaf's first gradient is usually an array that backward has just made and that
# nothing else can see: copying it (800 KB for a 784x256 weight) would be wasted work.
# Like PyTorch's AccumulateGrad (its use_count() test), the leaf keeps that array when
# the engine's tuple is its only holder; a gradient that someone else can reach (the
# user's `gradient=`, a hook that kept it, a second edge, another view of its array)
# is copied.  A view is kept when nothing else holds its base: the bias gradient
# `grad.sum_to_size(b.shape)` is a view of the sum.  _FRESH: the reference counts
# (tensor, array, base) of an unshared, contiguous, writeable gradient, measured the same way.

def _holders(grad_outputs):
    grad = grad_outputs[0]
    flags, base = grad._data.flags, grad._data.base     # (not a broadcast, not read-only)
    return (sys.getrefcount(grad), sys.getrefcount(grad._data),
            None if base is None else (type(base), sys.getrefcount(base)),
            flags.c_contiguous and flags.writeable)


class _Probe:
    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data


def _fresh_counts(grad_outputs):
    (grad,) = grad_outputs                      # held as AccumulateGrad.apply holds it
    return _holders(grad_outputs)


_FRESH = {_fresh_counts((_Probe(backend.np.empty(1)),)),            # an array
          _fresh_counts((_Probe(backend.np.empty((1, 1)).reshape(1)),))}  # a view


def is_fresh(grad_outputs):
    """True when the engine's tuple is the only holder of the gradient in it (and of
    its array): AccumulateGrad may keep it as the leaf's `.grad`."""
    if type(grad_outputs[0]._data) is not backend.np.ndarray:     # GPU arrays: copied
        return False
    return _holders(grad_outputs) in _FRESH
