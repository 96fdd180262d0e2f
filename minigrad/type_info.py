"""torch.finfo and torch.iinfo: the limits of a floating-point or integer dtype (eps,
tiny, max ...), which code uses for safe divisions and masks (torch.finfo(x.dtype).eps,
-torch.finfo(x.dtype).max).  numpy knows them.

Example::

    >>> import minigrad as torch
    >>> torch.finfo(torch.float32).eps, torch.iinfo(torch.int64).max
    (1.1920928955078125e-07, 9223372036854775807)
"""
import numpy as np

from . import dtypes


class finfo:
    """The limits of a floating-point dtype (the default dtype when none is given)."""

    def __init__(self, type=None):
        type = dtypes.get_default_dtype() if type is None else type
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(type.numpy)
        self.dtype = type.name                    # (a name, as PyTorch's finfo keeps it)
        self.bits, self.eps, self.max, self.min = info.bits, float(info.eps), float(info.max), \
            float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """The limits of an integer dtype."""

    def __init__(self, type):
        self.dtype = type.name
        if type.is_floating_point or type.name == "bool":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(type.numpy)
        self.bits, self.max, self.min = info.bits, int(info.max), int(info.min)

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
