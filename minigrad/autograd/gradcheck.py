"""torch.autograd.gradcheck: gradcheck and gradgradcheck (minigrad/surface/gradcheck.py)."""
from ..surface import gradcheck as _implementation
from ..surface.gradcheck import *  # noqa: F401,F403


def __getattr__(name):          # its other names, read from where they live
    return getattr(_implementation, name)
