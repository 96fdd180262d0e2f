"""torch.autograd.anomaly_mode: detect_anomaly and set_detect_anomaly
(minigrad/surface/anomaly.py)."""
from ..surface import anomaly as _implementation
from ..surface.anomaly import *  # noqa: F401,F403


def __getattr__(name):          # its other names, read from where they live
    return getattr(_implementation, name)
