"""The methods of Tensor that compare elements: ==, <, &, ~ ... and all/any; max, min and
where they are; sorting, topk, median, mode and kthvalue.  Only max, min, sort and the
others that pick elements carry a gradient (to the elements they picked); each calls
one op of minigrad/ops/ (reduce.py, ordering.py).  A mixin of Tensor."""
import operator

from ..ops import ordering, reduce
from ..ops.arithmetic import binary_arrays, is_tensor
from . import arguments, devices, dtypes, functions_compare, return_types


class TensorCompare:
    __slots__ = ()

    # --- comparisons and logic (no gradient) ------------------------------------
    def _compare(self, other, op):
        if not (is_tensor(other) or isinstance(other, (int, float, bool, complex))):
            return NotImplemented
        if is_tensor(other) and other.device is not self.device:     # PyTorch's error
            self, other = devices.match_devices("elementwise", (self, other))
        x, y = binary_arrays(self, other)
        return self._new(op(x, y))

    def __eq__(self, other):
        return self._compare(other, operator.eq)

    def __ne__(self, other):
        return self._compare(other, operator.ne)

    def __lt__(self, other):
        return self._compare(other, operator.lt)

    def __le__(self, other):
        return self._compare(other, operator.le)

    def __gt__(self, other):
        return self._compare(other, operator.gt)

    def __ge__(self, other):
        return self._compare(other, operator.ge)

    eq = arguments.method_alias("eq", __eq__)
    ne = arguments.method_alias("ne", __ne__)
    lt = arguments.method_alias("lt", __lt__)
    le = arguments.method_alias("le", __le__)
    gt = arguments.method_alias("gt", __gt__)
    ge = arguments.method_alias("ge", __ge__)

    def __and__(self, other):
        return self._compare(other, operator.and_)

    def __or__(self, other):
        return self._compare(other, operator.or_)

    def __xor__(self, other):
        return self._compare(other, operator.xor)

    def __invert__(self):
        return self._new(~self._data)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def logical_not(self):
        return self._new(self._xp.logical_not(self._data))

    @arguments.method
    def equal(self, other):
        return self.shape == other.shape and bool((self == other).all())

    @arguments.method
    def all(self, dim=None, keepdim=False):
        """True where every element (over `dim`, or all of them) is nonzero."""
        return functions_compare.all(self, dim, keepdim)

    @arguments.method
    def any(self, dim=None, keepdim=False):
        """True where some element (over `dim`, or all of them) is nonzero."""
        return functions_compare.any(self, dim, keepdim)

    @arguments.method
    def count_nonzero(self, dim=None):
        """How many elements (over `dim`, or all of them) are not zero (int64)."""
        return functions_compare.count_nonzero(self, dim)

    # --- max, min and where they are -------------------------------------------
    @arguments.method
    def max(self, dim=None, keepdim=False):
        if is_tensor(dim):
            return self.maximum(dim)
        if dim is None:
            return reduce.Max.apply(self)
        return return_types.max(*reduce.MaxDim.apply(self, dim, keepdim))

    @arguments.method
    def min(self, dim=None, keepdim=False):
        if is_tensor(dim):
            return self.minimum(dim)
        if dim is None:
            return reduce.Min.apply(self)
        return return_types.min(*reduce.MinDim.apply(self, dim, keepdim))

    @arguments.method
    def argmax(self, dim=None, keepdim=False):
        ordering.refuse_bool(self, "argmax")
        # numpy's argmax and argmin give numpy's platform int (int32 on 32-bit machines, as in
        # the browser's Pyodide); PyTorch's indices are int64 everywhere
        if dim is None:
            return self._new(self._data.argmax().astype(dtypes.int64.numpy))
        return self.max(dim, keepdim).indices

    @arguments.method
    def argmin(self, dim=None, keepdim=False):
        ordering.refuse_bool(self, "argmin")
        if dim is None:
            return self._new(self._data.argmin().astype(dtypes.int64.numpy))
        return self.min(dim, keepdim).indices

    # --- orderings: sort, topk, median, mode ... -------------------------------
    @arguments.method
    def sort(self, *dim_descending, dim=-1, descending=False, stable=None):
        """(values, indices): the elements along dim in order, and where each came from.
        Equal values keep their order (see ops/ordering.py for PyTorch's ties).

        Example::

            >>> import minigrad as torch
            >>> values, indices = torch.tensor([3.0, 1.0, 2.0]).sort(descending=True)
            >>> values, indices
            (tensor([3., 2., 1.]), tensor([0, 2, 1]))
        """
        dim, descending = ordering.sort_arguments(dim_descending, dim, descending, stable)
        op = ordering.Sort if stable is None else ordering.SortStable
        return return_types.sort(*op.apply(self, dim, descending))

    @arguments.method
    def argsort(self, dim=-1, descending=False, stable=False):
        """The indices that sort the elements along dim: sort's indices (no gradient)."""
        return self.sort(dim=dim, descending=descending, stable=stable).indices

    @arguments.method
    def topk(self, k, dim=-1, largest=True, sorted=True):
        """(values, indices) of the k largest elements along dim, largest first (or the k
        smallest, smallest first).  sorted=False keeps that order (PyTorch's is unspecified).

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([1.0, 5.0, 3.0, 4.0]).topk(2).indices
            tensor([1, 3])
        """
        return return_types.topk(*ordering.Topk.apply(self, k, dim, largest))

    @arguments.method
    def kthvalue(self, k, dim=-1, keepdim=False):
        """(values, indices) of the k-th smallest element along dim (k = 1: the smallest)."""
        return return_types.kthvalue(*ordering.Kthvalue.apply(self, k, dim, keepdim))

    @arguments.method
    def mode(self, dim=-1, keepdim=False):
        """(values, indices): the most frequent value along dim (the smallest, among equally
        frequent ones) and its last position."""
        return return_types.mode(*ordering.Mode.apply(self, dim, keepdim))

    @arguments.method
    def median(self, dim=None, keepdim=False):
        """The lower median (of all elements, or (values, indices) along dim); NaN if one is
        NaN.  Its gradient goes to the chosen element (shared among equal ones without dim)."""
        if dim is None:
            return ordering.Median.apply(self)
        return return_types.median(*ordering.MedianDim.apply(self, dim, keepdim))

    @arguments.method
    def nanmedian(self, dim=None, keepdim=False):
        """median, ignoring the NaNs."""
        if dim is None:
            return ordering.Nanmedian.apply(self)
        return return_types.nanmedian(*ordering.NanmedianDim.apply(self, dim, keepdim))
