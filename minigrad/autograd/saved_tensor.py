"""Saved tensors: what `ctx.save_for_backward` keeps, version-checked, packed by
`saved_tensors_hooks` when some are active, freed after backward."""
import contextlib
import re
import weakref

from .. import dtypes, trace
from .grad_mode import no_grad
from .graph import register_leaf_accumulator

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
    is_output, output_nr, wrapped_number, freed = False, 0, False, False
    unpack_hook = grad_fn = accumulator = None

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
        if narrate and trace.active is not None:
            trace.emit("tensor_saved", node=trace.ident(node), slot=slot,
                       tensor=trace.describe(tensor), version=self.version,
                       nbytes=self.nbytes, is_output=is_output,
                       wrapped_number=self.wrapped_number)
        if _saved_tensors_hooks_stack and not self.wrapped_number:
            pack_hook, self.unpack_hook = _saved_tensors_hooks_stack[-1]   # (never numbers)
            with no_grad():                      # packing records nothing, as in PyTorch
                self.packed = pack_hook(tensor)
            if tensor._version != self.version:
                raise RuntimeError(
                    "A saved tensors pack hook is modifying its input in place. Tensors "
                    "provided as input to pack hook can not be modified by in-place operations "
                    "as this can lead to unexpected side-effects. Please open an issue if you "
                    "need to perform in-place operations on the input to a pack hook.")
            # unpack() gives the hook's result the saved tensor's place in the graph back
            self.grad_fn, self.requires_grad = tensor.grad_fn, tensor._requires_grad
            self.accumulator = (register_leaf_accumulator(tensor)
                                if self.grad_fn is None and self.requires_grad else None)
            if trace.active is not None:
                trace.emit("tensor_packed", node=trace.ident(node), slot=slot,
                           packed_nbytes=trace.packed_nbytes(self.packed))
        elif is_output or self.wrapped_number:
            # An output is kept as its array (with its grad_fn it would be a reference cycle,
            # node -> saved output -> node); unpack() makes its tensor.  Saved numbers: _number.
            self.packed = data
            if self.wrapped_number:
                self.version_counter = None
        else:
            self.packed = tensor

    @classmethod
    def of_number(cls, array, node, slot):
        """The SavedTensor of a saved number that its node kept as a bare array
        (NOTE [saved numbers] in outputs.py); not narrated: that was the saving's part."""
        return cls(number_tensor(array), node, slot, is_output=False, narrate=False)

    def unpack(self, node):
        if self.freed:
            if trace.active is not None:
                trace.emit("saved_tensor_freed_access", node=trace.ident(node), slot=self.slot)
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if self.version_counter is None:
            self._number()
        if self.unpack_hook is None and trace.active is None:      # the common case, in short
            if self.version_counter.value != self.version:
                raise RuntimeError(self._version_error(node))
            return self._output(node) if self.is_output else self.packed
        checked = self.unpack_hook is None      # (with hooks PyTorch skips the check)
        passed = not checked or self.version_counter.value == self.version
        if trace.active is not None:
            if checked:
                trace.emit("version_check", node=trace.ident(node), slot=self.slot,
                           saved_version=self.version,
                           current_version=self.version_counter.value, passed=passed)
            if passed:
                trace.emit("tensor_unpacked", node=trace.ident(node), slot=self.slot)
        if not passed:
            raise RuntimeError(self._version_error(node))
        tensor = self.unpack_hook(self.packed) if self.unpack_hook else self.packed
        if self.unpack_hook is not None and not hasattr(tensor, "_data"):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got "
                f"result of type {type(tensor).__name__}")
        if self.is_output:
            tensor = (tensor._output_alias(node, self.output_nr) if self.unpack_hook
                      else self._output(node))
        elif self.unpack_hook is not None:
            tensor = self._with_saved_edge(tensor)
        return tensor

    def _output(self, node):
        """The saved output as a tensor again: its array, version counter and grad_fn."""
        tensor = make_tensor(self.packed, requires_grad=True)
        tensor._version_counter, tensor._grad_fn = self.version_counter, node
        tensor._output_nr = self.output_nr
        return tensor

    def _number(self):
        """A saved Python number (the 2 of x * 2) is kept as an array until first unpacked
        (no one else holds its tensor: nothing can change it), then as one tensor."""
        tensor = number_tensor(self.packed)
        tensor._version_counter.value = self.version
        self.packed, self.version_counter = tensor, tensor._version_counter
        return tensor

    def _with_saved_edge(self, tensor):
        """The unpack hook's data as the saved input: its grad_fn (or its leaf's
        AccumulateGrad) and version counter, as PyTorch's SavedVariable::unpack does."""
        restored = tensor._make(tensor._data, requires_grad=self.requires_grad)
        restored._version_counter = self.version_counter
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
        from ..ops._helpers import _type_name
        return f"torch.{_type_name(self.dtype)}Tensor [{', '.join(map(str, self.shape))}]"

    def info(self):
        """What the visualisations show of a saved tensor (without unpacking it)."""
        return {"shape": tuple(self.shape), "dtype": str(self.dtype), "nbytes": self.nbytes,
                "version": self.version,
                "current_version": getattr(self.version_counter, "value", self.version),
                "is_output": self.is_output, "packed": self.unpack_hook is not None,
                "freed": self.freed, "wrapped_number": self.wrapped_number}

    def release(self, node):
        if trace.active is not None and not self.freed:
            trace.emit("tensor_freed", node=trace.ident(node), slot=self.slot, nbytes=self.nbytes)
        self.freed, self.packed = True, None
        if self.unpack_hook is not None:        # (only packed tensors set these)
            self.unpack_hook = self.grad_fn = self.accumulator = None

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
            "enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True).\n"
            f"minigrad hint: {node.name()} saved this tensor for backward and it was "
            "changed in place afterwards, so backward would use the wrong value. Use an "
            "out-of-place op instead (y = y + 1, not y.add_(1)), or clone() the tensor "
            "before modifying it.")


ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


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


make_tensor = None     # Tensor._make, set by tensor.py (which imports this package first)


def number_tensor(array):
    """A saved Python number's tensor again, from the bare array its node kept
    (NOTE [saved numbers] in outputs.py): 0-dim, a wrapped number, version 0."""
    number = make_tensor(array)
    number._wrapped_number = True
    return number
