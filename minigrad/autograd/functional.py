"""torch.autograd.functional: jacobian, hessian, vjp, jvp, vhp, hvp
(minigrad/surface/functional.py)."""
from ..surface import functional as _implementation
from ..surface.functional import *  # noqa: F401,F403


def __getattr__(name):          # its other names, read from where they live
    return getattr(_implementation, name)
