"""torch.autograd.grad_mode: the switches of grad mode and inference mode
(minigrad/surface/grad_mode.py, built on the core's minigrad/core/grad_mode.py)."""
from ..surface.grad_mode import (enable_grad, inference_mode, is_grad_enabled,  # noqa: F401
                                 is_inference_mode_enabled, is_multithreading_enabled,
                                 no_grad, set_grad_enabled, set_multithreading_enabled)

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "set_multithreading_enabled"]
