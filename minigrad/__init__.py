"""minigrad: PyTorch's autograd, small enough to read.

`import minigrad as torch` runs PyTorch's autograd tutorials unchanged.
"""
from . import amp, autograd, backend, cuda, dtypes, nn, return_types, settings, tracing
from .autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .autograd.anomaly import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import inference_mode, is_inference_mode_enabled
from .backend import device
from .creation import (arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like,
                       linspace, manual_seed, normal, ones, ones_like, rand, rand_like, randint,
                       randn, randn_like, tensor, zeros, zeros_like)
from .dtypes import (bool, double, dtype, float, float16, float32, float64, get_default_dtype,
                     half, int, int8, int16, int32, int64, long, set_default_dtype, short,
                     uint8)
from .functions import (abs, add, allclose, argmax, argmin, cat, clamp, clone, cos, div, dot,
                        equal, exp, flatten, is_floating_point, is_inference, is_tensor, log,
                        log_softmax,
                        masked_fill, matmul, max, maximum, mean, min, minimum, mm, mul, neg,
                        numel, permute, pow, reciprocal, relu, reshape, sigmoid, sign, sin,
                        softmax, sqrt, square, squeeze, stack, sub, sum, t, tanh, transpose,
                        unsqueeze, where)
from .functions_ops import *  # noqa: F401,F403 (split, cumsum, norm, outer ...)
from .functions_arith import *  # noqa: F401,F403 (addcmul, einsum, unique ...)
from .functions_inplace import *  # noqa: F401,F403 (sin_, zero_ ...)
from .functions_logic import *  # noqa: F401,F403 (eq, logical_and, isclose ...)
from .legacy_types import CPU_TYPES as _LEGACY_TYPES
from .serialization import load, save
from . import linalg  # noqa: E402  (after functions_ops: torch.linalg, not ops.linalg)
from ._formatting import set_printoptions
from .settings import is_warn_always_enabled, set_warn_always
from .type_info import finfo, iinfo
from .tensor import Tensor
from .tensor_shape import Size

globals().update(_LEGACY_TYPES)          # torch.FloatTensor, torch.LongTensor ...
__version__ = "0.1.0"
from math import e, inf, nan, pi  # noqa: E402,F401  (torch.pi, torch.inf ...)

from . import arguments as _arguments  # noqa: E402
from . import signatures as _signatures  # noqa: E402
_arguments.parse_arguments_in(__import__("sys").modules[__name__], _signatures.FUNCTIONS,
                              shown_names=_signatures.MESSAGE_NAMES)
_arguments.read_first_in(__import__("sys").modules[__name__], _signatures.READS_FIRST)
_arguments.accept_numpy_names_in(__import__("sys").modules[__name__])   # torch.sum(x, axis=0)
_arguments.parse_arguments_in(Tensor, _signatures.METHODS, method=True)
_arguments.accept_numpy_names_in(Tensor)                                # x.sum(axis=0)
_arguments.operators_give_way_in(Tensor)                                # x * None: TypeError
_arguments.parse_arguments_in(nn.functional, _signatures.FUNCTIONAL,
                              shown_names=_signatures.MESSAGE_NAMES,
                              as_methods=_signatures.FUNCTIONAL_AS_METHODS)
_arguments.read_first_in(nn.functional, _signatures.FUNCTIONAL_READS_FIRST)

