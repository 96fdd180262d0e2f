"""The named tuples that PyTorch's value-and-index ops return (`torch.return_types`):
`values, indices = x.sort()` unpacks like a tuple, and `x.sort().values` reads by name.

Example::

    >>> import minigrad as torch
    >>> torch.tensor([3, 1, 2]).sort()
    minigrad.return_types.sort(
    values=tensor([1, 2, 3]),
    indices=tensor([1, 2, 0]))
"""
import collections


class _ValuesIndices(collections.namedtuple("_ValuesIndices", ["values", "indices"])):
    __slots__ = ()

    def __repr__(self):
        return (f"minigrad.return_types.{type(self).__name__}(\n"
                f"values={self.values!r},\nindices={self.indices!r})")


class sort(_ValuesIndices):           # noqa: N801 (PyTorch's lower-case names)
    __slots__ = ()


class topk(_ValuesIndices):           # noqa: N801
    __slots__ = ()


class max(_ValuesIndices):            # noqa: N801,A001
    __slots__ = ()


class min(_ValuesIndices):            # noqa: N801,A001
    __slots__ = ()


class kthvalue(_ValuesIndices):      # noqa: N801
    __slots__ = ()


class mode(_ValuesIndices):           # noqa: N801
    __slots__ = ()


class median(_ValuesIndices):         # noqa: N801
    __slots__ = ()


class nanmedian(_ValuesIndices):      # noqa: N801
    __slots__ = ()
