"""torch.autograd.graph: Node, saved tensors hooks, save_on_cpu, multi-grad hooks ...
(minigrad/surface/graph.py lists where each lives)."""
from ..surface import graph as _implementation
from ..surface.graph import *  # noqa: F401,F403


def __getattr__(name):          # its other names, read from where they live
    return getattr(_implementation, name)
