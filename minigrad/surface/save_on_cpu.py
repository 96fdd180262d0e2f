"""`save_on_cpu`: saved tensors hooks that keep what backward needs in host memory."""
from .. import backend
from ..core.hooks import saved_tensors_hooks


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors in host (CPU) memory; copy them back to their device for backward.

    On a GPU this trades device memory for copies: what forward saves leaves the GPU,
    and backward brings each tensor back when it needs it.  With `pin_memory=True`
    the host copies go to page-locked memory (CuPy's pinned memory), which the GPU
    copies from faster.  On the CPU `.cpu()` is the tensor itself: nothing moves
    (as in PyTorch).  Each packed tensor is `(device, host tensor)`.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([0.0, 1.0], requires_grad=True)     # device="cuda" on a GPU
        >>> with torch.autograd.graph.save_on_cpu(pin_memory=True):
        ...     y = x.exp()
        >>> y.sum().backward()
        >>> x.grad
        tensor([1.0000, 2.7183])
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            if not pin_memory or tensor.device is backend.CPU:
                return (tensor.device, tensor.cpu())
            return (tensor.device, tensor._make(backend.to_pinned_host(tensor._data)))

        def unpack_from_cpu(packed):
            device, host_tensor = packed
            return host_tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)
