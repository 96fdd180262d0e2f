"""BuiltinFunction: the base class of minigrad's own ops.

Every op in ops/ is a `Function` written with the API a student uses (static
`forward` and `backward`, `ctx.save_for_backward`) and derives from this class,
which says in one place what minigrad knows of its own code:

- its backward returns one gradient per argument of forward, a tensor or None, so
  the node does not check what it returned (a custom Function's backward is
  checked, with PyTorch's messages: function_rules.py);
- its forward refuses tensors on two devices with PyTorch's messages
  (`device_check`, NOTE [devices] in autograd/function.py);
- when nothing is recorded its forward gets a plain ctx and no node is made, as for
  PyTorch's kernels (a custom Function's forward always gets its node);
- under forward-mode AD its tangents are derived from its backward (forward_ad.py).
"""
from ..autograd.function import Function


class BuiltinFunction(Function):
    """A built-in op: a Function that minigrad trusts (see the module docstring)."""

    _builtin = True
    device_check = "elementwise"


class InPlaceFunction(BuiltinFunction):
    """A built-in op that writes into its first argument: PyTorch never moves that one
    to another device (a 0-dim CPU tensor may join a GPU op, but not as its target)."""

    device_check = "inplace"
