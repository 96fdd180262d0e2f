"""More arithmetic methods of Tensor, beside tensor_math.py's: the three-operand updates
that optimizer steps and moving averages are written with (addcmul, addcdiv, lerp, and
their in-place forms; ops/updates.py), cumprod, rsqrt, nan_to_num, cross, and PyTorch's
other names for methods Tensor has (clip, ndimension, reshape_as, new_empty).  A mixin of
Tensor.

Example::

    >>> import minigrad as torch
    >>> avg = torch.zeros(2)
    >>> avg.lerp_(torch.tensor([1.0, 2.0]), 0.1)         # a moving average's step
    tensor([0.1000, 0.2000])
    >>> torch.ones(2).addcmul(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), value=0.5)
    tensor([2.5000, 5.0000])
"""
from .ops import inplace_unary, stats, unary_more, updates


class TensorArith:
    __slots__ = ()

    def addcmul(self, tensor1, tensor2, *, value=1):
        """self + value·tensor1·tensor2 (AddcmulBackward0)."""
        return updates.Addcmul.apply(self, tensor1, tensor2, value)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return self._inplace(inplace_unary.AddcmulInplace, tensor1, tensor2, value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        """self + value·tensor1/tensor2 (AddcdivBackward0)."""
        return updates.Addcdiv.apply(self, tensor1, tensor2, value)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return self._inplace(inplace_unary.AddcdivInplace, tensor1, tensor2, value)

    def lerp(self, end, weight):
        """self + weight·(end - self), weight a number or a tensor."""
        return updates.lerp(self, end, weight)

    def lerp_(self, end, weight):
        op = inplace_unary.LerpTensorInplace if hasattr(weight, "_data") else \
            inplace_unary.LerpInplace
        return self._inplace(op, end, weight)

    def cumprod(self, dim, *, dtype=None):
        """The running product along dim (CumprodBackward0)."""
        return stats.Cumprod.apply(self if dtype is None else self.to(dtype), dim)

    def rsqrt(self):
        """1 / √self (RsqrtBackward0)."""
        return unary_more.Rsqrt.apply(self)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        """nan, inf and -inf replaced by numbers (NanToNumBackward0)."""
        return unary_more.NanToNum.apply(self, nan, posinf, neginf)

    def cross(self, other, dim=None):
        from .functions_arith import cross
        return cross(self, other, dim)

    def clip(self, min=None, max=None):
        return self.clamp(min, max)

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    def ndimension(self):
        return self.ndim

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        """A tensor like this one of `size` (uninitialised in PyTorch, zeros here)."""
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

