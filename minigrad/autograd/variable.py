"""torch.autograd.variable: Variable, PyTorch's old name for a tensor
(minigrad/surface/variable.py)."""
from ..surface import variable as _implementation
from ..surface.variable import *  # noqa: F401,F403


def __getattr__(name):          # its other names, read from where they live
    return getattr(_implementation, name)
