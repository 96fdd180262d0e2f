"""`y.grad_fn._saved_self`, `_saved_result`, `_saved_exponent` ... and
`y.grad_fn._raw_saved_self.register_hooks(pack, unpack)`: what PyTorch's nodes
show of what they saved ("Autograd mechanics" and "Hooks for saved tensors").

minigrad's ops save with `ctx.save_for_backward(...)`, in slots without names;
the table below gives each slot PyTorch's name.  A slot an op left empty (Mul
saves `self` only when `other` needs a gradient) reads as None, as in PyTorch.
Other `_saved_<name>` values are the op's ctx attributes (`ctx.exponent`).
"""
from . import tensor_door
from .grad_mode import no_grad
from .node import leaf_accumulator
from .saved_tensor import ERR_BACKWARD_TWICE, saved_tensors_of

# node name -> PyTorch's name of each save_for_backward slot, in order
SLOT_NAMES = {
    "ExpBackward0": ("result",), "LogBackward0": ("self",), "SinBackward0": ("self",),
    "CosBackward0": ("self",), "TanhBackward0": ("result",), "SigmoidBackward0": ("result",),
    "ReluBackward0": ("result",), "SqrtBackward0": ("result",), "AbsBackward0": ("self",),
    "ClampBackward1": ("self",), "MulBackward0": ("other", "self"),
    "DivBackward0": ("other", "self"), "ReciprocalBackward0": ("result",),
    "PowBackward0": ("self",), "PowBackward1": ("exponent", "self", "result"),
    "PowBackward2": ("exponent", "result"), "MmBackward0": ("mat2", "self"),
    "MvBackward0": ("self", "vec"), "DotBackward0": ("tensor", "self"),
    "BmmBackward0": ("mat2", "self"), "SoftmaxBackward0": ("result",),
    "LogSoftmaxBackward0": ("result",), "WhereBackward0": ("condition",),
    "NllLossBackward0": ("self",), "MaximumBackward0": ("other", "self"),
    "MinimumBackward0": ("other", "self"), "Atan2Backward0": ("other", "self"),
}
# PyTorch's name of a non-tensor argument -> the ctx attribute an op keeps it in
ATTRIBUTE_NAMES = {"exponent": "exponent", "alpha": "alpha", "min": "low", "max": "high",
                   "dim": "dim"}
ATTRIBUTE_NAMES_BY_NODE = {"PowBackward2": {"self": "number"}}


def saved_attribute(node, name):
    """The value of `node._saved_<x>` or `node._raw_saved_<x>`; AttributeError if none."""
    raw = name.startswith("_raw_saved_")
    key = name[len("_raw_saved_" if raw else "_saved_"):]
    slots = SLOT_NAMES.get(node.name(), ())
    if key in slots:
        saved = (saved_tensors_of(node) or (None,) * len(slots))[slots.index(key)]
        if raw:
            return None if saved is None else RawSavedTensor(saved, node)
        return None if saved is None else saved.unpack(node)
    attribute = ATTRIBUTE_NAMES_BY_NODE.get(node.name(), ATTRIBUTE_NAMES).get(key)
    if not raw and attribute is not None and attribute in node.__dict__:
        return node.__dict__[attribute]
    raise AttributeError(f"'{node.name()}' object has no attribute '{name}'")


class RawSavedTensor:
    """One saved tensor, unopened: `register_hooks(pack, unpack)` packs it now and
    unpacks it whenever it is read (by backward, or by `_saved_<x>`)."""

    def __init__(self, saved, node):
        self._saved, self._node = saved, node

    def unpack(self):
        return self._saved.unpack(self._node)

    def register_hooks(self, pack_hook, unpack_hook):
        saved = self._saved
        if saved.freed:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. "
                + ERR_BACKWARD_TWICE.split(". ", 1)[1].replace("saved tensors", "saved variables"))
        if saved.unpack_hook is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time.")
        if saved.is_output:                 # the saved output's data, without its node
            tensor = tensor_door.Tensor._make(saved.packed)
            tensor._version_counter = saved.version_counter
        else:
            tensor = saved.packed
        if not saved.is_output:      # unpack() gives the hook's result this place back
            saved.grad_fn, saved.requires_grad = tensor.grad_fn, tensor._requires_grad
            saved.accumulator = (leaf_accumulator(tensor)
                                 if saved.grad_fn is None and saved.requires_grad else None)
        with no_grad():
            saved.packed = pack_hook(tensor)
        saved.unpack_hook = unpack_hook
