"""More Tensor methods that PyTorch's autograd tutorials use: in-place masked_fill_,
and inference tensors (`inference_mode`).  A mixin of Tensor, like tensor_math.py."""
from .autograd.grad_mode import _state as _grad_mode
from .ops import inplace
from .tensor_ops import TensorOps


class TensorExtras(TensorOps):
    __slots__ = ()
    _inference = False          # set on tensors made inside inference_mode()

    def masked_fill_(self, mask, value):
        """Write `value` where `mask` (a bool tensor broadcastable to self) is True.

        Example::

            >>> import minigrad as torch
            >>> x = torch.tensor([1.0, -2.0, 3.0])
            >>> x.masked_fill_(x < 0, 0.0)
            tensor([1., 0., 3.])
        """
        if getattr(value, "_is_minigrad_tensor", False):
            value = value.item()            # (a tensor value gets no gradient here)
        return self._inplace(inplace.MaskedFillInplace, mask, value)

    def is_inference(self):
        """True for a tensor made inside `torch.inference_mode()`."""
        return self._inference

    def _check_not_inference(self):
        """PyTorch's rule: an inference tensor changes in place only in inference mode."""
        if self._inference and not _grad_mode["inference"]:
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed."
                "You can make a clone to get a normal tensor before doing inplace update."
                "See https://github.com/pytorch/rfcs/pull/17 for more details.")
