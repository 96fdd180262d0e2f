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
from . import autograd, backend, cuda, nn, settings, tracing, utils
from .backend import device
from .settings import is_warn_always_enabled, set_warn_always
from .surface import dtypes, return_types
from .surface.creation import (arange, as_tensor, empty, empty_like, eye, from_numpy, full,
                               full_like, linspace, manual_seed, ones, ones_like, rand,
                               rand_like, randint, randn, randn_like, tensor, zeros, zeros_like)
from .surface.dtypes import (bool, double, dtype, float, float16, float32, float64,
                             get_default_dtype, half, int, int8, int16, int32, int64, long,
                             set_default_dtype, short, uint8)
from .surface.functions_compare import *  # noqa: F401,F403 (max, equal, sort, any ...)
from .surface.functions_math import *  # noqa: F401,F403 (add, exp, sum, matmul, norm ...)
from .surface.functions_shape import *  # noqa: F401,F403 (reshape, cat, split, gather ...)
from .surface.grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                                is_inference_mode_enabled, no_grad, set_grad_enabled)
from .surface.serialization import load, save
from .surface.tensor import Tensor
from .surface.tensor_shape import Size

__version__ = "0.1.0"
from math import e, inf, nan, pi  # noqa: E402,F401  (torch.pi, torch.inf ...)
