"""minigrad.autograd: the same names as torch.autograd.

The core of autograd, what the lessons teach, is minigrad/core/; PyTorch's surface
around it is minigrad/surface/.  This package keeps PyTorch's import paths:
torch.autograd.function, .graph, .grad_mode, .forward_ad, .functional, .gradcheck ...
"""
from . import (anomaly_mode, forward_ad, function, functional, grad_mode,  # noqa: F401
               gradcheck, graph)
from ..surface.anomaly import detect_anomaly, set_detect_anomaly
from ..surface.api import backward, grad
from ..surface.custom_function import Function
from ..surface.grad_mode import (enable_grad, is_grad_enabled, is_multithreading_enabled,
                                 no_grad, set_grad_enabled, set_multithreading_enabled)
from ..surface.gradcheck import GradcheckError, gradcheck, gradgradcheck
from ..surface.saved_attributes import RawSavedTensor as SavedTensor
from ..surface.variable import Variable

__all__ = ["Function", "backward", "grad", "gradcheck", "gradgradcheck", "GradcheckError",
           "detect_anomaly", "set_detect_anomaly", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "set_multithreading_enabled",
           "is_multithreading_enabled", "forward_ad", "function", "functional",
           "graph", "Variable", "SavedTensor"]
