"""torch.autograd.function: Function, its ctx and the class of its nodes
(minigrad/surface/custom_function.py, built on the core's minigrad/core/function.py)."""
from ..core.function import FunctionCtx
from ..surface.custom_function import BackwardCFunction, Function, InplaceFunction
from ..surface.once_differentiable import once_differentiable

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "InplaceFunction",
           "once_differentiable"]
