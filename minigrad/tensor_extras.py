"""More Tensor methods that PyTorch's autograd tutorials use: in-place masked_fill_,
inference tensors (`inference_mode`), and the rules for changing requires_grad.  A
mixin of Tensor, like tensor_math.py."""
import warnings

from . import backend
from .autograd.grad_mode import _state as _grad_mode, is_grad_enabled
from .ops import arithmetic, inplace, inplace_unary
from .ops._helpers import is_tensor, wrap_number
from .tensor_ops import TensorOps


NO_GRAD_VIEW_ERROR = (
    "A view was created in no_grad mode and is being modified inplace with grad mode "
    "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You "
    "can clarify your code by moving both the view and the inplace either both inside the "
    "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
    "want the inplace to be tracked).")


_T_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to "
    "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
    "reverse the dimensions of a tensor.")
_warned = {"T": False, "T of 0-D": False}      # PyTorch gives these once per process


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

    def requires_grad_(self, requires_grad=True):
        """Record operations on this leaf from now on (or stop, with False)."""
        self._set_requires_grad(bool(requires_grad), attribute=False)
        return self

    def _set_requires_grad(self, value, attribute):
        """PyTorch's rules, whose texts differ a little between `t.requires_grad = v`
        (the attribute: no change at all of a non-leaf) and `t.requires_grad_(v)`."""
        if self.grad_fn is not None and (attribute or not value):
            raise RuntimeError("you can only change requires_grad flags of leaf variables." + (
                "" if value else " If you want to use a computed variable in a subgraph "
                "that doesn't require differentiation use var_no_grad = var.detach()."))
        if value and not self.dtype.is_floating_point:
            kinds = "floating point and complex dtype" if attribute else "floating point dtype"
            raise RuntimeError(f"only Tensors of {kinds} can require gradients")
        if value and self._inference and not _grad_mode["inference"]:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if self.grad_fn is None:
            self._requires_grad = value

    @property
    def output_nr(self):
        """Which output of its grad_fn this tensor is (0 for a leaf)."""
        return self._output_nr

    @property
    def T(self):
        """All dims reversed (a matrix transposed); PyTorch warns, once, for other ranks."""
        which = "T" if self.ndim else "T of 0-D"
        if self.ndim != 2 and not _warned[which]:
            _warned[which] = True
            warnings.warn(_T_WARNING if self.ndim else "Tensor.T is deprecated on 0-D tensors. "
                          "This function is the identity in these cases.", UserWarning,
                          stacklevel=2)
        return self.permute(*reversed(range(self.ndim)))

    @property
    def mT(self):
        """The matrices transposed (the last two dims swapped); mH is the same for real
        numbers."""
        if self.ndim < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of "
                               f"matrices. Got {self.ndim}-D tensor.")
        return self.transpose(-2, -1)

    mH = mT

    def __floordiv__(self, other):
        """self // other: rounded toward -inf, as Python's and numpy's (no gradient)."""
        return arithmetic.FloorDivide.apply(self, wrap_number(other, self))

    def __rfloordiv__(self, other):
        return arithmetic.FloorDivide.apply(wrap_number(other, self), self)

    def __mod__(self, other):
        """self % other, with the sign of other, as Python's and numpy's."""
        op = arithmetic.Remainder if is_tensor(other) else arithmetic.RemainderScalar
        return op.apply(self, wrap_number(other, self))

    def __rmod__(self, other):
        return arithmetic.Remainder.apply(wrap_number(other, self), self)

    floor_divide, remainder = __floordiv__, __mod__

    def clip(self, min=None, max=None):
        """clamp's other name."""
        return self.clamp(min, max)

    def normal_(self, mean=0.0, std=1.0):
        """Fill with normal random numbers (initialising weights: inside no_grad)."""
        return self._inplace(inplace_unary.RandomFill, "normal", mean, std)

    def uniform_(self, a=0.0, b=1.0):
        """Fill with random numbers uniform in [a, b)."""
        return self._inplace(inplace_unary.UniformFill, "uniform", a, b)

    def _check_inplace_allowed(self, through_view=False):
        """PyTorch's refusals: an in-place change to a leaf that requires grad loses history.
        `through_view`: the write goes through a view of self (`x[0] = 1`)."""
        if self._inference:
            self._check_not_inference()
        if not is_grad_enabled():
            return
        made_by = self.__dict__.get("_view_made_by")
        if made_by is not None and len(made_by) > 2:       # split, unbind: many views at once
            raise RuntimeError(made_by[2].format(name=made_by[0], nr=made_by[1]))
        if made_by is not None:
            raise RuntimeError(
                f"Output {made_by[1]} of {made_by[0]} is a view and is being modified inplace. "
                "This view was created inside a custom Function (or because an input was "
                "returned as-is) and the autograd logic to handle view+inplace would override "
                "the custom backward associated with the custom Function, leading to incorrect "
                "gradients. This behavior is forbidden. You can fix this by cloning the output "
                "of the custom Function.")
        if self.is_leaf and self._requires_grad and not through_view:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation. "
                "minigrad hint: update parameters inside `with torch.no_grad():`.")
        if self._base is not None and self._grad_fn is None and self._base.requires_grad:
            raise RuntimeError(NO_GRAD_VIEW_ERROR)     # (a view made in grad mode has one)
        base = self if through_view else self._base
        if base is not None and base.is_leaf and base._requires_grad:
            raise RuntimeError(
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.")
        if self._base is not None and backend.has_internal_overlap(self._data):
            self._check_write(self.shape, self.dtype)      # PyTorch's error for x.expand()

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


def _in_place_method(name, op):
    def method(self):
        return self._inplace(op)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"{name[:-1]}, written into this tensor (its version goes up by one)."
    return method


for _name, _op in inplace_unary.IN_PLACE.items():      # exp_, sin_, relu_ ...
    setattr(TensorExtras, _name, _in_place_method(_name, _op))
