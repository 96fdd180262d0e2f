"""torch.autograd.forward_ad: forward-mode AD (dual tensors) (minigrad/surface/forward_ad.py)."""
from ..surface import forward_ad as _implementation
from ..surface.forward_ad import *  # noqa: F401,F403


def __getattr__(name):          # its other names, read from where they live
    return getattr(_implementation, name)
