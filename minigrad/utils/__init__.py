"""torch.utils: hooks (RemovableHandle), _contextlib (decorators of the grad modes)."""
from . import hooks  # noqa: F401
