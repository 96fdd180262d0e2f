"""In-place view ops: x.t_(), transpose_ (swapdims_, swapaxes_), squeeze_, unsqueeze_.

PyTorch changes the sizes and strides of x itself.  minigrad runs the view op, then x
takes the view's layout and history (Tensor._take_view in tensor_inplace.py): x's data
becomes the new view of the same memory, its grad_fn the view op's node.  Each op below
is its view op under the name PyTorch gives the in-place form's node.
"""
from .shape import Squeeze, T, Transpose, Unsqueeze


class TInplace(T):
    """x.t_(): x ← xᵀ;  dx = gᵀ."""

    node_name = "TBackward1"
    method = "t_"


class TransposeInplace(Transpose):
    """x.transpose_(d0, d1): x ← x with dims d0 and d1 swapped;  dx = g swapped back."""

    node_name = "TransposeBackward1"


class SqueezeInplace(Squeeze):
    """x.squeeze_(): x ← x without its size-1 dims;  dx = g with them put back."""

    node_name = "SqueezeBackward3"


class SqueezeDimInplace(Squeeze):
    """x.squeeze_(dim): x ← x without dim if its size is 1;  dx = g with it put back."""

    node_name = "SqueezeBackward4"


class UnsqueezeInplace(Unsqueeze):
    """x.unsqueeze_(dim): x ← x with a new size-1 dim;  dx = g squeezed there."""

    node_name = "UnsqueezeBackward1"
