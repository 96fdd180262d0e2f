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
from .saved_tensor import ERR_BACKWARD_TWICE, ERR_PACK_HOOK_IN_PLACE, saved_tensors_of

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
    "NllLossBackward0": ("self", "weight"), "MaximumBackward0": ("other", "self"),
    "MinimumBackward0": ("other", "self"), "Atan2Backward0": ("other", "self"),
    "MaxBackward1": ("self", "result"), "MinBackward1": ("self", "result"),
    "LinalgVectorNormBackward0": ("self", "result"), "GatherBackward0": ("index", "self"),
    "AddmmBackward0": ("mat1", "mat2"), "HardtanhBackward0": ("self",),
    "IndexAddBackward0": ("index",), "CumprodBackward0": ("self", "result"),
    "RsqrtBackward0": ("result",),
}
# PyTorch's name of a non-tensor argument -> the ctx attribute an op keeps it in
ATTRIBUTE_NAMES = {"exponent": "exponent", "alpha": "alpha", "min": "low", "max": "high",
                   "dim": "dim"}
ATTRIBUTE_NAMES_BY_NODE = {"PowBackward2": {"self": "number"}, "MulBackward1": {"other": "number"},
                           "SumBackward1": {"dim": "dims", "keepdim": "keepdim"},
                           "LinalgVectorNormBackward0": {"ord": "p", "keepdim": "keepdim"},
                           "AddmmBackward0": {"alpha": "alpha", "beta": "beta"},
                           "HardtanhBackward0": {"min_val": "low", "max_val": "high"},
                           "IndexAddBackward0": {"dim": "dim", "alpha": "alpha"},
                           "DivBackward2": {"rounding_mode": "rounding_mode"}}
# the nodes whose ctx.shape is the shape of their input, PyTorch's self_sym_sizes
SHAPE_NODES = {"IndexBackward0", "MeanBackward0", "MeanBackward1", "SumBackward0",
               "SumBackward1", "ViewBackward0", "ExpandBackward0"}


def saved_attribute(node, name):
    """The value of `node._saved_<x>` or `node._raw_saved_<x>`; AttributeError if none."""
    raw = name.startswith("_raw_saved_")
    key = name[len("_raw_saved_" if raw else "_saved_"):]
    if raw and key == "tensors" and not node._function_cls._builtin:
        return raw_saved_tensors(node)
    if key == "indices" and node.name() == "IndexBackward0":
        return _saved_indices(node, raw)
    if key == "self_sym_sizes" and not raw and node.name() in SHAPE_NODES:
        return tuple(node.shape)
    slots = SLOT_NAMES.get(node.name(), ())
    if key.endswith("_sym_sizes") and key[:-len("_sym_sizes")] in slots and not raw and (
            node.name() in ("MmBackward0", "AddmmBackward0")):
        return tuple(saved_tensors_of(node)[slots.index(key[:-len("_sym_sizes")])].shape)
    if not raw and node.name() in _FROM_KEY_OR_DIMS:
        found = _FROM_KEY_OR_DIMS[node.name()](node).get(key, _MISSING)
        if found is not _MISSING:
            return found
    if key in slots:
        saved = (saved_tensors_of(node) or (None,) * len(slots))[slots.index(key)]
        if raw:
            return None if saved is None else RawSavedTensor.of(saved, node)
        return None if saved is None else saved.unpack(node)
    attribute = ATTRIBUTE_NAMES_BY_NODE.get(node.name(), ATTRIBUTE_NAMES).get(key)
    if not raw and attribute is not None and attribute in node.__dict__:
        return node.__dict__[attribute]
    raise AttributeError(f"'{node.name()}' object has no attribute '{name}'")


def saved_attribute_names(node):
    """The `_saved_<x>` and `_raw_saved_<x>` names `node` answers to, for dir(node): those
    that read a value, and those that raise as PyTorch's do once backward freed them."""
    name = node.name()
    keys = [*SLOT_NAMES.get(name, ()), *ATTRIBUTE_NAMES_BY_NODE.get(name, ATTRIBUTE_NAMES),
            "self_sym_sizes", "mat2_sym_sizes", "indices", "tensors"]
    if name in _FROM_KEY_OR_DIMS:
        keys.extend(_FROM_KEY_OR_DIMS[name](node))
    found = []
    for key in dict.fromkeys(keys):
        for prefix in ("_saved_", "_raw_saved_"):
            try:
                saved_attribute(node, prefix + key)
            except AttributeError:
                continue
            except RuntimeError:        # freed: the name stays, reading it raises
                pass
            found.append(prefix + key)
    return found


def _transpose_dims(node):
    return {"dim0": node.dims[0], "dim1": node.dims[1]}


def _select_or_slice(node):
    """SelectBackward0's dim and index, SliceBackward0's dim, start, end and step, from the
    key of the x[...] they recorded (the one entry that is not a whole dim).  A negative
    start or end reads as PyTorch 2.13 shows it, an unsigned number (-1: 2 ** 64 - 1);
    minigrad's select keeps its index made positive already."""
    dim, part = next((d, k) for d, k in enumerate(node.key) if k != slice(None))
    if not isinstance(part, slice):
        return {"dim": dim, "index": part, "self_sym_sizes": tuple(node.shape)}
    return {"dim": dim, "start": 0 if part.start is None else part.start % 2 ** 64,
            "end": 2 ** 63 - 1 if part.stop is None else part.stop % 2 ** 64,
            "step": 1 if part.step is None else part.step, "self_sym_sizes": tuple(node.shape)}


# PyTorch's attributes that a node keeps in another form: node name -> {name: value}
_FROM_KEY_OR_DIMS = {"TransposeBackward0": _transpose_dims, "SelectBackward0": _select_or_slice,
                     "SliceBackward0": _select_or_slice}
_MISSING = object()


def _saved_indices(node, raw):
    """IndexBackward0's indices, as PyTorch lists them: one per dim up to the last one
    indexed by a tensor, None for a dim taken whole (`x[:, i]`: None, i)."""
    saved = iter(saved_tensors_of(node))
    slots = [next(saved) if isinstance(k, list) or hasattr(k, "shape") else None
             for k in node.key]
    while slots and slots[-1] is None:
        slots.pop()
    if raw:
        return tuple(RawSavedTensor.of(slot, node) for slot in slots)
    return tuple(None if slot is None else slot.unpack(node) for slot in slots)


def raw_saved_tensors(node):
    """A custom Function's `grad_fn._raw_saved_tensors`: one RawSavedTensor per slot of
    save_for_backward (None among them too); refused once backward has freed them."""
    slots = saved_tensors_of(node) or ()
    if any(saved is not None and saved.freed for saved in slots):
        raise RuntimeError(ERR_BACKWARD_TWICE)
    return tuple(RawSavedTensor.of(saved, node) for saved in slots)


class RawSavedTensor:
    """One saved tensor, unopened (PyTorch's torch.autograd.SavedTensor, the name it
    shows): `register_hooks(pack, unpack)` packs it now and unpacks it whenever it is
    read (by backward, or by `_saved_<x>`); `data` is what is kept, `unpack_hook` the
    hook that will open it.  Only a node makes one (`of`), as in PyTorch."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")

    @classmethod
    def of(cls, saved, node):
        """The raw view of `saved`, a slot of `node` (a SavedTensor, or None)."""
        raw = object.__new__(cls)
        raw._saved, raw._node = saved, node
        return raw

    @property
    def data(self):
        """What the slot keeps: the hook's packed value, the saved tensor (a saved output
        without its grad_fn), or None (nothing saved, or freed by backward)."""
        saved = self._saved
        if saved is None or saved.freed:
            return None
        return saved.packed if saved.unpack_hook is not None else _kept_tensor(saved)

    @property
    def unpack_hook(self):
        return None if self._saved is None else self._saved.unpack_hook

    def unpack(self):
        return None if self._saved is None else self._saved.unpack(self._node)

    def register_hooks(self, *hooks):
        saved = self._saved
        if len(hooks) != 2 or not all(callable(hook) for hook in hooks):
            given = ", ".join(repr(hook) for hook in (self,) + hooks)
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                f"Invoked with: {given}")
        if saved is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if saved.freed:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. "
                + ERR_BACKWARD_TWICE.split(". ", 1)[1].replace("saved tensors", "saved variables"))
        if saved.unpack_hook is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time.")
        pack_hook, unpack_hook = hooks
        tensor = _kept_tensor(saved)
        with no_grad():                 # (PyTorch packs the saved input detached)
            packed = pack_hook(tensor.detach() if not saved.is_output else tensor)
        if tensor._version != saved.version:
            raise RuntimeError(ERR_PACK_HOOK_IN_PLACE)
        if not saved.is_output:      # unpack() gives the hook's result this place back
            saved.grad_fn, saved.requires_grad = tensor.grad_fn, tensor._requires_grad
            saved.accumulator = (leaf_accumulator(tensor)
                                 if saved.grad_fn is None and saved.requires_grad else None)
        saved.packed, saved.unpack_hook = packed, unpack_hook


RawSavedTensor.__name__ = RawSavedTensor.__qualname__ = "SavedTensor"     # PyTorch's name


def _kept_tensor(saved):
    """The tensor a SavedTensor keeps: the saved input itself, or the saved output's data
    without its node (kept as an array: saved_tensor.py)."""
    if not saved.is_output:
        return saved.packed
    tensor = tensor_door.Tensor._make(saved.packed)
    tensor._version_counter = saved.version_counter
    return tensor
