"""FunctionCtx: what a custom Function's forward can leave for its backward
(save_for_backward, mark_dirty, mark_non_differentiable, set_materialize_grads).

The ctx a recorded op fills in is its node (BackwardNode, function.py), so that
backward reads what forward saved from the graph itself.
"""
from .saved_tensor import ERR_BACKWARD_TWICE, SavedTensor, number_tensor
from ..tensor_data import TensorData


class FunctionCtx:
    """What forward can leave for backward.  Any other attribute (`ctx.constant = 3`)
    is free for non-tensor values."""

    def save_for_backward(self, *tensors):
        """Save tensors (or None) for backward; read them back with `ctx.saved_tensors`.

        Saved tensors are version-checked: if one is modified in place before
        backward, unpacking it raises an error instead of a wrong gradient.
        """
        if not getattr(self, "_in_forward", False):
            raise RuntimeError(
                "save_for_backward can only be called from forward: backward reads "
                "what forward saved through ctx.saved_tensors.")
        for position, tensor in enumerate(tensors):
            if not isinstance(tensor, TensorData) and tensor is not None:
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{position} is of type {type(tensor).__name__}. Keep non-tensor "
                    f"values as attributes instead, e.g. ctx.value = value.")
        self.to_save = tensors

    @property
    def saved_tensors(self):
        """The tensors given to `save_for_backward`, unpacked and version-checked."""
        saved = getattr(self, "_saved", None)
        if saved is None:        # (in forward: nothing is saved yet, as in PyTorch)
            return () if getattr(self, "_in_forward", False) else tuple(getattr(self, "to_save", ()))
        unpacked = []
        for slot in saved:
            if slot is None or isinstance(slot, SavedTensor):
                unpacked.append(slot.unpack(self) if slot is not None else None)
            elif self._numbers_freed:           # a saved number (NOTE [saved numbers])
                raise RuntimeError(ERR_BACKWARD_TWICE)
            else:
                unpacked.append(number_tensor(slot))
        return tuple(unpacked)

    _bare_numbers = _numbers_freed = False      # NOTE [saved numbers] (outputs.py)

    def _saved_slots(self):
        """The SavedTensors of this node (None for a saved None), saved numbers too: those
        kept as bare arrays (NOTE [saved numbers]) become SavedTensors now, for good."""
        if self._bare_numbers:
            saved = self._saved
            slots = []
            for slot, kept in enumerate(saved):
                if kept is not None and not isinstance(kept, SavedTensor):
                    kept = SavedTensor.of_number(kept, self, slot)
                    if self._numbers_freed:     # backward has run: freed, as the others
                        kept.freed, kept.packed = True, None
                slots.append(kept)
            self._saved, self._bare_numbers = tuple(slots), False
        return self._saved

    def save_for_forward(self, *tensors):
        """Save tensors (or None) for `jvp`, which reads them with `ctx.saved_tensors`."""
        for tensor in tensors:
            if not (isinstance(tensor, TensorData) or tensor is None):
                raise AssertionError("save_for_forward expects all arguments to be tensors; "
                                     "you should save non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        """Declare inputs that forward modified in place (and returns as outputs).
        Like PyTorch, this bumps their version once more."""
        self._dirty = tuple(tensors)
        for tensor in tensors:
            tensor._version_counter.value += 1

    def mark_non_differentiable(self, *tensors):
        """Declare outputs that have no gradient (indices, masks...)."""
        self._non_differentiable = tuple(tensors)

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = bool(value)
