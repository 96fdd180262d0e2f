"""Random samples whose parameters are tensors: torch.normal(mean, std) with a tensor
mean or std, one sample per element.  PyTorch does not differentiate through the draw:
the gradient that reaches mean and std is zero (write mean + std * torch.randn(...) for a
sample that carries their gradient)."""
from .arithmetic import array_of, check_shapes_broadcast, is_tensor
from .builtin import BuiltinFunction


class Normal(BuiltinFunction):
    """out ~ N(mean, std²) elementwise, mean and std broadcast (one of them may be a
    number);  dmean = 0,  dstd = 0."""

    node_name = "NormalBackward3"

    @staticmethod
    def forward(ctx, mean, std):
        from ..creation import _rng
        like = mean if is_tensor(mean) else std
        m, s = array_of(mean, like.dtype, like), array_of(std, like.dtype, like)
        if not is_tensor(std) and std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
        if (s < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        check_shapes_broadcast(getattr(mean, "shape", ()), getattr(std, "shape", ()))
        ctx.shapes = [getattr(t, "shape", None) for t in (mean, std)]
        sample = _rng["generator"].normal(m, s)
        return like._new(like._xp.asarray(sample, dtype=like._data.dtype).reshape(
            (m + s).shape))

    @staticmethod
    def backward(ctx, grad):
        zeros = [None if shape is None else grad._new(grad._xp.zeros(shape, grad._data.dtype))
                 for shape in ctx.shapes]
        return tuple(zeros)


class NormalOfMean(Normal):
    """normal(mean tensor, std number)."""

    node_name = "NormalBackward1"


class NormalOfStd(Normal):
    """normal(mean number, std tensor)."""

    node_name = "NormalBackward2"


def normal(mean, std):
    """The op for a tensor mean and/or std, named as PyTorch names each."""
    if is_tensor(mean) and is_tensor(std):
        return Normal.apply(mean, std)
    return (NormalOfMean if is_tensor(mean) else NormalOfStd).apply(mean, std)
