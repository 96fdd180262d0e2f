"""BuiltinFunction: the base class of minigrad's own ops.

Every op in ops/ is a core `Function` (minigrad/core/function.py) written with the API
a student uses (static `forward` and `backward`, `ctx.save_for_backward`) and derives
from this class, which says in one place what minigrad knows of its own ops and how
they follow PyTorch's:

- their nodes have PyTorch's names (`node_name`: MulBackward0) and show what they saved
  as PyTorch's do (`y.grad_fn._saved_self`: surface/saved_attributes.py);
- a node that got no gradient at all gives none (PyTorch's formulas do the same), where a
  custom Function's backward gets zeros;
- their forwards refuse tensors on two devices with PyTorch's messages
  (`device_check`, NOTE [devices] in surface/devices.py);
- an output forward marked dirty (every in-place op) follows PyTorch's rules
  (surface/function_rules.py);
- under forward-mode AD, their tangents are derived from their backward
  (surface/forward_ad.py).
"""
from ..core.function import BackwardNode, Function
from ..surface import devices, function_rules
from ..surface.saved_attributes import saved_attribute, saved_attribute_names


class BuiltinBackward(BackwardNode):
    """The node of a built-in op (MulBackward0 ...)."""

    def _zeros_for_missing(self, grad_outputs):
        """None when no output got a gradient (PyTorch's formulas then give none either);
        else zeros for those that got none."""
        for grad in grad_outputs:
            if grad is not None:
                return super()._zeros_for_missing(grad_outputs)
        return None

    def _attach_marked(self, args, outputs):
        return function_rules.attach_marked(self, args, outputs)

    def __getattr__(self, name):     # only for names not found: y.grad_fn._saved_self ...
        if name.startswith(("_saved_", "_raw_saved_")):
            return saved_attribute(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):     # dir(y.grad_fn) lists the _saved_* names, as PyTorch's does
        return [*super().__dir__(), *saved_attribute_names(self)]


class BuiltinFunction(Function):
    """A built-in op: a Function that minigrad trusts (see the module docstring)."""

    _node_base = BuiltinBackward
    device_check = "elementwise"

    @classmethod
    def _on_one_device(cls, args):
        if cls.device_check:
            return devices.on_one_device(cls.device_check, args)
        return args


class InPlaceFunction(BuiltinFunction):
    """A built-in op that writes into its first argument: PyTorch never moves that one
    to another device (a 0-dim CPU tensor may join a GPU op, but not as its target)."""

    device_check = "inplace"
