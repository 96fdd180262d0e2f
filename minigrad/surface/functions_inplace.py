"""torch.sin_(x), torch.zero_(x) ...: the in-place function forms, each the Tensor
method of the same name (x.sin_(), x.zero_()), read tensor_inplace.py for them."""
from . import arguments


@arguments.function
def abs_(input):
    return input.abs_()


@arguments.function
def cos_(input):
    return input.cos_()


@arguments.function
def exp_(input):
    return input.exp_()


@arguments.function
def log_(input):
    return input.log_()


@arguments.function
def neg_(input):
    return input.neg_()


@arguments.function
def reciprocal_(input):
    return input.reciprocal_()


@arguments.function
def relu_(input):
    return input.relu_()


@arguments.function
def sigmoid_(input):
    return input.sigmoid_()


@arguments.function
def sin_(input):
    return input.sin_()


@arguments.function
def sqrt_(input):
    return input.sqrt_()


@arguments.function
def tanh_(input):
    return input.tanh_()


@arguments.function
def clamp_(input, min=None, max=None):
    return input.clamp_(min, max)


@arguments.function
def clamp_min_(input, min):
    return input.clamp_min_(min)


@arguments.function
def clamp_max_(input, max):
    return input.clamp_max_(max)


@arguments.function
def fill_(input, value):
    return input.fill_(value)


@arguments.function
def zero_(input):
    return input.zero_()


@arguments.function
def detach_(input):
    return input.detach_()


__all__ = [n for n in dir() if not n.startswith("_")]
