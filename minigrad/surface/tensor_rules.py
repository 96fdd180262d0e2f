"""PyTorch's rules for what may be assigned to a tensor's `grad` and `data`, with its
messages.  They live here so that tensor.py reads as what a tensor holds: these checks are
PyTorch's surface (a student who writes `x.grad = ...` by hand meets them)."""


def check_assigned_grad(tensor, value):
    """`tensor.grad = value` (value not None): a tensor of the same shape, dtype and device."""
    if not getattr(value, "_is_minigrad_tensor", False):
        raise TypeError(f"assigned grad expected to be a Tensor or None but got "
                        f"grad of type {type(value).__name__}")
    if value is tensor:
        raise RuntimeError("can't assign Variable as its own grad")
    if value.shape != tensor.shape:
        raise RuntimeError(
            f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
            f"of size '{list(tensor.shape)}'. Please ensure that the gradient and the "
            "tensor are the same size")
    if value.dtype is not tensor.dtype:
        raise RuntimeError("attempting to assign a gradient with dtype "
                           f"'{value.dtype}' to a tensor with dtype '{tensor.dtype}'.")
    theirs, ours = value.device, tensor.device
    if theirs != ours:
        where = (f"with device type '{theirs.type}' to a tensor with device type "
                 f"'{ours.type}'" if theirs.type != ours.type else
                 f"located on device with index '{theirs.index}' to a tensor located "
                 f"on device with index '{ours.index}'")
        raise RuntimeError(f"attempting to assign a gradient {where}. Please ensure "
                           "that the gradient and the tensor are on the same device")


def check_assigned_data(tensor, value):
    """`tensor.data = value`: a tensor, floating point where `tensor` requires grad."""
    if not getattr(value, "_is_minigrad_tensor", False):
        raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
    if tensor._requires_grad and not value.dtype.is_floating_point:
        raise RuntimeError("data set to a tensor that requires gradients must be floating "
                           "point or complex dtype")
