"""torch.amp's decorators for the forward and backward of custom Functions, which many
real custom Functions carry.  They matter inside an autocast region (mixed precision),
which minigrad does not have: every op computes in its inputs' dtype.  Outside such a
region PyTorch's decorators call the method unchanged, and so do these.

Example::

    >>> import minigrad as torch
    >>> class Exp(torch.autograd.Function):
    ...     @staticmethod
    ...     @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x.exp()
    ...     @staticmethod
    ...     @torch.amp.custom_bwd(device_type="cpu")
    ...     def backward(ctx, g):
    ...         return g * ctx.saved_tensors[0].exp()
    >>> Exp.apply(torch.zeros(2, requires_grad=True))
    tensor([1., 1.], grad_fn=<ExpBackward>)
"""
import functools


def _check(device_type):
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorate a custom Function's forward (`cast_inputs`: the dtype autocast would cast
    floating-point inputs to; no autocast here, so none is cast)."""
    _check(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._fwd_used_autocast = False
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorate a custom Function's backward: it runs with forward's autocast state."""
    _check(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        return bwd(*args, **kwargs)
    return decorate_bwd
