"""torch.utils.hooks: RemovableHandle, what every `register_*hook` returns
(minigrad/core/hooks.py)."""
from ..core.hooks import HookDict, RemovableHandle, add_hook  # noqa: F401

__all__ = ["RemovableHandle"]
