"""Variable: the wrapper of PyTorch before 0.4, still in old tutorials and blog posts.

Since PyTorch 0.4 a tensor *is* a Variable: `Variable(t, requires_grad=True)` gives
a new leaf that shares t's data, and `isinstance(t, Variable)` is True.
"""
import warnings

from . import tensor_door


class _AnyTensor(type):
    def __instancecheck__(cls, instance):
        return isinstance(instance, tensor_door.Tensor)


class Variable(metaclass=_AnyTensor):
    """`Variable(t, requires_grad=False)`: t detached (a leaf on the same data), with
    requires_grad as asked.  Write `t.detach().requires_grad_()` in new code."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, tensor_door.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.", UserWarning, stacklevel=2)
        return data.detach().requires_grad_(requires_grad)
