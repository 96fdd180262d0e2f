"""minigrad.cuda: the GPU, as `torch.cuda` shows it (CuPy underneath, imported on demand).

Example::

    >>> import minigrad as torch
    >>> device = "cuda" if torch.cuda.is_available() else "cpu"
    >>> x = torch.ones(3, device=device)
    >>> torch.cuda.memory_allocated() >= 0
    True
"""
import sys

from . import backend
from . import cuda_amp as amp
from .legacy_types import CUDA_TYPES

globals().update(CUDA_TYPES)             # torch.cuda.FloatTensor ...: a tensor on the GPU
sys.modules[__name__ + ".amp"] = amp     # `from torch.cuda.amp import custom_fwd`


def is_available():
    """True when CuPy is installed and sees a CUDA GPU (never raises)."""
    return backend.cuda_is_available()


def device_count():
    """How many GPUs CuPy sees (0 without CuPy or a GPU)."""
    if not is_available():
        return 0
    return int(backend.cupy().cuda.runtime.getDeviceCount())


def current_device():
    """The index of the GPU that "cuda" means."""
    return backend.current_cuda_index()


def memory_allocated(device=None):
    """Bytes in use in CuPy's default memory pool: the GPU memory tensors hold now
    (0 without CuPy).  Freed arrays go back to the pool, so this falls when they die.
    minigrad counts the pool of all GPUs (`device` is accepted for PyTorch's signature)."""
    if backend._cupy is None and not is_available():
        return 0
    return int(backend.cupy().get_default_memory_pool().used_bytes())


def empty_cache():
    """Give the GPU memory that CuPy's pool keeps for reuse back to the device (nothing
    without CuPy)."""
    if backend._cupy is not None:
        backend.cupy().get_default_memory_pool().free_all_blocks()


def synchronize(device=None):
    """Wait until the GPU has finished its queued work (time GPU code only after this)."""
    module = backend.cupy()
    with module.cuda.Device(backend.resolve(device or "cuda").index):
        module.cuda.Device().synchronize()
