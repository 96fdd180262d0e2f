"""minigrad: PyTorch's autograd, small enough to read.

`import minigrad as torch` runs PyTorch's autograd tutorials unchanged.
"""
from . import autograd, backend, dtypes, settings, trace
from .autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .backend import device
from .creation import (arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like,
                       linspace, manual_seed, ones, ones_like, rand, randint, randn, tensor,
                       zeros, zeros_like)
from .dtypes import (bool, double, dtype, float, float16, float32, float64, get_default_dtype,
                     half, int, int8, int16, int32, int64, long, set_default_dtype, short,
                     uint8)
from .functions import (abs, allclose, cat, clamp, cos, exp, log, matmul, max, maximum, mean,
                        min, minimum, mm, relu, sigmoid, sin, sqrt, stack, sum, tanh, where)
from .tensor import Tensor
from .tensor_data import Size

__version__ = "0.1.0"


class cuda:
    """minigrad.cuda.is_available(): True when CuPy and a GPU are usable."""

    is_available = staticmethod(backend.cuda_is_available)
