"""minigrad: PyTorch's autograd, small enough to read.

`import minigrad as torch` runs PyTorch's autograd tutorials unchanged.

    core/       what the lessons teach: the tensor's place in the graph, Function.apply,
                the nodes, saved tensors, the engine, grad mode
    ops/        every built-in op, a Function with its forward and backward
    surface/    PyTorch's surface around them: the Tensor class and its methods, torch.*
                functions, argument checks, PyTorch's modes and rules
    speed/      what only makes minigrad faster
    autograd/, nn/, utils/, cuda    PyTorch's import paths
"""
from . import amp, autograd, backend, cuda, nn, settings, tracing, utils
from .backend import device
from .settings import is_warn_always_enabled, set_warn_always
from .surface import dtypes, return_types
from .surface.anomaly import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .surface.creation import (arange, as_tensor, empty, empty_like, eye, from_numpy, full,
                               full_like, linspace, manual_seed, normal, ones, ones_like, rand,
                               rand_like, randint, randn, randn_like, tensor, zeros, zeros_like)
from .surface.dtypes import (bool, double, dtype, float, float16, float32, float64,
                             get_default_dtype, half, int, int8, int16, int32, int64, long,
                             set_default_dtype, short, uint8)
from .surface.formatting import set_printoptions
from .surface.functions_arith import *  # noqa: F401,F403 (addcmul, einsum, unique ...)
from .surface.functions_compare import *  # noqa: F401,F403 (max, equal, sort, any ...)
from .surface.functions_inplace import *  # noqa: F401,F403 (sin_, zero_ ...)
from .surface.functions_logic import *  # noqa: F401,F403 (eq, logical_and, isclose ...)
from .surface.functions_math import *  # noqa: F401,F403 (add, exp, sum, matmul, norm ...)
from .surface.functions_shape import *  # noqa: F401,F403 (reshape, cat, split, gather ...)
from .surface.grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                                is_inference_mode_enabled, no_grad, set_grad_enabled)
from .surface.legacy_types import CPU_TYPES as _LEGACY_TYPES
from .surface.serialization import load, save
from .surface.tensor import Tensor
from .surface.tensor_shape import Size
from .surface.type_info import finfo, iinfo
from . import linalg  # noqa: E402,I001  (after the functions: torch.linalg, not ops.linalg)

globals().update(_LEGACY_TYPES)          # torch.FloatTensor, torch.LongTensor ...

__version__ = "0.1.0"
from math import e, inf, nan, pi  # noqa: E402,F401  (torch.pi, torch.inf ...)
