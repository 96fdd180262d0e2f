"""Saved tensors (lessons 05, 06): what `ctx.save_for_backward` keeps, version-checked
when unpacked, packed by `saved_tensors_hooks` when some are active, freed after backward."""
import contextlib
import re
import weakref

from .. import dtypes, tracing
from . import anomaly, narration, tensor_door
from .grad_mode import no_grad
from .node import leaf_accumulator

# NOTE [saved tensors and version counters]
# A SavedTensor remembers the version of the tensor it saved.  In-place ops
# bump a tensor's version (views and detach() share the counter), so if the
# version moved before backward unpacks it, the value backward would use is
# not the one forward saw: unpacking raises PyTorch's "modified by an inplace
# operation" error.  After a backward without retain_graph the node releases
# its SavedTensors and a later unpack raises the "second time" error.

_saved_tensors_hooks_stack = []


class SavedTensor:
    """One tensor saved by `ctx.save_for_backward`, packed if hooks are active."""

    # What most saved tensors share: class defaults, set on the object only when they
    # differ (every recorded op saves some; each attribute set is time).
    is_output, output_nr, wrapped_number, freed, non_leaf = False, 0, False, False, False
    unpack_hook = grad_fn = accumulator = weak_grad_fn = None

    def __init__(self, tensor, node, slot, is_output, narrate=True):
        if tensor._inference:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or "
                "use `torch.no_grad()` instead of `torch.inference_mode()`.")
        self.version_counter = counter = tensor._version_counter
        self.version, self.slot = counter.value, slot
        data = tensor._data
        self.shape, self._numpy_dtype = data.shape, data.dtype
        if is_output:
            self.is_output, self.output_nr = True, tensor._output_nr
        if tensor._wrapped_number:
            self.wrapped_number = True                        # x * 2 saves the 2
        if narrate and tracing.active is not None:
            narration.tensor_saved(node, slot, tensor, is_output)
        if _saved_tensors_hooks_stack and not self.wrapped_number:
            self._pack(tensor, node, *_saved_tensors_hooks_stack[-1])      # (never numbers)
        elif is_output:
            # An output is kept as its array (with its grad_fn it would be a reference cycle,
            # node -> saved output -> node); unpack() makes its tensor again.
            self.packed = data
        else:
            self.packed = tensor
            if tensor._grad_fn is not None:     # (unpack refuses it once detach_()ed)
                self.non_leaf = True

    def _pack(self, tensor, node, pack_hook, unpack_hook):
        """saved_tensors_hooks are active: keep what `pack_hook` makes of the tensor."""
        with no_grad():                          # packing records nothing, as in PyTorch
            self.packed = pack_hook(tensor)
        if tensor._version != self.version:
            raise RuntimeError(ERR_PACK_HOOK_IN_PLACE)
        self.unpack_hook = unpack_hook
        # unpack() gives the hook's result the saved tensor's place in the graph back; a
        # saved output's place is the node that saves it (unpack gets it): holding it here
        # would be a cycle, node -> saved output -> node, kept until Python looks for cycles,
        # and with it what the pack hook made (a file on disk, GPU memory)
        if not self.is_output:
            self.grad_fn, self.requires_grad = tensor.grad_fn, tensor._requires_grad
            self.accumulator = (leaf_accumulator(tensor)
                                if self.grad_fn is None and self.requires_grad else None)
        if tracing.active is not None:
            narration.tensor_packed(node, self.slot, self.packed)

    @classmethod
    def of_number(cls, array, node, slot):
        """The SavedTensor of a saved number that its node kept as a bare array
        (NOTE [saved numbers]); not narrated: that was the saving's part."""
        return cls(number_tensor(array), node, slot, is_output=False, narrate=False)

    @classmethod
    def of_dirty_view(cls, view, node, slot):
        """A view that a custom Function changed in place (mark_dirty) and saved: its
        grad_fn now reads its base's history, which leads back to `node`.  So it is kept
        as an output is, as its array, and its grad_fn only weakly, as in PyTorch (held
        strongly, node -> saved view -> grad_fn -> ... -> node would be a cycle)."""
        saved = cls(view, node, slot, is_output=True)
        saved.weak_grad_fn = weakref.ref(view.grad_fn)
        return saved

    def unpack(self, node):
        """The saved tensor again, for `node`'s backward.  Refused once freed (after a
        backward without retain_graph), and when it was changed in place since it was
        saved: backward would compute with a value forward never saw."""
        if self.freed:
            if tracing.active is not None:
                narration.freed_tensor_asked(node, self.slot)
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if self.unpack_hook is not None:
            return self._unpack_with_hook(node)
        if self.non_leaf and self.packed._grad_fn is None:     # detach_()ed since saved
            raise RuntimeError(ERR_DETACHED_IN_PLACE)
        unchanged = self.version_counter.value == self.version
        if tracing.active is not None:
            narration.version_checked(node, self, unchanged)
        if not unchanged:
            raise RuntimeError(self._version_error(node))
        if not self.is_output:
            return self.packed
        # a saved output, kept as its array (see __init__): its tensor again, with its node
        output = tensor_door.Tensor._make(self.packed, requires_grad=True)
        output._version_counter, output._grad_fn = self.version_counter, node
        if self.weak_grad_fn is not None:       # (of_dirty_view)
            output._grad_fn = self.weak_grad_fn()
        output._output_nr = self.output_nr
        return output

    def _unpack_with_hook(self, node):
        """What `unpack_hook` makes of the packed value, put back in the saved tensor's place
        in the graph (PyTorch checks no version here: the hook may have made a copy)."""
        if tracing.active is not None:
            narration.tensor_unpacked(node, self.slot)
        tensor = self.unpack_hook(self.packed)
        if not isinstance(tensor, tensor_door.Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got "
                f"result of type {type(tensor).__name__}")
        if self.is_output:
            return tensor._output_alias(node, self.output_nr)
        return self._with_saved_edge(tensor)

    def _with_saved_edge(self, tensor):
        """The unpack hook's data as the saved input: its grad_fn (or its leaf's
        AccumulateGrad), as PyTorch's SavedVariable::unpack does; its version counter stays
        the hook's tensor's (changing it in place leaves the saved tensor's alone)."""
        restored = tensor._make(tensor._data, requires_grad=self.requires_grad)
        restored._version_counter = tensor._version_counter
        if self.grad_fn is not None:
            restored._grad_fn, restored._output_nr = self.grad_fn, self.output_nr
        elif self.accumulator is not None:
            restored._accumulator_ref = weakref.ref(self.accumulator)
        return restored

    @property
    def dtype(self):
        return dtypes.from_numpy_dtype(self._numpy_dtype)

    @property
    def nbytes(self):
        count = 1
        for size in self.shape:
            count *= size
        return count * self._numpy_dtype.itemsize

    @property
    def description(self):
        """PyTorch's name for the saved tensor in errors, 'torch.FloatTensor [2]' (made only
        when an error needs it: every op saves tensors)."""
        return f"torch.{dtypes.legacy_name(self.dtype)}Tensor [{', '.join(map(str, self.shape))}]"

    def info(self):
        """What the visualisations show of a saved tensor (without unpacking it)."""
        return {"shape": tuple(self.shape), "dtype": str(self.dtype), "nbytes": self.nbytes,
                "version": self.version,
                "current_version": getattr(self.version_counter, "value", self.version),
                "is_output": self.is_output, "packed": self.unpack_hook is not None,
                "freed": self.freed, "wrapped_number": self.wrapped_number}

    def _version_error(self, node):
        # PyTorch names the node that made the tensor: for a saved output this node,
        # for a saved input its current grad_fn (none for a leaf).
        if self.is_output:
            maker, output_nr = node, self.output_nr
        else:
            maker, output_nr = self.packed.grad_fn, self.packed._output_nr
        where = "" if maker is None else (
            f", which is output {output_nr} of {re.sub(r'Backward(0$)?(?=[0-9]*$)', '', maker.name())},")
        return (
            "one of the variables needed for gradient computation has been modified by "
            f"an inplace operation: [{self.description}]{where} is at version "
            f"{self.version_counter.value}; expected version {self.version} instead. Hint: "
            f"{HINT_IN_ANOMALY_MODE if anomaly.is_enabled() else HINT_ANOMALY_MODE}\n"
            f"minigrad hint: {node.name()} saved this tensor for backward and it was "
            "changed in place afterwards, so backward would use the wrong value. Use an "
            "out-of-place op instead (y = y + 1, not y.add_(1)), or clone() the tensor "
            "before modifying it.")


# The end of PyTorch's "modified by an inplace operation" error, out of anomaly mode and in it
HINT_ANOMALY_MODE = (
    "enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False).")
HINT_IN_ANOMALY_MODE = (
    "the backtrace further above shows the operation that failed to compute its gradient. "
    "The variable in question was changed in there or anywhere later. Good luck!")


ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


ERR_DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead")

ERR_PACK_HOOK_IN_PLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook.")


class saved_tensors_hooks:
    """Pack every tensor saved for backward with `pack_hook`; unpack with `unpack_hook`.

    `pack_hook(tensor)` runs when an op saves a tensor and may return anything;
    `unpack_hook(packed)` runs when backward needs it and must return a tensor
    equal to the one saved.  Nested blocks: the innermost pair wins.

    Example::

        >>> import minigrad as torch
        >>> log = []
        >>> def pack(t): log.append("pack"); return t
        >>> def unpack(t): log.append("unpack"); return t
        >>> a = torch.ones(3, requires_grad=True)
        >>> with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        ...     y = a.exp()
        >>> y.sum().backward()
        >>> log
        ['pack', 'unpack']
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hooks_disabled:
            raise RuntimeError(_hooks_disabled[-1])
        _saved_tensors_hooks_stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc_info):
        _saved_tensors_hooks_stack.pop()
        return False


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message="saved tensors hooks are disabled"):
    """Within this block, registering saved tensors hooks raises `error_message` (so does
    entering the block while hooks are active)."""
    if _saved_tensors_hooks_stack:
        raise RuntimeError(error_message)
    _hooks_disabled.append(error_message)
    try:
        yield
    finally:
        _hooks_disabled.pop()


_hooks_disabled = []        # error messages of the disable_saved_tensors_hooks blocks open


# NOTE [saved numbers]: a saved Python number (the 2 of x * 2, the 0.999 of each step
# of a long chain) is kept as its bare 0-dim array, not a SavedTensor: nothing can
# change it (no one else holds its tensor), so there is no version to check and no
# hook to run.  An array is no work for Python's garbage collector, where a SavedTensor
# is (each full collection visits every live object: in a chain of `y * 0.999` this
# was a third of the objects and half of the collector's time).  The functions
# below are the only ones that know: backward unpacks through `unpack_all`, a node
# frees through `release_saved`, the pictures read `saved_info`, and
# `saved_tensors_of` makes a SavedTensor of it for good when someone looks closer
# (`grad_fn._saved_other`: the same tensor each time, as PyTorch's).

def save(tensor, node, slot):
    """What a node keeps of a tensor given to save_for_backward: a SavedTensor (None for
    None; a saved Python number, its bare array: NOTE [saved numbers])."""
    if tensor is None:
        return None
    if tensor._wrapped_number:
        if tracing.active is not None:
            narration.tensor_saved(node, slot, tensor, False)
        return tensor._data
    if node._dirty and tensor._base is not None and any(tensor is d for d in node._dirty):
        return SavedTensor.of_dirty_view(tensor, node, slot)
    return SavedTensor(tensor, node, slot, tensor._grad_fn is node)


def unpack_all(saved, node):
    """Every slot a node saved, as a tensor again (None for None)."""
    tensors = []
    for slot, kept in enumerate(saved):
        if kept.__class__ is SavedTensor:
            tensors.append(kept.unpack(node))
        elif kept is None:
            tensors.append(None)
        else:                                   # a saved number (NOTE [saved numbers])
            if node._numbers_freed:
                if tracing.active is not None:
                    narration.freed_tensor_asked(node, slot)
                raise RuntimeError(ERR_BACKWARD_TWICE)
            if tracing.active is not None:
                narration.number_unpacked(node, slot)
            tensors.append(number_tensor(kept))
    return tuple(tensors)


def release_saved(node):
    """Free what a node saved (after a backward without retain_graph)."""
    numbers = False
    for slot, kept in enumerate(node._saved):
        if kept.__class__ is SavedTensor:
            if tracing.active is not None and not kept.freed:
                narration.tensor_freed(node, slot, kept)
            kept.freed, kept.packed = True, None
            if kept.unpack_hook is not None:    # (only packed tensors set these)
                kept.unpack_hook = kept.grad_fn = kept.accumulator = None
        elif kept is not None:                  # a saved number: freed with its node
            numbers = True
            if tracing.active is not None and not node._numbers_freed:
                narration.tensor_freed(node, slot, kept)
    if numbers:
        node._numbers_freed = True


def saved_info(node):
    """What the pictures show of each slot a node saved (None for a saved None), without
    unpacking anything, nor changing how a saved number is kept."""
    infos = []
    for kept in node._saved or ():
        if kept is None or kept.__class__ is SavedTensor:
            infos.append(None if kept is None else kept.info())
        else:                                   # a saved number (NOTE [saved numbers])
            infos.append({"shape": kept.shape, "dtype": str(dtypes.from_numpy_dtype(kept.dtype)),
                          "nbytes": int(kept.nbytes), "version": 0, "current_version": 0,
                          "is_output": False, "packed": False, "freed": node._numbers_freed,
                          "wrapped_number": True})
    return infos


def saved_tensors_of(node):
    """A node's SavedTensors, one per slot (None for None): its saved numbers become
    SavedTensors now, for good, so that `grad_fn._saved_other` is the same tensor each
    time it is read, as in PyTorch."""
    if node._saved is None:
        return None
    slots = []
    for slot, kept in enumerate(node._saved):
        if kept is not None and kept.__class__ is not SavedTensor:
            kept = SavedTensor.of_number(kept, node, slot)
            if node._numbers_freed:             # backward has run: freed, as the others
                kept.freed, kept.packed = True, None
        slots.append(kept)
    node._saved = tuple(slots)
    return node._saved


def number_tensor(array):
    """A saved Python number's tensor again, from the bare array its node kept:
    0-dim, a wrapped number, version 0."""
    number = tensor_door.Tensor._make(array)
    number._wrapped_number = True
    return number
