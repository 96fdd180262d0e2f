"""minigrad.autograd: the same names as torch.autograd."""
from . import forward_ad, function, functional, graph
from .anomaly import detect_anomaly, set_detect_anomaly
from .api import backward, grad
from .function import Function
from .grad_mode import (enable_grad, is_grad_enabled, is_multithreading_enabled, no_grad,
                        set_grad_enabled, set_multithreading_enabled)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .saved_attributes import RawSavedTensor as SavedTensor
from .variable import Variable

__all__ = ["Function", "backward", "grad", "gradcheck", "gradgradcheck", "GradcheckError",
           "detect_anomaly", "set_detect_anomaly", "no_grad", "enable_grad",
           "set_grad_enabled", "is_grad_enabled", "set_multithreading_enabled",
           "is_multithreading_enabled", "forward_ad", "function", "functional",
           "graph", "Variable", "SavedTensor"]
